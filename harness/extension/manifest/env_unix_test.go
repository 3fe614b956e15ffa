//go:build unix

package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A binary entry point without the executable bit is a problem on macOS
// and Linux.
func TestProblemsBinaryNotExecutable(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "server"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "server", "echo"), []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := parseFile(t, "valid/binary-0.3.json").Problems(Env{Dir: dir})
	if len(got) != 1 || !strings.HasPrefix(got[0], "the entry point server/echo is not executable") {
		t.Fatalf("got %q", got)
	}
}
