package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"testing"
)

// The errors Windows gives while a file is replaced are retried; others
// (a missing file) are not.
func TestTransientOnWindows(t *testing.T) {
	sharing := &os.PathError{Op: "open", Path: "x", Err: syscall.Errno(32)}
	denied := &os.LinkError{Op: "rename", Old: "a", New: "b", Err: syscall.Errno(5)}
	if !transient(sharing) || !transient(fmt.Errorf("wrapped: %w", denied)) {
		t.Error("a sharing violation or access denied is not retried")
	}
	if transient(&os.PathError{Op: "open", Path: "x", Err: syscall.Errno(2)}) || transient(errors.New("other")) {
		t.Error("a missing file is retried")
	}
}
