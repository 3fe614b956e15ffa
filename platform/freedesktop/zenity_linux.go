package freedesktop

import (
	"os/exec"
	"runtime"
	"syscall"
)

// dieWithParent asks Linux to SIGKILL the zenity child when the process that
// started it dies (PR_SET_PDEATHSIG), so a dialog never outlives a killed
// openworker: a leftover consent dialog would answer nobody.
//
// The signal is tied to the OS thread that forks, not to the process, so the
// calling goroutine stays locked to that thread until the returned func is
// called after Wait; otherwise a thread exiting under another goroutine
// could close the dialog early.
func dieWithParent(cmd *exec.Cmd) (release func()) {
	runtime.LockOSThread()
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	return runtime.UnlockOSThread
}
