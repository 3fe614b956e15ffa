//go:build unix

package cli_test

import (
	"os/exec"
	"syscall"
)

// interruptible prepares cmd, before Start, for interrupt; nothing to do
// on Unix.
func interruptible(*exec.Cmd) {}

// interrupt is Ctrl-C for the started cmd: SIGINT.
func interrupt(cmd *exec.Cmd) error { return cmd.Process.Signal(syscall.SIGINT) }
