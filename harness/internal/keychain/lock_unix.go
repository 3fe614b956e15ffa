//go:build unix

package keychain

import (
	"os"

	"golang.org/x/sys/unix"
)

// lockExclusive takes an exclusive flock on f, waiting for it. flock locks
// belong to the open file, so two Keychains of one process exclude each
// other too.
func lockExclusive(f *os.File) error {
	for {
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != unix.EINTR {
			return err
		}
	}
}
