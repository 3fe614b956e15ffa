package journal

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
)

// Backups before migrations (docs/journal.md#backups-and-upgrades): before
// Open upgrades a file that already has a schema, it copies the file next
// to it, as <journal>.v<N>-backup (N: the schema version of the copy;
// <journal>.v<N>-backup-2, -3, ... when an older backup of version N is
// there), and keeps the newest KeptBackups copies of that journal.

// KeptBackups is how many backups of one journal are kept; older ones are
// deleted when a new one is written.
const KeptBackups = 3

// ErrBackup is returned (wrapped) by Open when the backup before an
// upgrade could not be written. The file is then left at its version,
// unchanged; the message names the backup's path and says to free space.
// When the disk is full, the error also matches ErrDiskFull.
var ErrBackup = errors.New("the backup before the upgrade could not be written")

// UpgradeBackup is the copy Open made of a journal before upgrading its
// schema.
type UpgradeBackup struct {
	Path string // absolute path of the copy; "" when Open made none
	From int    // schema version of the copy: the file's before the upgrade
	To   int    // schema version the journal was upgraded to
}

// String says what was done, for the log and stderr: "backed up schema v6
// to PATH before upgrading to v9"; "" when there is no backup.
func (b UpgradeBackup) String() string {
	if b.Path == "" {
		return ""
	}
	return fmt.Sprintf("backed up schema v%d to %s before upgrading to v%d", b.From, b.Path, b.To)
}

// Backup returns the copy this Open made before upgrading the schema, or
// the zero UpgradeBackup (Path "") when it upgraded nothing: a new file,
// or one already at SchemaVersion.
func (j *Journal) Backup() UpgradeBackup { return j.backup }

// backupFile is one backup of a journal found in its directory.
type backupFile struct {
	path             string
	version, counter int // counter: 1 for <journal>.vN-backup, k for -k
	mod              int64
}

// backupPattern matches the names of the backups of the journal named base.
func backupPattern(base string) *regexp.Regexp {
	return regexp.MustCompile(`^` + regexp.QuoteMeta(base) + `\.v([0-9]+)-backup(?:-([0-9]+))?$`)
}

// backupsOf lists the backups (regular files) of the journal at path,
// oldest first: by modification time, then version, then counter.
func backupsOf(path string) ([]backupFile, error) {
	dir, base := filepath.Split(path)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	re := backupPattern(base)
	var out []backupFile
	for _, e := range ents {
		m := re.FindStringSubmatch(e.Name())
		if m == nil || !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		b := backupFile{path: filepath.Join(dir, e.Name()), counter: 1, mod: fi.ModTime().UnixNano()}
		b.version, _ = strconv.Atoi(m[1])
		if m[2] != "" {
			b.counter, _ = strconv.Atoi(m[2])
		}
		out = append(out, b)
	}
	slices.SortFunc(out, func(a, b backupFile) int {
		if a.mod != b.mod {
			return cmp.Compare(a.mod, b.mod)
		}
		if a.version != b.version {
			return a.version - b.version
		}
		return a.counter - b.counter
	})
	return out, nil
}

// backupPath names the next backup of version from: <journal>.v<from>-backup,
// or with one more than the highest counter among the backups of that
// version, so an existing backup is never overwritten.
func backupPath(path string, from int, existing []backupFile) string {
	name := fmt.Sprintf("%s.v%d-backup", path, from)
	n := 0
	for _, b := range existing {
		if b.version == from {
			n = max(n, b.counter)
		}
	}
	if n == 0 {
		return name
	}
	return name + "-" + strconv.Itoa(n+1)
}

// writeBackup copies the journal at path (schema version from, about to be
// upgraded to to) with VACUUM INTO on a connection of db other than the
// one holding the migration's write lock: the lock keeps every other
// writer out, so the copy is the file as the upgrade found it, and a
// second process opening the same file waits and then finds nothing to
// upgrade (one backup). The copy is fsynced with its directory before the
// upgrade starts (older backups beyond KeptBackups are deleted once the
// upgrade commits: pruneBackups). An
// error wraps ErrBackup, names the copy's path and says what to do; a
// partial copy is removed.
func writeBackup(ctx context.Context, db *sql.DB, path string, from, to int) (UpgradeBackup, error) {
	fail := func(dest string, err error) (UpgradeBackup, error) {
		if isFull(err) {
			err = ErrDiskFull // also matched with errors.Is
		}
		return UpgradeBackup{}, fmt.Errorf("journal: %s stays at schema v%d, unchanged: %w to %s (%w); "+
			"free disk space, or move what is at that path, and open it again", path, from, ErrBackup, dest, err)
	}
	existing, err := backupsOf(path)
	if err != nil {
		return fail(filepath.Dir(path), err)
	}
	dest := backupPath(path, from, existing)
	// Claim the name: VACUUM INTO writes into a new or empty file only, and
	// a name something else already holds is an error, not an overwrite.
	f, err := os.OpenFile(dest, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fail(dest, err)
	}
	f.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, dest); err != nil {
		os.Remove(dest)
		return fail(dest, err)
	}
	if err := syncFile(dest); err != nil {
		os.Remove(dest)
		return fail(dest, err)
	}
	syncDir(filepath.Dir(dest))
	return UpgradeBackup{Path: dest, From: from, To: to}, nil
}

// pruneBackups deletes the oldest backups of the journal at path beyond
// keep. It is best effort: a backup it cannot delete stays.
func pruneBackups(path string, keep int) {
	bs, err := backupsOf(path)
	if err != nil || len(bs) <= keep {
		return
	}
	for _, b := range bs[:len(bs)-keep] {
		os.Remove(b.path)
	}
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// syncDir makes a new directory entry durable (not possible, nor needed,
// on Windows).
func syncDir(dir string) {
	if runtime.GOOS == "windows" {
		return
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// withBackup adds, to the error of a failed upgrade, where the copy from
// before it is.
func withBackup(err error, b UpgradeBackup) error {
	if b.Path != "" {
		// The file keeps its data as before the upgrade, so the copy adds
		// nothing; kept, each retry would add one and push the older
		// backups out (retention runs only after an upgrade commits).
		os.Remove(b.Path)
	}
	if isFull(err) {
		return fmt.Errorf("%w (its data is unchanged); free some space on that disk, then open it again: %w", err, ErrDiskFull)
	}
	return fmt.Errorf("%w (its data is unchanged)", err)
}
