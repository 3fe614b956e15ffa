package atomicfile

import (
	"errors"
	"syscall"
)

// transient reports a Windows error that passes once the other process
// has opened or replaced the file: ERROR_SHARING_VIOLATION (32) and
// ERROR_ACCESS_DENIED (5), which a rename over a file open elsewhere gives.
func transient(err error) bool {
	var errno syscall.Errno
	return errors.As(err, &errno) && (errno == 32 || errno == 5)
}
