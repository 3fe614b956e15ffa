package doctor

import (
	"os"
	"path/filepath"
	"testing"
)

// The home folder is written as ~ (the forms of secrets and URLs are
// internal/redact's tests).
func TestHomeTilde(t *testing.T) {
	if home, err := os.UserHomeDir(); err == nil && len(home) > 1 {
		if got := homeTilde(filepath.Join(home, "x")); got != filepath.Join("~", "x") {
			t.Errorf("homeTilde = %q, want ~/x", got)
		}
	}
}

// TestTildeForWholeFolder: the home folder becomes ~ only where it is a
// whole folder, never the start of another name.
func TestTildeForWholeFolder(t *testing.T) {
	for _, c := range []struct{ home, in, want string }{
		{"/home/ann", "/home/ann/x", "~/x"},
		{"/home/ann", "journal: /home/ann", "journal: ~"},
		{"/home/ann", "(/home/ann) and /home/ann/.config", "(~) and ~/.config"},
		{"/home/ann", "/home/anna/x and /home/ann.old and /home/ann-2", "/home/anna/x and /home/ann.old and /home/ann-2"},
		{`C:\Users\ann`, `C:\Users\ann\AppData and C:\Users\anna`, `~\AppData and C:\Users\anna`},
		{"/home/ann/", "/home/ann/x", "~/x"},
		{"/home/ann", "PATH=/home/ann:/home/ann/bin:/home/ann", "PATH=~:~/bin:~"},
		{"/", "/x", "/x"},
	} {
		if got := tildeFor(c.home, c.in); got != c.want {
			t.Errorf("tildeFor(%q, %q) = %q, want %q", c.home, c.in, got, c.want)
		}
	}
}
