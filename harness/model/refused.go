package model

import (
	"errors"
	"runtime"
	"syscall"
)

// wsaeconnrefused is Windows' WSAECONNREFUSED: what a connect to a port
// nothing listens on fails with there. Go's syscall.ECONNREFUSED on Windows
// is a made-up number that no socket error matches, so errors.Is with it
// alone never sees a refused connection on Windows (found by running the
// Windows build under Wine, scripts/test-windows-wine.sh: a probe of a
// closed port said "network" instead of "refused").
const wsaeconnrefused = syscall.Errno(10061)

// isRefused reports whether err is a refused TCP connection.
func isRefused(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED) || (runtime.GOOS == "windows" && errors.Is(err, wsaeconnrefused))
}
