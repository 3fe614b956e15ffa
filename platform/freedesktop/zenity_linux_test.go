package freedesktop

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestZenityDiesWithParent kills (SIGKILL) a process that is showing a
// dialog and checks that its zenity child is gone too, not left on screen
// answering nobody.
func TestZenityDiesWithParent(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The fake writes its pid into a FIFO: reading it waits for the start
	// itself, with no polling.
	pidFile := filepath.Join(t.TempDir(), "zenity.pid")
	if err := unix.Mkfifo(pidFile, 0o600); err != nil {
		t.Fatal(err)
	}
	parent := exec.Command(exe, "-test.run=^$")
	parent.Env = append(os.Environ(), "ASK_PARENT=1", "FAKE_ZENITY=pid-sleep", "FAKE_ZENITY_PIDFILE="+pidFile)
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	read := make(chan []byte, 1)
	go func() { b, _ := os.ReadFile(pidFile); read <- b }()
	var pid int
	select {
	case b := <-read:
		pid, _ = strconv.Atoi(string(b))
	case <-time.After(hangGuard):
		parent.Process.Kill()
		t.Fatal("the fake zenity never started")
	}
	if pid == 0 {
		parent.Process.Kill()
		t.Fatal("the fake zenity wrote no pid")
	}
	// A pidfd becomes readable when the process exits, whoever reaps it.
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		parent.Process.Kill()
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
		t.Fatalf("zenity (pid %d) outlived its killed parent (poll: %d, %v)", pid, n, err)
	}
}
