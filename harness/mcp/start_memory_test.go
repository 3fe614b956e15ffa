package mcp

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestFirstStartRemembered: a command that may download first (a stdio
// program named npx) gets DownloadStartTimeout until a start of it
// succeeded; the starts file then remembers it and later starts get
// DefaultStartTimeout. Another command is not remembered; a broken file
// is replaced at the next start; without a file nothing is remembered.
func TestFirstStartRemembered(t *testing.T) {
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A copy, not a link: Windows runs only a file named .exe, and Wine 8
	// does not follow links (scripts/wine/unit-steps.sh).
	npx := filepath.Join(dir, "npx")
	if runtime.GOOS == "windows" {
		npx += ".exe"
	}
	if b, err := os.ReadFile(exe); err != nil {
		t.Fatal(err)
	} else if err := os.WriteFile(npx, b, 0o755); err != nil {
		t.Fatal(err)
	}
	srv := selfServer(t, "fs", "helper")
	srv.Program, srv.Args = npx, []string{"-y", "some-server"}
	starts := filepath.Join(dir, "mcp-starts.json")
	opts := &Options{StartsFile: starts}
	if got := StartTimeoutOf(srv, opts); got != DownloadStartTimeout {
		t.Fatalf("first start bound = %v, want %v", got, DownloadStartTimeout)
	}
	if err := os.WriteFile(starts, []byte("not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := Connect(context.Background(), srv, opts)
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	if got := StartTimeoutOf(srv, opts); got != DefaultStartTimeout {
		t.Errorf("bound after a start = %v, want %v", got, DefaultStartTimeout)
	}
	b, _ := os.ReadFile(starts)
	if !strings.Contains(string(b), `"started"`) || strings.Contains(string(b), "some-server") {
		t.Errorf("starts file:\n%s\nwant hashed keys only", b)
	}
	other := srv
	other.Args = []string{"-y", "another-server"}
	if got := StartTimeoutOf(other, opts); got != DownloadStartTimeout {
		t.Errorf("another command's bound = %v, want %v", got, DownloadStartTimeout)
	}
	if got := StartTimeoutOf(srv, &Options{}); got != DownloadStartTimeout {
		t.Errorf("bound without a starts file = %v", got)
	}
	srv.StartTimeout = 200e9
	if got := StartTimeoutOf(srv, opts); got != srv.StartTimeout {
		t.Errorf("the entry's startup_timeout = %v, want it to win", got)
	}
}
