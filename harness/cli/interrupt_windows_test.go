package cli_test

import (
	"os/exec"
	"syscall"

	"golang.org/x/sys/windows"
)

// interruptible starts cmd, before Start, in a process group of its own,
// so that interrupt reaches it alone and not this test binary.
func interruptible(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_NEW_PROCESS_GROUP
}

// interrupt is Ctrl-C for the started cmd: Windows has no SIGINT to send
// (os.Process.Signal supports only Kill), so it is a CTRL_BREAK_EVENT to
// cmd's process group, which Go delivers to the program as os.Interrupt
// as it does Ctrl-C (Go's own os/signal tests do the same). Wine 8 fails
// it ("Invalid access"), with or without a terminal: scripts/wine/
// unit-steps.sh skips TestRunInterrupted by name for that.
func interrupt(cmd *exec.Cmd) error {
	return windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(cmd.Process.Pid))
}
