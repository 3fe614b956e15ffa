package journal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// oldJournal writes the fixture of schema version v as dir/journal.db,
// removing what SQLite keeps beside it, and returns its path.
func oldJournal(t *testing.T, dir string, v int) string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("testdata/journal-v%d.db", v))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "journal.db")
	for _, p := range []string{path + "-wal", path + "-shm"} {
		os.Remove(p)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// backupNames lists the names in dir that look like backups, sorted.
func backupNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if strings.Contains(e.Name(), "-backup") {
			out = append(out, e.Name())
		}
	}
	slices.Sort(out)
	return out
}

// TestBackupNamesAndRetention upgrades a version-6 file four times (the
// file put back each time, as a restore would): the backups get counters,
// a file already at a backup's name is never overwritten, the newest
// KeptBackups are kept, and the backups of another journal in the same
// folder are not touched.
func TestBackupNamesAndRetention(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.db.v6-backup")
	taken := filepath.Join(dir, "journal.db.v6-backup")
	for _, p := range []string{other, taken} {
		if err := os.WriteFile(p, []byte("not ours to overwrite"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var made []string
	for i := range 4 {
		path := oldJournal(t, dir, 6)
		j, err := Open(path, &Options{Now: newClock().Now})
		if err != nil {
			t.Fatalf("Open #%d = %v", i+1, err)
		}
		b := j.Backup()
		j.Close()
		want := fmt.Sprintf("%s.v6-backup-%d", path, i+2)
		if b.Path != want || b.From != 6 || b.To != SchemaVersion() {
			t.Fatalf("Open #%d: Backup() = %+v, want %s from 6 to %d", i+1, b, want, SchemaVersion())
		}
		if i == 0 {
			if got, _ := os.ReadFile(taken); string(got) != "not ours to overwrite" {
				t.Errorf("the file at %s was overwritten: %q", taken, got)
			}
		}
		made = append(made, filepath.Base(b.Path))
	}
	// Kept: the newest three of this journal; the other journal's stays.
	want := []string{"journal.db.v6-backup-3", "journal.db.v6-backup-4", "journal.db.v6-backup-5", "other.db.v6-backup"}
	if got := backupNames(t, dir); !slices.Equal(got, want) {
		t.Errorf("backups after four upgrades (made %v) = %v, want %v", made, got, want)
	}
	if b := (UpgradeBackup{Path: "/x/journal.db.v6-backup", From: 6, To: 9}).String(); b != "backed up schema v6 to /x/journal.db.v6-backup before upgrading to v9" {
		t.Errorf("String() = %q", b)
	}
	// A file already at the newest version makes no backup.
	j := openAt(t, filepath.Join(dir, "journal.db"))
	if b := j.Backup(); b.Path != "" {
		t.Errorf("Backup() of a current file = %+v, want none", b)
	}
	if got := backupNames(t, dir); !slices.Equal(got, want) {
		t.Errorf("backups after opening a current file = %v, want %v", got, want)
	}
}

// TestNewJournalMakesNoBackup: a new file has nothing to keep.
func TestNewJournalMakesNoBackup(t *testing.T) {
	path := testPath(t)
	j := openAt(t, path)
	if b := j.Backup(); b.Path != "" {
		t.Errorf("Backup() of a new journal = %+v", b)
	}
	if got := backupNames(t, filepath.Dir(path)); len(got) != 0 {
		t.Errorf("backups of a new journal: %v", got)
	}
}

// TestBackupFailureChangesNothing: when the backup cannot be written (here
// a directory holds its name; as root, permissions cannot stop a write),
// Open fails naming the backup's path and saying to free space, and the
// file keeps its version and every row; once the way is clear, Open
// upgrades it.
func TestBackupFailureChangesNothing(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := oldJournal(t, dir, 1)
	raw := readOnly(t, path)
	before := snapshot(t, raw)
	raw.Close()
	blocker := path + ".v1-backup"
	if err := os.Mkdir(blocker, 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := Open(path, nil)
	if err == nil {
		t.Fatal("Open with its backup path blocked succeeded")
	}
	for _, want := range []string{blocker, "free disk space", "stays at schema v1, unchanged"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Open error = %q; want it to say %q", err, want)
		}
	}
	if !errors.Is(err, ErrBackup) {
		t.Errorf("Open error %v does not wrap ErrBackup", err)
	}
	raw = readOnly(t, path)
	if v, err := schemaVersion(ctx, raw); err != nil || v != 1 {
		t.Errorf("schema version after the failed backup = %d (%v), want 1", v, err)
	}
	if diff := compareSnapshots(before, snapshot(t, raw), nil); diff != "" {
		t.Errorf("the journal changed although its backup failed: %s", diff)
	}
	raw.Close()
	if fi, err := os.Stat(blocker); err != nil || !fi.IsDir() {
		t.Errorf("the directory in the way: %v, %v", fi, err)
	}
	if got := backupNames(t, dir); !slices.Equal(got, []string{"journal.db.v1-backup"}) {
		t.Errorf("left after the failed backup: %v", got)
	}

	if err := os.Remove(blocker); err != nil {
		t.Fatal(err)
	}
	j := openAt(t, path)
	if b := j.Backup(); b.Path != blocker {
		t.Errorf("Backup() once the way is clear = %+v, want %s", b, blocker)
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Errorf("Verify = %+v", rep.First)
	}
}

// TestUpgradeFailureKeepsFileAndBackups: a migration that fails halfway
// (migration 8 meets a table in the way) leaves the file at the version it
// had, not at the last step that worked, and says its data is unchanged.
// The copy made for this attempt is removed (it equals the file), and
// retries never push out the older backups that were there.
func TestUpgradeFailureKeepsFileAndBackups(t *testing.T) {
	ctx := context.Background()
	path := oldJournal(t, t.TempDir(), 6)
	if _, err := rawDB(t, path).Exec(`CREATE TABLE invocations_v8 (x)`); err != nil {
		t.Fatal(err)
	}
	var older []string
	for i := range KeptBackups {
		p := fmt.Sprintf("%s.v5-backup-%d", path, i+2)
		if err := os.WriteFile(p, []byte("an older backup"), 0o600); err != nil {
			t.Fatal(err)
		}
		older = append(older, p)
	}
	for range 4 {
		_, err := Open(path, nil)
		if err == nil || !strings.Contains(err.Error(), "migrate") || !strings.Contains(err.Error(), "version 8") ||
			!strings.Contains(err.Error(), "(its data is unchanged)") {
			t.Fatalf("Open = %v; want the failed migration 8, data unchanged", err)
		}
	}
	if v, err := schemaVersion(ctx, rawDB(t, path)); err != nil || v != 6 {
		t.Errorf("schema version %d (%v), want 6", v, err)
	}
	bs, _ := backupsOf(path)
	var names []string
	for _, b := range bs {
		names = append(names, b.path)
	}
	slices.Sort(names)
	if !slices.Equal(names, older) {
		t.Errorf("backups after 4 failed upgrades = %v; want only the older ones %v", names, older)
	}
}

// TestTwoOpensOfAnOldFileMakeOneBackup: two Journals opening the same old
// file at once upgrade it one after the other under SQLite's write lock;
// only the first backs it up.
func TestTwoOpensOfAnOldFileMakeOneBackup(t *testing.T) {
	patientBusy(t) // the second Open waits while the first migrates
	dir := t.TempDir()
	path := oldJournal(t, dir, 3)
	var wg sync.WaitGroup
	js := make([]*Journal, 2)
	errs := make([]error, 2)
	start := make(chan struct{})
	for i := range js {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			js[i], errs[i] = Open(path, nil)
		}()
	}
	close(start)
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(120 * time.Second): // a hang guard, past the 60 s the second may wait
		t.Fatal("the two Opens did not return in 120 s")
	}
	var made []string
	for i, j := range js {
		if errs[i] != nil {
			t.Fatalf("Open #%d = %v", i+1, errs[i])
		}
		defer j.Close()
		if b := j.Backup(); b.Path != "" {
			made = append(made, b.Path)
		}
	}
	if len(made) != 1 || made[0] != path+".v3-backup" {
		t.Errorf("backups reported = %v, want just %s.v3-backup", made, path)
	}
	if got := backupNames(t, dir); !slices.Equal(got, []string{"journal.db.v3-backup"}) {
		t.Errorf("backup files = %v, want one", got)
	}
}
