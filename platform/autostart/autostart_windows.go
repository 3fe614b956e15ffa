package autostart

import (
	"errors"
	"fmt"
	"strings"
	"syscall"

	"golang.org/x/sys/windows/registry"
)

// runKey is the per-user key whose values Windows runs at login.
const runKey = `Software\Microsoft\Windows\CurrentVersion\Run`

// runCommand is the entry's command line, each argument quoted the way
// CommandLineToArgvW reads it back.
func runCommand(e Entry) string {
	args := make([]string, len(e.Exec))
	for i, a := range e.Exec {
		args[i] = syscall.EscapeArg(a)
	}
	if !strings.HasPrefix(args[0], `"`) {
		args[0] = `"` + args[0] + `"` // a path is always quoted: no C:\Program.exe surprise
	}
	return strings.Join(args, " ")
}

// enable sets the value (one registry write: atomic by itself).
func enable(e Entry) error {
	k, _, err := registry.CreateKey(registry.CURRENT_USER, runKey, registry.SET_VALUE)
	if err != nil {
		return fmt.Errorf("autostart: open HKCU\\%s: %w", runKey, err)
	}
	defer k.Close()
	if err := k.SetStringValue(e.Name, runCommand(e)); err != nil {
		return fmt.Errorf("autostart: set HKCU\\%s\\%s: %w", runKey, e.Name, err)
	}
	return nil
}

func disable(e Entry) error {
	k, err := registry.OpenKey(registry.CURRENT_USER, runKey, registry.SET_VALUE)
	if errors.Is(err, registry.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("autostart: open HKCU\\%s: %w", runKey, err)
	}
	defer k.Close()
	if err := k.DeleteValue(e.Name); err != nil && !errors.Is(err, registry.ErrNotExist) {
		return fmt.Errorf("autostart: delete HKCU\\%s\\%s: %w", runKey, e.Name, err)
	}
	return nil
}

func enabled(e Entry) (bool, error) {
	k, err := registry.OpenKey(registry.CURRENT_USER, runKey, registry.QUERY_VALUE)
	if errors.Is(err, registry.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer k.Close()
	_, _, err = k.GetStringValue(e.Name)
	if errors.Is(err, registry.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

func where(e Entry) (string, error) { return `HKCU\` + runKey + `\` + e.Name, nil }
