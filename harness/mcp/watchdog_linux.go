package mcp

import (
	"io"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
)

// watchdogEnv, set in the environment of a re-executed OpenWorker, makes
// it the watchdog of the process that started it: its value is the tag
// prefix of that process's providers (docs/mcp.md#process-tree).
const watchdogEnv = "OPENWORKER_WATCHDOG_FOR"

var (
	treeEnabled  bool
	watchdogOnce sync.Once
	watchdogPipe *os.File // held open for the life of this process
)

// EnableProcessTree makes this process a child subreaper and, from the
// first stdio provider on, runs a watchdog: a copy of this executable that
// waits for this process to end, however it ends (SIGKILL included), and
// then kills every process still carrying one of its providers' tags. The
// app and the CLI call it at start (main.go); it returns the subreaper
// error, if any, and the rest still works without it.
func EnableProcessTree() error {
	treeEnabled = true
	return BecomeSubreaper()
}

// ensureWatchdog starts the watchdog once, when EnableProcessTree was
// called. A watchdog that cannot start leaves the providers with their
// parent-death signal and group kill only.
func ensureWatchdog() {
	if !treeEnabled {
		return
	}
	watchdogOnce.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			return
		}
		r, w, err := os.Pipe()
		if err != nil {
			return
		}
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), watchdogEnv+"="+InstanceTagPrefix())
		cmd.Stdin = r
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // out of reach of the terminal's ^C
		if cmd.Start() != nil {
			r.Close()
			w.Close()
			return
		}
		r.Close()
		ownChildren.add(cmd.Process.Pid)
		go cmd.Wait()
		watchdogPipe = w
	})
}

// RunWatchdogIfAsked is the first thing main does: in a process started
// as a watchdog it waits for its stdin to close (the process that started
// it has ended), kills what is left of that process's providers, and
// exits; elsewhere it returns at once.
func RunWatchdogIfAsked() {
	prefix := os.Getenv(watchdogEnv)
	if prefix == "" {
		return
	}
	signal.Ignore(syscall.SIGINT, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGPIPE)
	io.Copy(io.Discard, os.Stdin)
	killDescendants(0, prefix)
	os.Exit(0)
}
