package archive

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestUnpackModes: folder entries are made, the executable bit is kept
// and setuid, setgid, sticky and group/other write bits are dropped.
func TestUnpackModes(t *testing.T) {
	suid := file("bin/server", "#!/bin/sh\n")
	suid.mode = fs.ModeSetuid | fs.ModeSetgid | 0o777
	dir := entry{name: "empty/", mode: fs.ModeDir | 0o777, size: -1}
	world := file("data.txt", "x")
	world.mode = 0o666
	again := file("empty/", "")
	again.mode = fs.ModeDir | 0o755
	path := save(t, writeZip(t, file("manifest.json", manifest), suid, dir, world, again))
	a, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{ManifestName, int64(len(manifest)), 0o644}, {"bin/server", 10, 0o755},
		{"empty", 0, fs.ModeDir | 0o755}, {"data.txt", 1, 0o644}, {"empty", 0, fs.ModeDir | 0o755}}
	if got := a.Entries(); !slices.Equal(got, want) {
		t.Errorf("entries = %v, want %v", got, want)
	}
	dest := filepath.Join(t.TempDir(), "x")
	if err := a.Unpack(dest); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS == "windows" {
		return
	}
	for name, mode := range map[string]fs.FileMode{"bin/server": 0o755, "data.txt": 0o644, "empty": fs.ModeDir | 0o755, ".": fs.ModeDir | 0o755} {
		st, err := os.Stat(filepath.Join(dest, name))
		if err != nil || st.Mode() != mode {
			t.Errorf("%s: %v %v, want %v", name, st.Mode(), err, mode)
		}
	}
}

// TestManifestRefusals: no manifest.json at the root (one in a folder does
// not count), and one over MaxManifestBytes.
func TestManifestRefusals(t *testing.T) {
	path := save(t, writeZip(t, file("sub/manifest.json", manifest)))
	a, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = a.Manifest()
	wantRefusal(t, err, ErrNoManifest, path, "")

	big := file("manifest.json", `{"x":"`+strings.Repeat("a", MaxManifestBytes)+`"}`)
	path = save(t, writeZip(t, big))
	if a, err = Open(path); err != nil {
		t.Fatal(err)
	}
	_, err = a.Manifest()
	wantRefusal(t, err, ErrTooLarge, path, ManifestName)
}

// TestUnpackDestination: dest must not exist, and its parent must.
func TestUnpackDestination(t *testing.T) {
	path := save(t, writeZip(t, file("manifest.json", manifest)))
	a, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	parent := t.TempDir()
	os.Mkdir(filepath.Join(parent, "there"), 0o755)
	wantRefusal(t, a.Unpack(filepath.Join(parent, "there")), ErrDestination, path, "")
	wantRefusal(t, a.Unpack(filepath.Join(parent, "no", "such")), ErrDestination, path, "")
	if got := listTree(t, parent); !slices.Equal(got, []string{"there"}) {
		t.Errorf("left in the parent: %q", got)
	}
}

// TestInflateBudget: writeFile counts the bytes it inflates and stops at
// its budget, whatever the headers say (archive/zip also refuses bytes
// beyond the declared size; this is the second guard).
func TestInflateBudget(t *testing.T) {
	path := save(t, writeZip(t, file("manifest.json", manifest), file("big", strings.Repeat("x", 1000))))
	a, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "big")
	n, err := a.writeFile(1, target, 999)
	wantRefusal(t, err, ErrTooLarge, path, "big")
	if n != 1000 {
		t.Errorf("wrote %d bytes, want the budget and one more (1000)", n)
	}
	if n, err := a.writeFile(0, filepath.Join(t.TempDir(), "m"), int64(len(manifest))); err != nil || n != int64(len(manifest)) {
		t.Errorf("an entry of exactly the budget: %d, %v", n, err)
	}
}
