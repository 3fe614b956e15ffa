//go:build !windows

package app

import (
	"syscall"
	"testing"
	"time"
)

// SIGTERM (a logout, kill) quits the app even with "keep running" on.
func TestSignalQuitsWithKeepRunning(t *testing.T) {
	a := newTestEnv(t, envOpts{}).app
	sh := &fakeShell{}
	a.Window.shell = sh
	if _, err := a.Preferences.SetBackground(BackgroundSettings{KeepRunning: true, QuestionWaitSeconds: 60}); err != nil {
		t.Fatal(err)
	}
	stop := quitOnSignal(a.Window)
	defer stop()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(hangGuard)
	for sh.quits.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond) // the signal arrives on its own goroutine: polled, bounded
	}
	if sh.quits.Load() != 1 || a.closeHides() {
		t.Fatalf("after SIGTERM: quit %d times, closeHides %v; want quit once and closing to quit", sh.quits.Load(), a.closeHides())
	}
}
