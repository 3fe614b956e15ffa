package app

import "net/http"

// startModeScript is /start-mode.js as served when the app was started
// hidden (--background): splash-theme.js then does not show the window
// when its page paints (docs/app.md#running-in-the-background). A normal
// start serves the file as built (frontend/public/start-mode.js).
const startModeScript = "window.openworkerStartHidden = true;\n"

// startMode serves startModeScript for /start-mode.js when hidden is
// true, and leaves every request to next otherwise.
func startMode(hidden bool, next http.Handler) http.Handler {
	if !hidden {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/start-mode.js" {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write([]byte(startModeScript))
	})
}
