package app

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// recordOpener records what it was asked to open.
type recordOpener struct {
	mu     sync.Mutex
	opened []string
}

func (r *recordOpener) Open(target string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.opened = append(r.opened, target)
	return nil
}

func TestOpenFileOnlyInsideCoworkersAndConfig(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	rec := &recordOpener{}
	e.app.opener = rec
	manifest := filepath.Join(e.bundles, "helper", "coworker", "manifest.md")
	if err := e.app.Window.OpenFile(manifest); err != nil {
		t.Fatal(err)
	}
	settings := filepath.Join(e.cfgDir, "settings.json")
	_ = os.WriteFile(settings, []byte("{}"), 0o600)
	if err := e.app.Window.OpenFile(settings); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "secret.txt")
	_ = os.WriteFile(outside, []byte("x"), 0o600)
	if err := e.app.Window.OpenFile(outside); err == nil || !strings.Contains(err.Error(), "is not in the coworkers folder or the config folder") {
		t.Errorf("outside: %v", err)
	}
	if err := e.app.Window.OpenFile("helper/coworker/manifest.md"); err == nil || !strings.Contains(err.Error(), "only absolute paths") {
		t.Errorf("relative: %v", err)
	}
	if err := e.app.Window.OpenFile(filepath.Join(e.bundles, "..", filepath.Base(filepath.Dir(outside)), "secret.txt")); err == nil {
		t.Error("a path with .. out of the folder was opened")
	}
	if runtime.GOOS != "windows" {
		link := filepath.Join(e.bundles, "helper", "coworker", "leak.md")
		if err := os.Symlink(outside, link); err != nil {
			t.Fatal(err)
		}
		if err := e.app.Window.OpenFile(link); err == nil {
			t.Error("a link in the coworkers folder to a file outside was opened")
		}
	}
	want := []string{realPath(manifest), realPath(settings)}
	if strings.Join(rec.opened, "\n") != strings.Join(want, "\n") {
		t.Errorf("opened %q, want %q", rec.opened, want)
	}
}

func TestOpenLinkSchemes(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	rec := &recordOpener{}
	e.app.opener = rec
	for _, ok := range []string{"https://example.com/a?b=c", "http://127.0.0.1:8080/", "mailto:ann@example.com"} {
		if err := e.app.Window.OpenLink(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"javascript:alert(1)", "file:///etc/passwd", "https:///nohost", "", "ftp://example.com"} {
		if err := e.app.Window.OpenLink(bad); err == nil || !strings.Contains(err.Error(), "only http, https and mailto") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if len(rec.opened) != 3 {
		t.Errorf("opened %q", rec.opened)
	}
}

// TestSystemOpenerSaysWhyNothingOpened runs the real opener lookup with a
// PATH that has no xdg-open, and with an xdg-open that finds no browser
// (exit 3, as xdg-utils does).
func TestSystemOpenerSaysWhyNothingOpened(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		t.Skip("xdg-open is the Linux and BSD opener")
	}
	empty := t.TempDir()
	t.Setenv("PATH", empty)
	err := systemOpener{}.Open("https://example.com/")
	if err == nil || !strings.Contains(err.Error(), "no browser or editor found: xdg-open is not installed") {
		t.Errorf("without xdg-open: %v", err)
	}
	script := "#!/bin/sh\necho 'xdg-open: no method available for opening '\"$1\" >&2\nexit 3\n"
	if err := os.WriteFile(filepath.Join(empty, "xdg-open"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	err = systemOpener{}.Open("https://example.com/")
	if err == nil || !strings.Contains(err.Error(), "no browser or program for it was found") || !strings.Contains(err.Error(), "no method available") {
		t.Errorf("xdg-open exit 3: %v", err)
	}
	if err := os.WriteFile(filepath.Join(empty, "xdg-open"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := (systemOpener{}).Open("https://example.com/"); err != nil {
		t.Errorf("xdg-open exit 0: %v", err)
	}
}
