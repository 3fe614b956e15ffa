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
