//go:build !windows

package app

// wakeFirstInstance is Windows' way to reach the first instance; on Linux
// and macOS the wake socket (wake_socket_unix.go) is, and a second start
// that cannot reach it only says so.
func wakeFirstInstance(string, secondLaunch) bool { return false }
