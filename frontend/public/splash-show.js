// The window's first appearance (docs/app.md#window-size-and-splash). The
// window starts hidden (app/run.go): it appears now, the splash's markup
// above this script parsed, so the window's first frame has it (shown
// from the head, it came up as an empty rectangle of the window's colour
// while the body was still unparsed); not when the app was started
// hidden on purpose (--background; start-mode.js). A classic script from
// the app itself, as the page's policy allows (no inline script).
(function () {
  try {
    if (!window.openworkerStartHidden && window.runtime && window.runtime.WindowShow) window.runtime.WindowShow();
  } catch (e) {
    // the Go side shows it when the page is ready
  }
})();
