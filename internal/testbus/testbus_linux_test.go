package testbus

import (
	"os"
	"strconv"
	"testing"
	"time"
)

// TestStopEndsTheDaemon: a stopped bus refuses connections.
func TestStopEndsTheDaemon(t *testing.T) {
	b, err := Start()
	if err != nil {
		skipOrFail(t, err)
	}
	pid := b.cmd.Process.Pid
	b.Stop()
	b.Stop()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err != nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("dbus-daemon %d still running 30 s after Stop", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
