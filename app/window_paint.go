package app

import "fmt"

// WindowPaint is how fast the window showed something after its page
// started loading, in milliseconds since the page's navigation start
// (the browser's performance timeline): FirstPaint is when the splash of
// index.html was painted, FirstContentfulPaint its first text (WebKitGTK
// 2.4x reports neither), HTMLParsed when index.html was parsed (its
// domInteractive: the splash can be painted from then on), Mounted when
// the app replaced the splash. 0 means the browser did not say.
type WindowPaint struct {
	HTMLParsed           float64 `json:"html_parsed_ms"`
	FirstPaint           float64 `json:"first_paint_ms"`
	FirstContentfulPaint float64 `json:"first_contentful_paint_ms"`
	Mounted              float64 `json:"mounted_ms"`
}

// Painted records the window's paint timings in the log, once per page
// load (the UI calls it after it mounts; docs/app.md#window-size-and-splash).
// Negative or absurd (over an hour) values are refused as a programming error.
func (w *Window) Painted(p WindowPaint) error {
	for _, v := range []float64{p.HTMLParsed, p.FirstPaint, p.FirstContentfulPaint, p.Mounted} {
		if v < 0 || v > 3_600_000 {
			return fmt.Errorf("paint timing %v ms: want 0 to 3600000", v)
		}
	}
	w.log.Info("window painted", "html_parsed_ms", int(p.HTMLParsed), "first_paint_ms", int(p.FirstPaint), "first_contentful_paint_ms", int(p.FirstContentfulPaint), "mounted_ms", int(p.Mounted))
	notePainted(p)
	return nil
}
