package app

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A start with --background serves /start-mode.js saying so, and every
// other path as built; a normal start serves everything as built.
func TestStartModeScript(t *testing.T) {
	built := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "built "+r.URL.Path)
	})
	get := func(h http.Handler, path string) string {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		return rec.Body.String()
	}
	hidden := startMode(true, built)
	if got := get(hidden, "/start-mode.js"); !strings.Contains(got, "openworkerStartHidden = true") {
		t.Errorf("hidden start serves %q", got)
	}
	if got := get(hidden, "/index.html"); got != "built /index.html" {
		t.Errorf("hidden start, other path: %q", got)
	}
	if got := get(startMode(false, built), "/start-mode.js"); got != "built /start-mode.js" {
		t.Errorf("normal start serves %q", got)
	}
}
