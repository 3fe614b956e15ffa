package bundle

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestTrashRestore(t *testing.T) {
	cws := t.TempDir()
	d := Draft{ID: "notes", Name: "Notes", Instructions: "You keep notes.", Tools: []string{}}
	if _, err := Create(cws, d); err != nil {
		t.Fatal(err)
	}
	m0, _ := bundleFiles(t, filepath.Join(cws, "notes"))
	tr, err := Trash(cws, "notes")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(tr.Path) != filepath.Join(cws, TrashFolder) || !strings.HasPrefix(filepath.Base(tr.Path), "notes-") || tr.ID != "notes" || time.Since(tr.At) > time.Minute {
		t.Errorf("Trash = %+v", tr)
	}
	set, err := LoadDir(cws)
	if err != nil || len(set.Bundles)+len(set.Errors)+len(set.Skipped) != 0 {
		t.Fatalf("LoadDir after Trash = %+v, %v; want the trash ignored", set, err)
	}
	list, err := ListTrash(cws)
	if err != nil || len(list) != 1 || list[0].Path != tr.Path || !list[0].At.Equal(tr.At) {
		t.Fatalf("ListTrash = %+v, %v; want %+v", list, err, tr)
	}
	// Taken meanwhile: refused, nothing moved.
	if _, err := Create(cws, d); err != nil {
		t.Fatal(err)
	}
	if err := Restore(cws, tr); !errors.Is(err, ErrIDTaken) || !strings.Contains(err.Error(), `cannot restore coworker "notes": `+filepath.Join(cws, "notes")+" exists again") {
		t.Fatalf("Restore over a new notes = %v", err)
	}
	if _, err := Trash(cws, "notes"); err != nil { // the second one goes too
		t.Fatal(err)
	}
	if err := Restore(cws, tr); err != nil {
		t.Fatal(err)
	}
	if m, _ := bundleFiles(t, filepath.Join(cws, "notes")); m != m0 {
		t.Errorf("restored manifest = %q, want %q", m, m0)
	}
	if err := Restore(cws, tr); err == nil || !strings.Contains(err.Error(), "no longer in the trash") {
		t.Errorf("Restore twice = %v", err)
	}
	// A path outside the trash is not "restored".
	outside := Trashed{ID: "notes", Path: filepath.Join(t.TempDir(), "notes-20250101T000000.000000000Z")}
	if err := Restore(cws, outside); err == nil || !strings.Contains(err.Error(), "is not a coworker") {
		t.Errorf("Restore(outside) = %v", err)
	}
	for _, id := range []string{"missing", "../x", "", ".", "..", ".trash", "a/b"} {
		if _, err := Trash(cws, id); err == nil {
			t.Errorf("Trash(%q) succeeded", id)
		}
	}
}

// TestTrashLinked: trashing a linked coworker moves the link; the target
// stays, and purging removes only the link.
func TestTrashLinked(t *testing.T) {
	target := copyBundle(t, "research")
	cws := t.TempDir()
	symlink(t, target, filepath.Join(cws, "research"))
	tr, err := Trash(cws, "research")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Link != target {
		t.Errorf("Trashed.Link = %q, want %q", tr.Link, target)
	}
	if st, err := os.Lstat(tr.Path); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the trash holds %v, %v; want the link", st, err)
	}
	old := filepath.Join(cws, TrashFolder, "research-20200101T000000.000000000Z")
	if err := os.Rename(tr.Path, old); err != nil { // trashed long ago
		t.Fatal(err)
	}
	gone, err := PurgeTrash(cws, TrashRetention)
	if err != nil || len(gone) != 1 || gone[0].Path != old {
		t.Fatalf("PurgeTrash = %+v, %v", gone, err)
	}
	if _, err := Load(target); err != nil {
		t.Errorf("purging the link harmed its target: %v", err)
	}
}

func TestPurgeTrash(t *testing.T) {
	cws := t.TempDir()
	for _, id := range []string{"a", "b"} {
		if _, err := Create(cws, Draft{ID: id, Name: id, Instructions: "x", Tools: []string{}}); err != nil {
			t.Fatal(err)
		}
	}
	ta, _ := Trash(cws, "a")
	tb, _ := Trash(cws, "b")
	old := filepath.Join(cws, TrashFolder, "a-"+time.Now().Add(-31*24*time.Hour).UTC().Format(trashStamp))
	if err := os.Rename(ta.Path, old); err != nil {
		t.Fatal(err)
	}
	stray := filepath.Join(cws, TrashFolder, "notes.txt") // not ours: left alone
	writeFile(t, stray, "x")
	gone, err := PurgeTrash(cws, TrashRetention)
	if err != nil || len(gone) != 1 || gone[0].ID != "a" {
		t.Fatalf("PurgeTrash = %+v, %v", gone, err)
	}
	for p, want := range map[string]bool{old: false, tb.Path: true, stray: true} {
		if _, err := os.Lstat(p); (err == nil) != want {
			t.Errorf("%s exists = %v, want %v", p, err == nil, want)
		}
	}
	if gone, err := PurgeTrash(t.TempDir(), 0); err != nil || gone != nil {
		t.Errorf("PurgeTrash without a trash = %v, %v", gone, err)
	}
}

// TestTrashBroken: a broken bundle whose folder is not a valid id (it
// never loaded) can be deleted and restored too.
func TestTrashBroken(t *testing.T) {
	src := copyBundle(t, "Bad_ID")
	cws := filepath.Dir(src)
	tr, err := Trash(cws, "Bad_ID")
	if err != nil {
		t.Fatal(err)
	}
	if list, err := ListTrash(cws); err != nil || len(list) != 1 || list[0].ID != "Bad_ID" {
		t.Fatalf("ListTrash = %+v, %v", list, err)
	}
	if err := Restore(cws, tr); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(src, "coworker", "manifest.md")); err != nil {
		t.Errorf("not restored: %v", err)
	}
}
