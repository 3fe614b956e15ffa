package app

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/openworker/desktop/harness/settings"
	"github.com/openworker/desktop/platform/autostart"
)

// Running in the background (docs/app.md#running-in-the-background): with
// "keep running" on, closing the window hides it and the app goes on
// (schedules run, the inbox notifies); launching the app again shows the
// window (secondlaunch.go). "Start at login" writes the OS's autostart
// entry, which starts `openworker --background`: the app starts with its
// window hidden. Wails v2 has no tray; Window.Quit (the Settings
// section's "Quit OpenWorker") ends the app for real.

// windowShell shows, hides and quits the window (runtime_wails.go); tests
// pass a fake, and without a window it does nothing (noShell).
type windowShell interface {
	show()
	hide()
	quit()
}

// noShell is the windowShell of an app without a window.
type noShell struct{}

func (noShell) show() {}
func (noShell) hide() {}
func (noShell) quit() {}

// BackgroundSettings is the Settings screen's Background section.
type BackgroundSettings struct {
	KeepRunning  bool `json:"keep_running"`
	StartAtLogin bool `json:"start_at_login"`
	// QuestionWaitSeconds: how long a server's question waits in an
	// unattended run, 10 to 3600 s (0 when read back: never; it reads 60).
	QuestionWaitSeconds int `json:"question_wait_seconds"`
	// AutostartEntry is where the login entry is (a file, or on Windows
	// the registry value), shown so the person can check it.
	AutostartEntry string `json:"autostart_entry"`
}

// GetBackground returns the Background section as saved.
func (pr *Preferences) GetBackground() (BackgroundSettings, error) {
	s := pr.settings.get()
	b := BackgroundSettings{KeepRunning: s.KeepRunning, StartAtLogin: s.StartAtLogin, QuestionWaitSeconds: int(s.QuestionWait().Seconds())}
	b.AutostartEntry, _ = pr.autostartEntry().Where()
	return b, nil
}

// SetBackground saves the Background section. Turning "start at login"
// on writes the autostart entry first (off removes it); when that fails
// nothing is saved and the error says why. A question wait outside 10 to
// 3600 seconds is refused, naming the bounds.
func (pr *Preferences) SetBackground(b BackgroundSettings) (BackgroundSettings, error) {
	wait := b.QuestionWaitSeconds
	if wait < settings.MinQuestionWait || wait > settings.MaxQuestionWait {
		return BackgroundSettings{}, fmt.Errorf("the question wait is %d seconds: choose %d to %d seconds", wait, settings.MinQuestionWait, settings.MaxQuestionWait)
	}
	if wait == settings.DefaultQuestionWait {
		wait = 0 // the default: left out of settings.json
	}
	pr.autostartMu.Lock() // the entry and the switch change together (refreshAutostart)
	defer pr.autostartMu.Unlock()
	if b.StartAtLogin != pr.settings.get().StartAtLogin {
		if err := pr.applyAutostart(b.StartAtLogin); err != nil {
			return BackgroundSettings{}, err
		}
	}
	err := pr.settings.update(func(s *Settings) {
		s.KeepRunning, s.StartAtLogin, s.QuestionWaitSeconds = b.KeepRunning, b.StartAtLogin, wait
	})
	if err != nil {
		return BackgroundSettings{}, fmt.Errorf("the background settings were not saved: %w", err)
	}
	pr.log.Info("background settings", "keep_running", b.KeepRunning, "start_at_login", b.StartAtLogin, "question_wait", b.QuestionWaitSeconds)
	return pr.GetBackground()
}

// applyAutostart writes (on) or removes (off) the login entry.
func (pr *Preferences) applyAutostart(on bool) error {
	e := pr.autostartEntry()
	if len(e.Exec) == 0 {
		return errors.New("start at login: this program's path is unknown, so no login entry can name it")
	}
	var err error
	if on {
		err = e.Enable()
	} else {
		err = e.Disable()
	}
	if err != nil {
		where, _ := e.Where()
		return fmt.Errorf("start at login was not changed: %w (the entry is %s)", err, where)
	}
	return nil
}

// refreshAutostart rewrites the login entry at start when "start at
// login" is on, so it names this program (an update or a move changes
// its path).
func (pr *Preferences) refreshAutostart() {
	pr.autostartMu.Lock()
	defer pr.autostartMu.Unlock()
	if !pr.settings.get().StartAtLogin {
		return
	}
	if err := pr.applyAutostart(true); err != nil {
		pr.log.Warn("start at login", "err", err)
	}
}

// autostartEntry is this app's login entry: this program, --background,
// and the config folder when this run was given one.
func (pr *Preferences) autostartEntry() autostart.Entry {
	e := autostart.Entry{Name: "openworker", ID: "dev.openworker.desktop", DisplayName: "OpenWorker"}
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		return e
	}
	e.Exec = []string{exe, "--background"}
	if pr.cfg.ConfigDir != "" {
		e.Exec = append(e.Exec, "--config-dir", pr.cfg.ConfigDir)
	}
	return e
}

// Quit ends the app, even with "keep running" on: the window asks first
// when closing would stop something (closeQuestion).
func (w *Window) Quit() error {
	w.quitting.Store(true)
	w.shell.quit()
	return nil
}

// closeHides reports whether closing the window only hides it: "keep
// running" is on and the person did not choose Quit.
func (a *desktop) closeHides() bool {
	return a.settings.get().KeepRunning && !a.Window.quitting.Load()
}

// quitOnSignal quits the app on SIGINT or SIGTERM (a logout, `kill`),
// "keep running" or not: Wails turns the signal into a window close,
// which with "keep running" on would only hide the window. It returns
// the function that stops listening.
func quitOnSignal(w *Window) (stop func()) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			_ = w.Quit()
		case <-done:
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
	}
}
