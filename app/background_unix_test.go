//go:build !windows

package app

import (
	"syscall"
	"testing"

	"github.com/openworker/desktop/internal/testwait"
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
	// The signal arrives on its own goroutine.
	testwait.For(hangGuard, func() bool { return sh.quits.Load() != 0 })
	if sh.quits.Load() != 1 || a.closeHides() {
		t.Fatalf("after SIGTERM: quit %d times, closeHides %v; want quit once and closing to quit", sh.quits.Load(), a.closeHides())
	}
}
