package oneline

import "testing"

func TestCut(t *testing.T) {
	for in, want := range map[string]string{
		"":               "",
		"short":          "short",
		"a\nb\r\x1b[31m": `a\u000ab\u000d\u001b[31m`,
		"abcdefghijkl":   "abcdefghi…",
		"\u202eevil":     `\u202eevil`,
	} {
		if got := Cut(in, 10); got != want {
			t.Errorf("Cut(%q) = %q, want %q", in, got, want)
		}
	}
}
