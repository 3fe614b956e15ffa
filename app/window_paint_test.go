package app

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// The window's paint timings go to the log; nonsense is refused.
func TestPaintedIsLogged(t *testing.T) {
	var buf bytes.Buffer
	e := newTestEnv(t, envOpts{logger: slog.New(slog.NewTextHandler(&buf, nil))})
	if err := e.app.Window.Painted(WindowPaint{HTMLParsed: 12, FirstPaint: 41.5, FirstContentfulPaint: 52, Mounted: 180}); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); !strings.Contains(got, "window painted") || !strings.Contains(got, "first_paint_ms=41") || !strings.Contains(got, "html_parsed_ms=12") || !strings.Contains(got, "mounted_ms=180") {
		t.Fatalf("log = %q; want the paint timings", got)
	}
	if err := e.app.Window.Painted(WindowPaint{FirstPaint: -1}); err == nil {
		t.Fatal("Painted(-1 ms) = nil; want an error")
	}
}
