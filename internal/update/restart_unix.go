//go:build unix

package update

import (
	"os"
	"syscall"
)

// Restart replaces this process with exe (just updated), with the same
// arguments and environment. It returns only on failure.
func Restart(exe string, args []string) error {
	return syscall.Exec(exe, args, os.Environ())
}
