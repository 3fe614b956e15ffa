package mcp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestProviderDiesWithOpenWorker SIGKILLs a process that has started a
// stdio provider and checks that the provider is gone too, not adopted by
// init (PR_SET_PDEATHSIG, proc_deathsig_linux.go).
func TestProviderDiesWithOpenWorker(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(t.TempDir(), "provider.pid")
	if err := unix.Mkfifo(pidFile, 0o600); err != nil {
		t.Fatal(err)
	}
	parent := exec.Command(exe, "-test.run=^$")
	parent.Env = append(os.Environ(), serverEnv+"=parent", "OW_ORPHAN_PIDFILE="+pidFile, "GORACE=atexit_sleep_ms=0")
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	defer parent.Process.Kill()
	read := make(chan []byte, 1)
	go func() { b, _ := os.ReadFile(pidFile); read <- b }() // opening the FIFO waits for the provider
	var pid int
	select {
	case b := <-read:
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	case <-time.After(hangGuard):
		t.Fatal("the provider never started")
	}
	if pid == 0 {
		t.Fatal("the provider wrote no pid")
	}
	fd, err := unix.PidfdOpen(pid, 0) // readable once the process exits, whoever reaps it
	if err != nil {
		t.Fatalf("pidfd_open(%d): %v", pid, err)
	}
	defer unix.Close(fd)
	parent.Process.Kill()
	parent.Wait()
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, int(hangGuard/time.Millisecond))
	for err == unix.EINTR {
		n, err = unix.Poll(fds, int(hangGuard/time.Millisecond))
	}
	if err != nil || n == 0 {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("the provider (pid %d) outlived its killed parent (poll: %d, %v)", pid, n, err)
	}
}
