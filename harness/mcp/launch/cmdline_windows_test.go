package launch

import (
	"syscall"
	"testing"
)

// On Windows, QuoteArg is exactly what os/exec uses for .exe programs.
func TestQuoteArgIsEscapeArg(t *testing.T) {
	for _, s := range []string{``, `a`, `a b`, `a"b`, `a\"b`, `C:\x y\`, `\\`, "t\tt", `"`, `a\\b c\\`} {
		if got, want := QuoteArg(s), syscall.EscapeArg(s); got != want {
			t.Errorf("QuoteArg(%q) = %s; syscall.EscapeArg = %s", s, got, want)
		}
	}
}
