package testbin

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// PIDFromFIFO makes a FIFO at path and returns a func that waits (up to
// guard) for a child to write its pid into it: reading a FIFO waits for its
// writer, so no polling is needed. The func fails t when nothing (or no
// pid) comes.
func PIDFromFIFO(t *testing.T, path string, guard time.Duration) func() int {
	t.Helper()
	if err := unix.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	read := make(chan []byte, 1)
	go func() { b, _ := os.ReadFile(path); read <- b }()
	return func() int {
		t.Helper()
		select {
		case b := <-read:
			pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			if pid == 0 {
				t.Fatalf("the child wrote no pid into %s", path)
			}
			return pid
		case <-time.After(guard):
			t.Fatalf("no child wrote its pid into %s within %v", path, guard)
			return 0
		}
	}
}

// ExitWatch opens a pidfd for pid: its func waits up to guard for the
// process to exit, whoever reaps it, and returns an error (after
// SIGKILLing it) when it is still there.
func ExitWatch(pid int, guard time.Duration) (wait func() error, err error) {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return nil, fmt.Errorf("pidfd_open(%d): %w", pid, err)
	}
	return func() error {
		defer unix.Close(fd)
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int(guard/time.Millisecond))
		for err == unix.EINTR {
			n, err = unix.Poll(fds, int(guard/time.Millisecond))
		}
		if err != nil || n == 0 {
			syscall.Kill(pid, syscall.SIGKILL)
			return fmt.Errorf("pid %d is still running after %v (poll: %d, %v)", pid, guard, n, err)
		}
		return nil
	}, nil
}
