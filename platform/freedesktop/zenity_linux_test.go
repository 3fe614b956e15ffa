package freedesktop

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestZenityDiesWithParent kills (SIGKILL) a process that is showing a
// dialog and checks that its zenity child is gone too, not left on screen
// answering nobody.
func TestZenityDiesWithParent(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(t.TempDir(), "zenity.pid")
	parent := exec.Command(exe, "-test.run=^$")
	parent.Env = append(os.Environ(), "ASK_PARENT=1", "FAKE_ZENITY=pid-sleep", "FAKE_ZENITY_PIDFILE="+pidFile)
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	for deadline := time.Now().Add(hangGuard); pid == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			parent.Process.Kill()
			t.Fatal("the fake zenity never started")
		}
		b, _ := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(string(b))
	}
	parent.Process.Kill()
	parent.Wait()
	for deadline := time.Now().Add(hangGuard); ; time.Sleep(10 * time.Millisecond) {
		// The zenity child is reparented; signal 0 fails once it is gone
		// (reaped by init, or a zombie we cannot see as alive via /proc).
		if !alive(pid) {
			return
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("zenity (pid %d) outlived its killed parent", pid)
		}
	}
}

// alive reports whether pid is a running (not zombie) process.
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the ")" that ends the command name.
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == ')' {
			return i+2 < len(b) && b[i+2] != 'Z'
		}
	}
	return true
}
