// Package autostart starts a program when the person logs in, the way each
// OS expects (docs/app.md#running-in-the-background):
//
//   - Linux and other freedesktop systems: a desktop entry in
//     $XDG_CONFIG_HOME/autostart (default ~/.config/autostart), per the XDG
//     Autostart Specification;
//   - macOS: a launch agent, ~/Library/LaunchAgents/<ID>.plist, with
//     RunAtLoad (launchd.plist(5));
//   - Windows: a value in HKCU\Software\Microsoft\Windows\CurrentVersion\Run.
//
// Files are written atomically (a temporary file renamed over the entry),
// so a crash leaves the old entry or the new one, never a part.
//
//	e := autostart.Entry{Name: "openworker", ID: "dev.openworker.desktop",
//		DisplayName: "OpenWorker", Exec: []string{exe, "--background"}}
//	err := e.Enable()
//
// github.com/emersion/go-autostart was not used: it needs cgo on Windows
// (a shortcut made through COM) and writes its files in place.
package autostart

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Entry is one program's autostart entry. Its methods may be called from
// any goroutine; two calls at once on one entry leave one of their results.
type Entry struct {
	// Name names the entry's file on Linux (<Name>.desktop) and its
	// registry value on Windows; letters, digits, '.', '-' and '_'.
	Name string
	// ID is the macOS launch agent's label and file name (<ID>.plist),
	// the app's bundle id by convention.
	ID string
	// DisplayName is what the OS shows in its list of startup programs.
	DisplayName string
	// Exec is the program (an absolute path) and its arguments.
	Exec []string
}

// ErrInvalid is wrapped by the error of an Entry missing a field.
var ErrInvalid = errors.New("invalid autostart entry")

// check refuses an entry the OS could not start.
func (e Entry) check() error {
	switch {
	case e.Name == "" || e.ID == "" || e.DisplayName == "":
		return fmt.Errorf("%w: Name, ID and DisplayName are needed", ErrInvalid)
	case len(e.Exec) == 0 || !filepath.IsAbs(e.Exec[0]):
		return fmt.Errorf("%w: Exec must start with an absolute program path, got %q", ErrInvalid, e.Exec)
	}
	for _, r := range e.Name + e.ID {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_') {
			return fmt.Errorf("%w: name %q or id %q has %q; use letters, digits, '.', '-' and '_'", ErrInvalid, e.Name, e.ID, r)
		}
	}
	return nil
}

// Enable writes the entry, replacing one already there.
func (e Entry) Enable() error {
	if err := e.check(); err != nil {
		return err
	}
	return enable(e)
}

// Disable removes the entry; none there is not an error.
func (e Entry) Disable() error {
	if err := e.check(); err != nil {
		return err
	}
	return disable(e)
}

// Enabled reports whether the entry is there (whatever it holds).
func (e Entry) Enabled() (bool, error) {
	if err := e.check(); err != nil {
		return false, err
	}
	return enabled(e)
}

// Where is the entry's place: its file, or on Windows its registry key
// and value.
func (e Entry) Where() (string, error) { return where(e) }

// writeFile replaces path with data in one step (a temporary file in the
// same folder, synced, then renamed), making the folder when needed.
func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	defer os.Remove(tmp.Name()) // nothing left to remove after the rename
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("autostart: write %s: %w", path, err)
	}
	return nil
}

// removeFile removes path; a missing one is fine.
func removeFile(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("autostart: %w", err)
	}
	return nil
}

// fileExists reports whether path is there.
func fileExists(path string) (bool, error) {
	_, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}
