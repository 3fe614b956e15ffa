//go:build windows

package app

import (
	"errors"
	"io"
)

// listenWake does nothing on Windows: Wails' single-instance lock works
// there without extra services (a hidden message window, wake_windows.go).
func listenWake(string, func()) (io.Closer, error) { return io.NopCloser(nil), nil }

// wakeBySocket is unsupported on Windows; wakeFirstInstance is used.
func wakeBySocket(string) error { return errors.ErrUnsupported }
