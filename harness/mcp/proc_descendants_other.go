//go:build unix && !linux

package mcp

// killDescendants has no /proc to search on this system: the process
// group kill is all there is, and a descendant that called setsid is not
// reached (docs/mcp.md#process-tree).
func killDescendants(int, string) {}
