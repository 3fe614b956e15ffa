//go:build unix

package mcp

import (
	"errors"
	"os/exec"
	"syscall"
)

// setupCommand puts the provider in a process group of its own, so that Close
// can end it together with every process it started, and on Linux has the
// kernel kill it when OpenWorker dies, even by SIGKILL (dieWithParent).
func setupCommand(cmd *exec.Cmd, _ string) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd.SysProcAttr)
}

// procTree is the process group of a started provider.
type procTree struct{ pgid int }

func newProcTree(cmd *exec.Cmd) (*procTree, error) {
	return &procTree{pgid: cmd.Process.Pid}, nil
}

// kill sends SIGKILL to the whole group; a group already gone is not an
// error.
func (t *procTree) kill() error {
	if t == nil || t.pgid <= 0 {
		return nil
	}
	if err := syscall.Kill(-t.pgid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

func (t *procTree) release() {}
