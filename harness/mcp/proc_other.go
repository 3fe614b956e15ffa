//go:build !unix && !windows

package mcp

import "os/exec"

func setupCommand(*exec.Cmd, string) {}

// procTree ends only the provider itself on systems without process groups
// or job objects.
type procTree struct{ cmd *exec.Cmd }

func newProcTree(cmd *exec.Cmd) (*procTree, error) { return &procTree{cmd: cmd}, nil }

func (t *procTree) kill() error {
	if t == nil || t.cmd.Process == nil {
		return nil
	}
	t.cmd.Process.Kill()
	return nil
}

func (t *procTree) release() {}
