// How the app started (docs/app.md#running-in-the-background): the app
// serves this file with openworkerStartHidden = true when it was started
// hidden (--background, the login entry; app/startmode.go), so
// splash-theme.js leaves the window hidden. As built: a normal start.
window.openworkerStartHidden = false;
