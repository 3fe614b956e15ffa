package mcp

import (
	"path/filepath"
	"testing"
)

func TestSourceFile(t *testing.T) {
	abs := filepath.Join(t.TempDir(), "servers.json")
	for _, c := range []struct{ in, want string }{
		{abs + ":12", abs},
		{abs, abs},
		{abs + ":", abs + ":"},
		{"servers.json:3", ""},
		{"", ""},
		{abs + ":x", abs + ":x"},
	} {
		if got := sourceFile(c.in); got != c.want {
			t.Errorf("sourceFile(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
