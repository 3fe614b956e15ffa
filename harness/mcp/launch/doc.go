// Package launch finds and starts the program of an MCP stdio provider
// (docs/mcp.md#finding-the-program): it resolves a command against an
// explicit search PATH with the rules of a given OS (PATHEXT and
// .cmd/.bat shims on Windows, executable bits on Unix), builds the
// cmd.exe command line that runs a .cmd/.bat shim with its arguments
// taken literally, and reads the login shell's PATH once, so that an app
// started from Finder or the Dock finds npx and uvx.
//
// The package has no cgo. The rules are functions of their inputs (the
// OS is a parameter), so the Windows rules are tested on Linux too; only
// running the login shell is OS-specific (shell_unix.go).
// Setting syscall.SysProcAttr.CmdLine is left to the caller's
// Windows-only code.
package launch
