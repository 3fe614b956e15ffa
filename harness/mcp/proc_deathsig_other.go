//go:build unix && !linux

package mcp

import "syscall"

// dieWithParent does nothing where the kernel has no parent-death signal
// (macOS, the BSDs): a provider there ends when its stdin closes, which
// is what MCP servers do (docs/mcp.md).
func dieWithParent(*syscall.SysProcAttr) {}
