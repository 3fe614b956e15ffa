//go:build unix

package mcp

import (
	"errors"
	"os/exec"
	"syscall"
)

// setupCommand puts the provider in a process group of its own, so that Close
// can end it together with every process it started, and on Linux has the
// kernel kill it when OpenWorker dies, even by SIGKILL (dieWithParent). It
// also marks the provider's environment with a tag of its own that every
// descendant inherits, so that one that left the group with setsid is
// still found (docs/mcp.md#process-tree).
func setupCommand(cmd *exec.Cmd, _ string) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd.SysProcAttr)
	cmd.Env = append(cmd.Env, treeEnv+"="+nextTreeTag())
	ensureWatchdog()
}

// procTree is the process group of a started provider, with the tag its
// descendants carry.
type procTree struct {
	pgid int
	tag  string
}

func newProcTree(cmd *exec.Cmd) (*procTree, error) {
	return &procTree{pgid: cmd.Process.Pid, tag: tagOf(cmd.Env)}, nil
}

// kill sends SIGKILL to the whole group and, where the system lets it find
// them (Linux), to every other descendant: those that called setsid, and
// those that carry the provider's tag after their parent exited. A group
// already gone is not an error.
func (t *procTree) kill() error {
	if t == nil || t.pgid <= 0 {
		return nil
	}
	err := syscall.Kill(-t.pgid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		err = nil
	}
	killDescendants(t.pgid, t.tag)
	return err
}

func (t *procTree) release() {}
