package app

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/elicit"
)

// fakeShell counts what the app asked of the window.
type fakeShell struct{ shown, hidden, quits atomic.Int32 }

func (f *fakeShell) show() { f.shown.Add(1) }
func (f *fakeShell) hide() { f.hidden.Add(1) }
func (f *fakeShell) quit() { f.quits.Add(1) }

// The Background section is saved in settings.json; "start at login"
// writes the login entry (a real file in a temporary HOME) and removes it;
// Save Settings keeps the section as it is.
func TestSetBackgroundSavesAndWritesTheLoginEntry(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the Windows entry is a registry value (platform/autostart)")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	a := newTestEnv(t, envOpts{}).app
	b, err := a.Preferences.GetBackground()
	if err != nil || b.KeepRunning || b.StartAtLogin || b.QuestionWaitSeconds != 60 {
		t.Fatalf("GetBackground() at first = %+v, %v; want all off and 60 s", b, err)
	}
	got, err := a.Preferences.SetBackground(BackgroundSettings{KeepRunning: true, StartAtLogin: true, QuestionWaitSeconds: 300})
	if err != nil {
		t.Fatal(err)
	}
	if !got.KeepRunning || !got.StartAtLogin || got.QuestionWaitSeconds != 300 || !strings.HasPrefix(got.AutostartEntry, home) {
		t.Fatalf("SetBackground = %+v", got)
	}
	saved, _ := LoadSettings(a.paths.Settings)
	if !saved.KeepRunning || !saved.StartAtLogin || saved.QuestionWaitSeconds != 300 {
		t.Fatalf("settings.json = %+v", saved)
	}
	entry, err := os.ReadFile(got.AutostartEntry)
	if err != nil {
		t.Fatalf("the login entry was not written: %v", err)
	}
	exe, _ := os.Executable()
	exe, _ = filepath.EvalSymlinks(exe)
	if !strings.Contains(string(entry), exe) || !strings.Contains(string(entry), "--background --config-dir") {
		t.Fatalf("login entry =\n%s\nwant this program with --background and --config-dir", entry)
	}
	form, _ := a.Preferences.GetSettings()
	form.Settings.KeepRunning, form.Settings.QuestionWaitSeconds = false, 0
	if _, err := a.Preferences.SaveSettings(form.Settings); err != nil {
		t.Fatal(err)
	}
	if saved, _ := LoadSettings(a.paths.Settings); !saved.KeepRunning || saved.QuestionWaitSeconds != 300 {
		t.Fatalf("Save Settings changed the background section: %+v", saved)
	}
	if _, err := a.Preferences.SetBackground(BackgroundSettings{QuestionWaitSeconds: 60}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(got.AutostartEntry); !os.IsNotExist(err) {
		t.Fatalf("start at login off: the entry is still there (%v)", err)
	}
	if saved, _ := LoadSettings(a.paths.Settings); saved.KeepRunning || saved.StartAtLogin || saved.QuestionWaitSeconds != 0 {
		t.Fatalf("settings.json after all off = %+v; want the defaults left out", saved)
	}
}

func TestSetBackgroundRefusesAWaitOutOfBounds(t *testing.T) {
	a := newTestEnv(t, envOpts{}).app
	for _, secs := range []int{0, 9, 3601} {
		_, err := a.Preferences.SetBackground(BackgroundSettings{KeepRunning: true, QuestionWaitSeconds: secs})
		if err == nil || !strings.Contains(err.Error(), "choose 10 to 3600 seconds") {
			t.Errorf("SetBackground(wait %d) = %v; want the bounds named", secs, err)
		}
	}
	if saved, _ := LoadSettings(a.paths.Settings); saved.KeepRunning {
		t.Fatal("a refused section was saved")
	}
}

// With "keep running" on closing hides the window; Quit makes closing
// quit again.
func TestCloseHidesWithKeepRunning(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	a := e.app
	sh := &fakeShell{}
	a.Window.shell = sh
	if a.closeHides() {
		t.Fatal("closeHides with keep running off")
	}
	if _, err := a.Preferences.SetBackground(BackgroundSettings{KeepRunning: true, QuestionWaitSeconds: 60}); err != nil {
		t.Fatal(err)
	}
	if !a.closeHides() {
		t.Fatal("closeHides = false with keep running on")
	}
	if err := a.Window.Quit(); err != nil || sh.quits.Load() != 1 {
		t.Fatalf("Quit() = %v, shell quit %d times", err, sh.quits.Load())
	}
	if a.closeHides() {
		t.Fatal("after Quit closing still only hides")
	}
}

// An unattended question is declined after the Settings wait; an
// attended one is not bounded by it.
func TestQuestionWaitBoundsUnattendedQuestions(t *testing.T) {
	inner := elicitFunc(func(ctx context.Context, q elicit.Question) (elicit.Answer, error) {
		dl, ok := ctx.Deadline()
		if !ok || !q.Deadline.Equal(dl) {
			return elicit.Answer{}, nil
		}
		<-ctx.Done()
		return elicit.Answer{Action: elicit.Decline}, ctx.Err()
	})
	w := &questionWait{inner: inner, unattended: func(s string) bool { return s == "u" }, wait: func() time.Duration { return 10 * time.Millisecond }}
	a, err := w.Elicit(context.Background(), elicit.Question{SessionID: "u"})
	if a.Action != elicit.Decline || err != context.DeadlineExceeded {
		t.Fatalf("unattended Elicit = %+v, %v; want declined at the wait's end", a, err)
	}
	if a, err := w.Elicit(context.Background(), elicit.Question{SessionID: "attended"}); a.Action != "" || err != nil {
		t.Fatalf("attended Elicit = %+v, %v; want no bound added", a, err)
	}
}

type elicitFunc func(context.Context, elicit.Question) (elicit.Answer, error)

func (f elicitFunc) Elicit(ctx context.Context, q elicit.Question) (elicit.Answer, error) {
	return f(ctx, q)
}
