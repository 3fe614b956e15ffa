//go:build !linux

package mcp

// BecomeSubreaper does nothing where the system has no child subreaper
// (docs/mcp.md#process-tree).
func BecomeSubreaper() error { return nil }
