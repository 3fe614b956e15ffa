//go:build unix

package files

import "syscall"

// openNonblock keeps opening a pipe from waiting for a writer (openRegular
// refuses it once open).
const openNonblock = syscall.O_NONBLOCK
