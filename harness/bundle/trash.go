package bundle

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Deleting a coworker, recoverably (docs/bundles.md#trash): Trash moves its
// folder (or, for a linked coworker, the link; never the target) into
// <coworkers>/.trash/<id>-<time>, on the same file system, so one rename
// does it and one rename undoes it. LoadDir skips names starting with ".",
// so a trashed coworker is no longer loaded. Entries older than
// TrashRetention are removed by PurgeTrash, which the host calls (the app
// when it opens a coworkers folder); loading never deletes anything.

// TrashFolder is the name of the trash folder inside a coworkers folder.
const TrashFolder = ".trash"

// TrashRetention is how long a trashed coworker is kept by default.
const TrashRetention = 30 * 24 * time.Hour

// trashStamp formats the time a coworker was trashed in its trash name:
// UTC, sortable, without '-' or ':' (so the id is everything before the
// last '-', and Windows takes the name).
const trashStamp = "20060102T150405.000000000Z"

// Trashed is one coworker in the trash.
type Trashed struct {
	ID   string    `json:"id"`
	Path string    `json:"path"` // <coworkers>/.trash/<id>-<time>
	At   time.Time `json:"at"`   // when it was trashed, UTC
	// Link is the target when the trashed entry is a link (a linked
	// coworker); "" for a folder.
	Link string `json:"link,omitempty"`
}

// Trash moves the coworker folder id of coworkersDir (its id, or for a
// broken bundle whatever its folder is named) into the trash folder
// (created, mode 0700, when missing) and returns where it went, for
// Restore. A missing folder is an error, as is an id that is not one
// folder name ("", ".", "..", a path, a name starting with ".").
func Trash(coworkersDir, id string) (Trashed, error) {
	if !folderName(id) {
		return Trashed{}, fmt.Errorf("%q is not the name of a coworker folder", id)
	}
	src := filepath.Join(coworkersDir, id)
	st, err := os.Lstat(src)
	if err != nil {
		return Trashed{}, fmt.Errorf("no coworker %q in %s to delete", id, coworkersDir)
	}
	trash := filepath.Join(coworkersDir, TrashFolder)
	if err := os.MkdirAll(trash, 0o700); err != nil {
		return Trashed{}, fmt.Errorf("delete coworker %q: %w", id, err)
	}
	t := Trashed{ID: id, At: time.Now().UTC()}
	t.Path = filepath.Join(trash, id+"-"+t.At.Format(trashStamp))
	if st.Mode()&fs.ModeSymlink != 0 {
		t.Link, _ = os.Readlink(src)
	}
	if _, err := os.Lstat(t.Path); err == nil {
		return Trashed{}, fmt.Errorf("delete coworker %q: %s exists already; try again", id, t.Path)
	}
	if err := rename(src, t.Path); err != nil {
		return Trashed{}, fmt.Errorf("delete coworker %q: %w", id, err)
	}
	syncDir(coworkersDir)
	return t, nil
}

// Restore moves a trashed coworker back to <coworkersDir>/<t.ID>. It is
// refused when that id is taken meanwhile, and when t.Path is not an
// entry of coworkersDir's trash folder for t.ID.
func Restore(coworkersDir string, t Trashed) error {
	trash := filepath.Join(coworkersDir, TrashFolder)
	id, _, ok := parseTrashName(filepath.Base(t.Path))
	if !ok || id != t.ID || filepath.Clean(filepath.Dir(t.Path)) != filepath.Clean(trash) {
		return fmt.Errorf("%s is not a coworker %q in the trash of %s", t.Path, t.ID, coworkersDir)
	}
	if _, err := os.Lstat(t.Path); err != nil {
		return fmt.Errorf("coworker %q is no longer in the trash (%s): it was restored or purged", t.ID, t.Path)
	}
	dst := filepath.Join(coworkersDir, t.ID)
	if _, err := os.Lstat(dst); err == nil {
		return idTaken("cannot restore coworker %q: %s exists again; rename or delete that one first", t.ID, dst)
	}
	if err := rename(t.Path, dst); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return idTaken("cannot restore coworker %q: %s exists again; rename or delete that one first", t.ID, dst)
		}
		return fmt.Errorf("restore coworker %q: %w", t.ID, err)
	}
	syncDir(coworkersDir)
	return nil
}

// ListTrash lists the coworkers in coworkersDir's trash, newest first;
// entries whose names are not <id>-<time> are left out. No trash folder
// means none.
func ListTrash(coworkersDir string) ([]Trashed, error) {
	trash := filepath.Join(coworkersDir, TrashFolder)
	entries, err := os.ReadDir(trash)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the trash %s: %w", trash, err)
	}
	var out []Trashed
	for _, e := range entries {
		id, at, ok := parseTrashName(e.Name())
		if !ok {
			continue
		}
		t := Trashed{ID: id, At: at, Path: filepath.Join(trash, e.Name())}
		if e.Type()&fs.ModeSymlink != 0 {
			t.Link, _ = os.Readlink(t.Path)
		}
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].At.After(out[j].At) })
	return out, nil
}

// PurgeTrash removes the trashed coworkers of coworkersDir trashed more
// than maxAge ago (TrashRetention is the default a host uses) and returns
// them. A trashed link is removed, never its target. Errors of single
// entries are joined; the others are still removed.
func PurgeTrash(coworkersDir string, maxAge time.Duration) ([]Trashed, error) {
	all, err := ListTrash(coworkersDir)
	if err != nil {
		return nil, err
	}
	cutoff := time.Now().Add(-maxAge)
	var gone []Trashed
	var errs []error
	for _, t := range all {
		if !t.At.Before(cutoff) {
			continue
		}
		if err := os.RemoveAll(t.Path); err != nil { // a link: removes the link
			errs = append(errs, fmt.Errorf("purge %s: %w", t.Path, err))
			continue
		}
		gone = append(gone, t)
	}
	return gone, errors.Join(errs...)
}

// parseTrashName splits "<id>-<time>".
func parseTrashName(name string) (id string, at time.Time, ok bool) {
	i := strings.LastIndexByte(name, '-')
	if i <= 0 {
		return "", time.Time{}, false
	}
	at, err := time.Parse(trashStamp, name[i+1:])
	if err != nil || !folderName(name[:i]) {
		return "", time.Time{}, false
	}
	return name[:i], at, true
}

// folderName reports whether name is one entry of a coworkers folder that
// LoadDir reads: not empty, no separator, not starting with ".".
func folderName(name string) bool {
	return name != "" && !strings.ContainsAny(name, `/\`) && !strings.HasPrefix(name, ".") && filepath.Base(name) == name
}
