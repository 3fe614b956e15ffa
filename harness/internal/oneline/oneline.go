// Package oneline makes text from servers, models and files safe and
// short for one line of a terminal or a report: the CLI's tables and the
// doctor's facts use it.
package oneline

import "unicode"

// Cut returns text with its control characters (newlines, escapes) and
// bidirectional controls as spaces, cut to at most n runes, ending in "…"
// when cut.
func Cut(text string, n int) string {
	out := make([]rune, 0, n)
	for _, r := range text {
		if len(out) == n {
			out[n-1] = '…'
			break
		}
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			r = ' '
		}
		out = append(out, r)
	}
	return string(out)
}
