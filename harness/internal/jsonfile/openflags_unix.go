//go:build unix

package jsonfile

import "syscall"

// openFlags makes opening a named pipe return at once instead of waiting
// for a writer (see ReadFile); it has no effect on regular files.
const openFlags = syscall.O_NONBLOCK
