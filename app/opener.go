package app

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Opener hands a file path or a URL to the system: its editor, file
// manager or browser (docs/app.md#links). Open returns an error saying
// why nothing opened (no program for it, the program failed).
type Opener interface {
	Open(target string) error
}

// openablePath returns path absolute with links resolved when it exists
// inside one of roots (also resolved), else an error.
func openablePath(path string, roots []string) (string, error) {
	if path == "" || !filepath.IsAbs(path) {
		return "", fmt.Errorf("only absolute paths are opened, not %q", path)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", fmt.Errorf("cannot open %s: %w", path, err)
	}
	for _, r := range roots {
		if r != "" && inside(r, real) {
			return real, nil
		}
	}
	return "", fmt.Errorf("%s is not in the coworkers folder or the config folder (%s), so it is not opened from here", path, strings.Join(roots, ", "))
}

// systemOpener runs the OS's opener: xdg-open (Linux, BSD), open (macOS)
// or rundll32's FileProtocolHandler (Windows).
type systemOpener struct{}

// openerWait is how long Open waits for the opener to report a failure;
// one still running then has started a program.
const openerWait = 5 * time.Second

func (systemOpener) Open(target string) error {
	name, args := "xdg-open", []string{target}
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		name, args = "rundll32", []string{"url.dll,FileProtocolHandler", target}
	}
	bin, err := exec.LookPath(name)
	if err != nil {
		if name == "xdg-open" {
			return errors.New("no browser or editor found: xdg-open is not installed (package xdg-utils)")
		}
		return fmt.Errorf("no browser or editor found: %s is missing", name)
	}
	cmd := exec.Command(bin, args...)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", name, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t := time.NewTimer(openerWait)
	defer t.Stop()
	select {
	case err := <-done:
		if err == nil {
			return nil
		}
		msg := strings.TrimSpace(out.String())
		if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
			msg = msg[i+1:]
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) && name == "xdg-open" && (ee.ExitCode() == 3 || ee.ExitCode() == 4) {
			err = errors.New("no browser or program for it was found")
		}
		if msg != "" {
			return fmt.Errorf("%s: %v (%s)", name, err, msg)
		}
		return fmt.Errorf("%s: %v", name, err)
	case <-t.C:
		return nil // still running: it started something
	}
}
