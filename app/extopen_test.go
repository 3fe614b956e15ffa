package app

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestInspectExtension(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good, upper := write("weather.mcpb", "PK\x03\x04 twelve"), write("Old.DXT", "PK")
	readme := write("README.txt", "hi")
	folder := filepath.Join(dir, "folder.mcpb")
	if err := os.Mkdir(folder, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, err string
		size      int64
	}{
		{good, "", 11},
		{upper, "", 2},
		{filepath.Join(dir, "gone.mcpb"), "gone.mcpb does not exist (or is a link that leads nowhere): check the path, or download the extension again", 0},
		{folder, "folder.mcpb is a folder: an extension is one .mcpb or .dxt file", 0},
		{readme, "README.txt is not an extension: OpenWorker opens .mcpb and .dxt files", 0},
	} {
		e := inspectExtension(c.path)
		if e.Path != c.path || e.Name != filepath.Base(c.path) || e.Size != c.size {
			t.Errorf("inspectExtension(%s) = %+v; want path, name and size %d", c.path, e, c.size)
		}
		if c.err == "" && e.Error != "" || c.err != "" && !strings.Contains(e.Error, c.err) || c.err != "" && !strings.HasPrefix(e.Error, c.path) {
			t.Errorf("inspectExtension(%s).Error = %q; want it to start with the path and contain %q", c.path, e.Error, c.err)
		}
	}
}

func TestFileArgs(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	// Relative to the working folder given; a missing .mcpb is still a file
	// to report on, an existing file of another kind too.
	abs := filepath.Join(t.TempDir(), "z.mcpb") // absolute on every system ("/abs" is not on Windows)
	got, err := fileArgs([]string{"x.MCPB", "sub/y.dxt", "notes.txt", abs}, dir)
	want := []string{filepath.Join(dir, "x.MCPB"), filepath.Join(dir, "sub", "y.dxt"), filepath.Join(dir, "notes.txt"), abs}
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("fileArgs = %q, %v; want %q", got, err, want)
	}
	// Neither an extension nor an existing file: a stray argument.
	if _, err := fileArgs([]string{"chekc"}, dir); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), `unexpected argument "chekc"`) {
		t.Errorf("fileArgs(chekc) = %v; want a usage error naming it", err)
	}
	// A forwarded launch: flags are skipped, files resolved against its folder.
	if got := launchFiles([]string{"--config-dir", "/c", "--model=m", "x.mcpb"}, dir); !slices.Equal(got, []string{filepath.Join(dir, "x.mcpb")}) {
		t.Errorf("launchFiles = %q", got)
	}
	if got := launchFiles([]string{"--nope"}, dir); got != nil {
		t.Errorf("launchFiles of a bad line = %q; want none", got)
	}
	c, err := parseArgs([]string{"--coworker", "helper", filepath.Join(dir, "a.mcpb")})
	if err != nil || c.OpenCoworker != "helper" || !slices.Equal(c.Open, []string{filepath.Join(dir, "a.mcpb")}) {
		t.Errorf("parseArgs with a file = %+v, %v", c, err)
	}
}

// An extension opened before the UI listens (the one the app was started
// with) waits for Info, the UI's first call after it subscribed; later ones
// go at once, in order.
func TestExtensionOpenedWaitsForTheUI(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	ext := filepath.Join(t.TempDir(), "first.mcpb")
	if err := os.WriteFile(ext, []byte("PK"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.app.Window.opened.openFiles([]string{ext, filepath.Join(t.TempDir(), "missing.dxt")})
	if got := e.rec.all(EventExtensionOpened); len(got) != 0 {
		t.Fatalf("sent before the UI was ready: %+v", got)
	}
	if _, err := e.app.Window.Info(); err != nil {
		t.Fatal(err)
	}
	e.app.Window.opened.openFiles([]string{ext})
	got := e.rec.all(EventExtensionOpened)
	if len(got) != 3 {
		t.Fatalf("events %+v; want 3", got)
	}
	first, second, third := got[0].(ExtensionOpened), got[1].(ExtensionOpened), got[2].(ExtensionOpened)
	if first.Path != ext || first.Name != "first.mcpb" || first.Size != 2 || first.Error != "" {
		t.Errorf("first = %+v", first)
	}
	if second.Name != "missing.dxt" || !strings.Contains(second.Error, "does not exist") {
		t.Errorf("second = %+v", second)
	}
	if third != first {
		t.Errorf("after ready = %+v, want %+v", third, first)
	}
	// A reload of the window calls Info again: nothing is sent twice.
	if _, err := e.app.Window.Info(); err != nil {
		t.Fatal(err)
	}
	if n := len(e.rec.all(EventExtensionOpened)); n != 3 {
		t.Errorf("%d events after a second Info", n)
	}
}

// A name that a bidirectional override would disguise ("invoice‮fdp.mcpb"
// reads as "invoicebpcm.pdf") is shown with the override as a visible
// mark; the path stays the real one.
func TestInspectExtensionShowsDisguisedNames(t *testing.T) {
	dir := t.TempDir()
	name := "invoice\u202Efdp.mcpb"
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("PK"), 0o600); err != nil {
		t.Fatal(err)
	}
	e := inspectExtension(p)
	if e.Error != "" || e.Path != p {
		t.Fatalf("inspectExtension = %+v; want the file, its real path", e)
	}
	if e.Name != "invoice⟨U+202E⟩fdp.mcpb" {
		t.Errorf("Name = %q; want the override shown", e.Name)
	}
	missing := inspectExtension(filepath.Join(dir, "a\u200Bb\x1b[31m.mcpb"))
	// Windows refuses control characters in file names ("Invalid name")
	// instead of looking the file up; either way they are shown as marks.
	wantErr := "a⟨U+200B⟩b⟨U+001B⟩[31m.mcpb does not exist"
	if runtime.GOOS == "windows" {
		wantErr = "a⟨U+200B⟩b⟨U+001B⟩[31m.mcpb cannot be read"
	}
	if strings.ContainsAny(missing.Error, "\u200B\x1b") || !strings.Contains(missing.Error, wantErr) {
		t.Errorf("Error = %q; want the hidden characters shown", missing.Error)
	}
}
