//go:build unix

package journal

import (
	"os"

	"golang.org/x/sys/unix"
)

// lockFile takes an exclusive flock on f: blocking or not. flock locks
// belong to the open file, so two Journals in one process exclude each
// other too, and the kernel drops the lock when the process dies.
func lockFile(f *os.File, wait bool) error {
	how := unix.LOCK_EX
	if !wait {
		how |= unix.LOCK_NB
	}
	for {
		err := unix.Flock(int(f.Fd()), how)
		if err != unix.EINTR {
			return err
		}
	}
}
