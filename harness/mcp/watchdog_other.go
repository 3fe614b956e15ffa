//go:build !linux

package mcp

// EnableProcessTree makes this process a child subreaper where the system
// has one (Linux; docs/mcp.md#process-tree); here it does nothing.
func EnableProcessTree() error { return nil }

func ensureWatchdog() {}

// RunWatchdogIfAsked returns at once: the watchdog is Linux only.
func RunWatchdogIfAsked() {}
