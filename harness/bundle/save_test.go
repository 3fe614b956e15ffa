package bundle

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// failRename makes the n-th call of rename (counting from 1; 0: none)
// fail, and runs after after each rename that succeeds; it returns the
// count of calls.
func failRename(t *testing.T, n int, after func(oldpath, newpath string)) *int {
	t.Helper()
	calls := 0
	real := rename
	rename = func(oldpath, newpath string) error {
		calls++
		if calls == n {
			return errors.New("injected rename failure")
		}
		err := real(oldpath, newpath)
		if err == nil && after != nil {
			after(oldpath, newpath)
		}
		return err
	}
	t.Cleanup(func() { rename = real })
	return &calls
}

// noTemps fails when a temporary file of Save is left in dir's coworker/.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, "coworker"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// swapDraft returns research's draft with a tool and its policy replaced
// by another tool with a policy: neither the new manifest with the old
// tools.json nor the old manifest with the new one loads.
func swapDraft(t *testing.T, dir string) Draft {
	d := mustDraft(t, dir)
	d.Tools = []string{"example.web_search", "files.dir.list", "lights.on"} // acer.battery_get out
	d.Policy = map[string]string{"example.web_search": "allow", "lights.on": "deny", "*": "ask"}
	d.Name = "Renamed"
	return d
}

// TestSaveFailureLeavesBundle: a save that fails at any write or rename
// leaves both files byte for byte as they were, and no temporary file.
func TestSaveFailureLeavesBundle(t *testing.T) {
	for _, n := range []int{1, 2, 3} {
		t.Run("rename "+string(rune('0'+n))+" fails", func(t *testing.T) {
			dir := copyBundle(t, "research")
			m0, t0 := bundleFiles(t, dir)
			d := swapDraft(t, dir) // three renames
			calls := failRename(t, n, nil)
			err := Save(dir, d)
			if err == nil || !strings.Contains(err.Error(), "injected rename failure") {
				t.Fatalf("Save = %v; want the injected failure", err)
			}
			if n > 1 && *calls <= n {
				t.Errorf("rename was called %d times; want the undo's renames after the failure", *calls)
			}
			if m, tj := bundleFiles(t, dir); m != m0 || tj != t0 {
				t.Errorf("after a failed save:\n%s\n%s\nwant\n%s\n%s", m, tj, m0, t0)
			}
			noTemps(t, dir)
		})
	}
	t.Run("second temporary file fails", func(t *testing.T) {
		dir := copyBundle(t, "research")
		m0, t0 := bundleFiles(t, dir)
		real, calls := createTemp, 0
		createTemp = func(dir, pattern string) (*os.File, error) {
			if calls++; calls == 2 {
				return nil, errors.New("injected: no space left on device")
			}
			return real(dir, pattern)
		}
		t.Cleanup(func() { createTemp = real })
		if err := Save(dir, swapDraft(t, dir)); err == nil || !strings.Contains(err.Error(), "no space left on device") {
			t.Fatalf("Save = %v", err)
		}
		if m, tj := bundleFiles(t, dir); m != m0 || tj != t0 {
			t.Errorf("after a failed save: %s %s", m, tj)
		}
		noTemps(t, dir)
	})
	t.Run("invalid draft", func(t *testing.T) {
		dir := copyBundle(t, "research")
		m0, t0 := bundleFiles(t, dir)
		d := swapDraft(t, dir)
		d.Policy["nope.x"] = "deny"
		var de *DraftError
		if err := Save(dir, d); !errors.As(err, &de) || de.Problems[0].Field != FieldPolicy {
			t.Fatalf("Save = %v; want a DraftError on policy", err)
		}
		if m, tj := bundleFiles(t, dir); m != m0 || tj != t0 {
			t.Errorf("after a refused save: %s %s", m, tj)
		}
	})
	t.Run("read-only folder", func(t *testing.T) {
		dir := copyBundle(t, "research")
		m0, t0 := bundleFiles(t, dir)
		cw := filepath.Join(dir, "coworker")
		if err := os.Chmod(cw, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(cw, 0o755) })
		if f, err := os.CreateTemp(cw, "probe"); err == nil {
			f.Close()
			os.Remove(f.Name())
			t.Skip("this user can write into a read-only folder (root); the injected failures above cover it")
		}
		if err := Save(dir, swapDraft(t, dir)); err == nil || !strings.Contains(err.Error(), "permission denied") {
			t.Fatalf("Save = %v", err)
		}
		if m, tj := bundleFiles(t, dir); m != m0 || tj != t0 {
			t.Errorf("after a failed save: %s %s", m, tj)
		}
	})
}

