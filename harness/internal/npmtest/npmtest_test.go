package npmtest

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestDir: the folder found from the source position is the one with the
// pinned package.json and the loopback preload, whichever package asks.
func TestDir(t *testing.T) {
	dir := Dir(t)
	for _, f := range []string{"package.json", "package-lock.json", "loopback.cjs", "install.sh"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("Dir() = %s lacks %s: %v", dir, f, err)
		}
	}
	if !filepath.IsAbs(dir) {
		t.Errorf("Dir() = %s, want an absolute path", dir)
	}
}

// skipRecorder is a testing.TB that records Skip and Fatalf and, as
// testing does, ends the goroutine.
type skipRecorder struct {
	testing.TB
	skipped, failed string
}

func (r *skipRecorder) Helper() {}
func (r *skipRecorder) Skip(args ...any) {
	r.skipped = fmt.Sprint(args...)
	runtime.Goexit()
}
func (r *skipRecorder) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// skipOrFail runs SkipOrFail(msg) on a recorder in a goroutine of its own.
func skipOrFail(t *testing.T, msg string) *skipRecorder {
	r := &skipRecorder{TB: t}
	done := make(chan struct{})
	go func() { defer close(done); SkipOrFail(r, msg) }()
	<-done
	return r
}

// TestSkipOrFail: a missing server skips, but fails where CI is set.
func TestSkipOrFail(t *testing.T) {
	t.Setenv("CI", "")
	r := skipOrFail(t, "node is missing")
	if r.skipped != "node is missing" || r.failed != "" {
		t.Errorf("without CI: skipped %q, failed %q; want a skip", r.skipped, r.failed)
	}
	t.Setenv("CI", "true")
	r = skipOrFail(t, "node is missing")
	if r.skipped != "" || r.failed != "node is missing (CI is set, so this test may not skip)" {
		t.Errorf("with CI: skipped %q, failed %q; want a failure", r.skipped, r.failed)
	}
}

// TestRestartKeepsThePort: the server listens on 127.0.0.1 at URL's port,
// listens there again after Restart, and not after Stop.
func TestRestartKeepsThePort(t *testing.T) {
	s := StartEverything(t, "streamableHttp")
	addr := s.URL("")[len("http://"):]
	dial := func() error {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		return err
	}
	if err := dial(); err != nil {
		t.Fatalf("dial %s after the start: %v", addr, err)
	}
	pid := s.cmd.Process.Pid
	s.Restart()
	if err := dial(); err != nil {
		t.Fatalf("dial %s after Restart: %v", addr, err)
	}
	if s.cmd.Process.Pid == pid {
		t.Errorf("Restart kept process %d, want a new one", pid)
	}
	s.Stop()
	if err := dial(); err == nil {
		t.Errorf("dial %s after Stop succeeded, want it refused", addr)
	}
	s.Stop() // twice does nothing
}
