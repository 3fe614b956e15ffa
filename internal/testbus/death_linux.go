package testbus

import (
	"os/exec"
	"syscall"
)

// setDeathSignal ends the daemon with the test process, even when that is
// killed before Stop runs.
func setDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
