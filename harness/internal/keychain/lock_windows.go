package keychain

import (
	"os"

	"golang.org/x/sys/windows"
)

// lockExclusive takes an exclusive LockFileEx lock on the first byte of f,
// waiting for it. The lock belongs to the handle.
func lockExclusive(f *os.File) error {
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, new(windows.Overlapped))
}