// TestSaveStepsLoad: between the renames of a save the bundle loads,
// whichever file has to go first.
func TestSaveStepsLoad(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*Draft)
		steps int
		first string // the file renamed first
	}{
		{"tool and policy added", func(d *Draft) {
			d.Tools = append(d.Tools, "lights.on")
			d.Policy["lights.on"] = "deny"
		}, 2, "tools.json"},
		{"tool and policy removed", func(d *Draft) {
			d.Tools = d.Tools[:1]
			delete(d.Policy, "acer.battery_get")
		}, 2, "manifest.md"},
		{"tool with policy swapped", func(d *Draft) { *d = swapDraft(t, filepath.Join(testBundles, "research")) }, 3, "manifest.md"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyBundle(t, "research")
			d := mustDraft(t, dir)
			tc.edit(&d)
			var renamed []string
			failRename(t, 0, func(_, newpath string) {
				renamed = append(renamed, filepath.Base(newpath))
				if _, err := Load(dir); err != nil {
					t.Errorf("after renaming %s the bundle does not load: %v", filepath.Base(newpath), err)
				}
			})
			if err := Save(dir, d); err != nil {
				t.Fatal(err)
			}
			if len(renamed) != tc.steps || renamed[0] != tc.first {
				t.Errorf("renames = %v; want %d starting with %s", renamed, tc.steps, tc.first)
			}
			if got := mustDraft(t, dir); got.Name != d.Name || len(got.Tools) != len(d.Tools) || len(got.Policy) != len(d.Policy) {
				t.Errorf("saved draft = %+v, want %+v", got, d)
			}
			noTemps(t, dir)
		})
	}
}

// TestSaveLinked: a linked coworker is edited in its target, the link
// stays a link, and a manifest.md that is a link inside the bundle is
// written where it leads.
func TestSaveLinked(t *testing.T) {
	target := copyBundle(t, "research")
	cws := t.TempDir()
	link := filepath.Join(cws, "research")
	symlink(t, target, link)
	if got, ok := LinkTarget(link); !ok || got != mustEval(t, target) {
		t.Errorf("LinkTarget = %q, %v; want %q", got, ok, target)
	}
	if _, ok := LinkTarget(target); ok {
		t.Errorf("LinkTarget of a folder says linked")
	}
	d := mustDraft(t, link)
	d.Name = "Linked research"
	if err := Save(link, d); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link is gone: %v", err)
	}
	if m, _ := bundleFiles(t, target); !strings.Contains(m, "name: Linked research\n") {
		t.Errorf("the target was not edited:\n%s", m)
	}

	// manifest.md -> real/manifest.md inside the bundle.
	cw := filepath.Join(target, "coworker")
	os.Mkdir(filepath.Join(cw, "real"), 0o755)
	if err := os.Rename(filepath.Join(cw, "manifest.md"), filepath.Join(cw, "real", "manifest.md")); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join("real", "manifest.md"), filepath.Join(cw, "manifest.md"))
	d.Name = "Through a link"
	if err := Save(link, d); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(filepath.Join(cw, "manifest.md")); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("manifest.md is no longer a link")
	}
	if m := readFile(t, filepath.Join(cw, "real", "manifest.md")); !strings.Contains(m, "name: Through a link\n") {
		t.Errorf("the linked manifest was not edited:\n%s", m)
	}
}

// TestSaveMissingFolder: Save does not create a coworker.
func TestSaveMissingFolder(t *testing.T) {
	err := Save(filepath.Join(t.TempDir(), "nobody"), Draft{ID: "nobody", Name: "N", Instructions: "x"})
	if err == nil || !strings.Contains(err.Error(), "create a new coworker with Create") {
		t.Errorf("Save(missing) = %v", err)
	}
}
