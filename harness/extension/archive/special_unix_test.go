//go:build unix

package archive

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hangGuard bounds the wait for Open's refusal: far longer than it takes
// on a loaded machine, so it only catches an Open that waits for a writer.
const hangGuard = 30 * time.Second

// TestHostileSpecialFiles: a careless user gives a named pipe, a device or
// a folder as the .mcpb. Each is refused at once as not a regular file,
// naming it and the fix: opening a pipe must not wait for a writer (it
// used to hang `extension install` forever, deaf to Ctrl-C).
func TestHostileSpecialFiles(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "ext.mcpb")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	for _, path := range []string{fifo, "/dev/zero", t.TempDir()} {
		done := make(chan error, 1)
		go func() { _, err := Open(path); done <- err }()
		select {
		case err := <-done:
			var ae *Error
			if !errors.As(err, &ae) || !errors.Is(err, ErrUnreadable) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("Open(%s) = %v", path, err)
			}
		case <-time.After(hangGuard):
			t.Fatalf("Open(%s) still waits after %v", path, hangGuard)
		}
	}
}
