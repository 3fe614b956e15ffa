//go:build !e2e

package app

// startTestHook is a no-op outside e2e builds (see e2e_hook.go).
func startTestHook(*App) {}
