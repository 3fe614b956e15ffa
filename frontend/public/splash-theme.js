// The splash's theme and the window's first appearance
// (docs/app.md#window-size-and-splash). The theme is the one kept
// from the last run (lib/theme.ts keeps it under "openworker.theme"), set
// as <html data-theme> before the splash is painted; lib/theme.ts takes
// over once the app's script has loaded. A classic script from the app
// itself, as the page's policy allows (no inline script).
(function () {
  var t = null;
  try {
    t = localStorage.getItem("openworker.theme");
  } catch (e) {
    // storage refused: follow the OS
  }
  if (t !== "light" && t !== "dark") t = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  document.documentElement.setAttribute("data-theme", t);
  // The window starts hidden (app/run.go): it appears now, with the
  // splash below this script about to be painted; not when the app was
  // started hidden on purpose (--background; start-mode.js).
  try {
    if (!window.openworkerStartHidden && window.runtime && window.runtime.WindowShow) window.runtime.WindowShow();
  } catch (e) {
    // the Go side shows it when the page is ready
  }
})();
