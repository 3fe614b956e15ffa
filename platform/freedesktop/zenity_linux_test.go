package freedesktop

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/openworker/desktop/internal/testbin"
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
	zenityPID := testbin.PIDFromFIFO(t, pidFile, hangGuard)
	parent := exec.Command(exe, "-test.run=^$")
	parent.Env = append(os.Environ(), "ASK_PARENT=1", "FAKE_ZENITY=pid-sleep", "FAKE_ZENITY_PIDFILE="+pidFile)
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	defer parent.Process.Kill()
	pid := zenityPID()
	// A pidfd becomes readable when the process exits, whoever reaps it.
	exited, err := testbin.ExitWatch(pid, hangGuard)
	if err != nil {
		t.Fatal(err)
	}
	parent.Process.Kill()
	parent.Wait()
	if err := exited(); err != nil {
		t.Fatalf("zenity outlived its killed parent: %v", err)
	}
}
