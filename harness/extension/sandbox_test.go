package extension

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/openworker/desktop/harness/extension/manifest"
	"github.com/openworker/desktop/harness/tool"
)

// setHome makes dir the home folder os.UserHomeDir answers: $HOME, and
// %USERPROFILE% on Windows (the tests run there under Wine,
// scripts/wine/unit-steps.sh).
func setHome(t *testing.T, dir string) {
	t.Setenv("HOME", dir)
	t.Setenv("USERPROFILE", dir)
}

// TestPlacementForAddsChosenFolders: with the default preset, the
// folders and files chosen in an extension's settings are added (folders
// to write, files to read); the home folder, a folder above it and a
// root are not, whatever the manifest's default; another placement is
// kept as it is; no sandbox stays none.
func TestPlacementForAddsChosenFolders(t *testing.T) {
	home := t.TempDir()
	setHome(t, home)
	work := filepath.Join(home, "work")
	m := &manifest.Manifest{UserConfig: []manifest.Field{
		{Key: "dirs", Type: manifest.FieldDirectory}, {Key: "key", Type: manifest.FieldFile}, {Key: "name", Type: "string"},
	}}
	key := "/etc/ssl/cert.pem" // a file outside the home folder
	if runtime.GOOS == "windows" {
		key = `C:\ProgramData\ssl\cert.pem` // "/etc/..." is not absolute there
	}
	r := Record{Sandbox: tool.DefaultSandbox(), Values: map[string]any{
		"dirs": []any{work, home, filepath.Dir(home), "/", filepath.VolumeName(home) + `\`, "relative"},
		"key":  key,
		"name": "/not/a/path/field",
	}}
	p := placementFor(r, m)
	if !slices.Equal(p.Write, []string{"${workspace}", "${temp}", work}) || !slices.Contains(p.Read, key) || slices.Contains(p.Read, "/not/a/path/field") {
		t.Fatalf("placement = %+v", p)
	}
	if p.Preset != "" || r.Sandbox.Preset != tool.PresetDefault || len(r.Sandbox.Write) != 2 {
		t.Errorf("the record's preset was changed: %+v", r.Sandbox)
	}
	custom := &tool.Sandbox{Read: []string{"${system}"}, Network: tool.SandboxNetwork{Mode: tool.NetAny}}
	if got := placementFor(Record{Sandbox: custom, Values: r.Values}, m); got.Canonical() != custom.Canonical() {
		t.Errorf("custom placement = %s; want it unchanged", got.Canonical())
	}
	if placementFor(Record{Values: r.Values}, m) != nil {
		t.Error("an extension without a sandbox got one")
	}
}

// TestPlacementForNeverAddsWhatWidens: a value from an extension's
// settings (the manifest's default, or what was entered) never widens the
// default sandbox to the home folder or a root by other means than
// naming it: a variable of the sandbox (${home}, ${workspace}/..), a link
// to a root or to the home folder, the home folder's hidden folders and
// files (keys, shell start-up files, autostart entries), or a folder that
// holds or is inside OpenWorker's own folder (its servers.json and
// installed extensions decide the sandboxes); a folder that is only
// inside the home folder still is.
func TestPlacementForNeverAddsWhatWidens(t *testing.T) {
	home := t.TempDir()
	setHome(t, home)
	other := t.TempDir()
	toRoot, toHome := filepath.Join(other, "root"), filepath.Join(other, "home")
	if err := os.Symlink("/", toRoot); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(home, toHome); err != nil {
		t.Fatal(err)
	}
	docs := filepath.Join(home, "Documents")
	data := t.TempDir() // holds OpenWorker's own folder, outside home
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(data, "cfg"))
	t.Setenv("AppData", filepath.Join(data, "cfg")) // os.UserConfigDir on Windows
	m := &manifest.Manifest{UserConfig: []manifest.Field{{Key: "dirs", Type: manifest.FieldDirectory}, {Key: "key", Type: manifest.FieldFile}}}
	r := Record{Sandbox: tool.DefaultSandbox(), Values: map[string]any{
		"dirs": []any{"/${home}", "${home}", "${workspace}/..", toRoot, toHome, filepath.Join(home, ".ssh"), filepath.Join(home, ".config", "autostart"), data, filepath.Join(data, "cfg", "OpenWorker", "extensions"), docs},
		"key":  []any{filepath.Join(home, ".ssh", "id_ed25519"), "${home}/.bashrc", filepath.Join(docs, "notes.txt")},
	}}
	p := placementFor(r, m)
	if want := []string{"${workspace}", "${temp}", docs}; !slices.Equal(p.Write, want) {
		t.Errorf("write = %q; want %q", p.Write, want)
	}
	if want := []string{"${system}", "${provider_dir}", "${program_dir}", filepath.Join(docs, "notes.txt")}; !slices.Equal(p.Read, want) {
		t.Errorf("read = %q; want %q", p.Read, want)
	}
}
