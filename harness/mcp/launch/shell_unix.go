//go:build unix

package launch

import (
	"context"
	"os/exec"
	"syscall"
	"time"
)

// runShell runs the login shell in a session of its own (so an
// interactive shell has no controlling terminal to wait for, as VS Code
// starts it) with stdin closed; when ctx ends its whole process group is
// killed, so an rc file's background job cannot keep it alive, and
// WaitDelay stops a grandchild holding stdout from blocking the wait
// (Run then returns exec.ErrWaitDelay). The group is killed again once
// Run returns, so such a job never outlives the read.
func runShell(ctx context.Context, shell string, args []string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, shell, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 500 * time.Millisecond
	var out limited
	cmd.Stdout = &out
	err := cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // ESRCH when the group is gone
	}
	return out.b, err
}
