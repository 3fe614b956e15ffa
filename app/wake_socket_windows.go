//go:build windows

package app

import (
	"errors"
	"io"
)

// listenWake does nothing on Windows: the first instance receives a second
// start through Wails' single-instance lock (a hidden message window that
// calls OnSecondInstanceLaunch), which wakeFirstInstance writes to.
func listenWake(string, func(secondLaunch)) (io.Closer, error) { return io.NopCloser(nil), nil }

// wakeBySocket is unsupported on Windows; wakeFirstInstance is used.
func wakeBySocket(string, secondLaunch) error { return errors.ErrUnsupported }
