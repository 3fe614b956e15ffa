//go:build !darwin

package app

// macNotificationBackend exists on macOS only (notifier_backend_darwin.go).
func macNotificationBackend() string { return "none (not macOS)" }
