//go:build !linux && !windows

package app

// wakeFirstInstance does nothing on macOS: opening the app bundle again
// brings the running one to the front (Launch Services).
func wakeFirstInstance(string) {}
