//go:build unix

package jsonfile

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadFileRefusesSpecialFiles: a named pipe must not block ReadFile (it
// would hang `openworker check` forever), and a device or socket is named
// for what it is, not reported as "0 bytes" or read without end.

// hangGuard bounds a wait that only catches a hang: a named pipe opened for
// reading blocks until a writer comes, which is never. It is far longer
// than reading a file takes on a loaded machine.
const hangGuard = 30 * time.Second

func TestReadFileRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "manifest.md")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	dev := filepath.Join(dir, "dev.json")
	if err := os.Symlink("/dev/urandom", dev); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "s.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, tc := range []struct{ path, what string }{
		{fifo, "manifest.md is not a regular file (it is a named pipe)"},
		{dev, "dev.json is not a regular file (it is a character device)"},
		{sock, "s.sock is not a regular file (it is a socket)"},
	} {
		done := make(chan error, 1)
		go func() { _, err := ReadFile(tc.path, 1<<20); done <- err }()
		select {
		case err := <-done:
			e, ok := AsError(err)
			if !ok || e.File != tc.path || e.Msg != tc.what || e.Fix == "" {
				t.Errorf("ReadFile(%s) = %v, want a *Error %q with a fix", filepath.Base(tc.path), err, tc.what)
			}
		case <-time.After(hangGuard):
			// Unblock the reader so the test can end, then fail.
			if w, err := os.OpenFile(tc.path, os.O_WRONLY, 0); err == nil {
				w.Close()
			}
			t.Fatalf("ReadFile(%s) is still blocked after %v", filepath.Base(tc.path), hangGuard)
		}
	}
}

// TestNotRegularAfterOpen covers the second check, for a pipe that appears
// between the Stat and the open: with O_NONBLOCK the open returns at once
// and the check on the open file refuses it.
func TestNotRegularAfterOpen(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "p")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	f, err := os.OpenFile(fifo, os.O_RDONLY|openFlags, 0)
	if err != nil {
		t.Fatalf("open with openFlags: %v", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if e := notRegular(fifo, st); e == nil || !strings.Contains(e.Msg, "named pipe") {
		t.Errorf("notRegular(open fifo) = %v", e)
	}
}
