package journal

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// Disk full (docs/journal.md#disk-full). The journal keeps a file of
// reserveBytes beside the database, PATH.reserve. When a write meets a
// full disk, the journal becomes full: new work (a session, a turn, a
// message, a call) is refused with ErrDiskFull, and the reserve is given
// up so that the record of what was already running can still be
// finished (FinishInvocation, FinishTurn, FinishSession, recovery): a call
// that ran gets its real outcome instead of "unknown", and the turn's
// reason says the disk is full. Once the reserve can be written again
// (someone freed space), the journal takes new work again.

// ErrDiskFull is returned (wrapped, naming the file) by a write refused
// because the disk holding the journal is full.
var ErrDiskFull = errors.New("the disk is full")

// reserveBytes is the size of PATH.reserve: room for the terminal rows of
// the calls and turns running when the disk filled up (a result is at
// most MaxJSONBytes, 1 MiB, plus its WAL pages).
var reserveBytes int64 = 4 << 20

func reservePath(dbPath string) string { return dbPath + ".reserve" }

// isFull reports whether err is SQLite's "database or disk is full"
// (SQLITE_FULL) or the system's "no space left on device".
func isFull(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "database or disk is full") || strings.Contains(msg, "no space left on device")
}

// keepReserve makes PATH.reserve reserveBytes long, writing zeros (a
// sparse file would reserve nothing; the file system allocates the
// blocks at write, so no fsync is needed: a reserve lost to a power cut
// is made again at the next Open). It reports whether the reserve is in
// place; a disk too full for it leaves none.
func (j *Journal) keepReserve() bool {
	p := reservePath(j.path)
	if fi, err := os.Stat(p); err == nil && fi.Size() >= reserveBytes {
		return true
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return false
	}
	_, err = f.Write(make([]byte, reserveBytes))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(p)
		return false
	}
	return true
}

// fullError names the file and what to do; cause is SQLite's error, nil
// for new work refused while the journal is full.
func (j *Journal) fullError(cause error) error {
	err := fmt.Errorf("journal: %w on %s: free some space on that disk, then try again; nothing new is recorded until then", ErrDiskFull, j.path)
	if cause != nil {
		err = fmt.Errorf("%w: %w", err, cause)
	}
	return err
}

// refuseWhileFull is the check before new work: nil unless the journal
// is full and the disk still has no room for the reserve.
func (j *Journal) refuseWhileFull() error {
	if !j.full.Load() {
		return nil
	}
	if j.keepReserve() {
		j.full.Store(false) // space was freed
		return nil
	}
	return j.fullError(nil)
}

// giveUpReserve removes the reserve so that a terminal write can use its
// space; it reports whether there was one to give.
func (j *Journal) giveUpReserve() bool {
	return os.Remove(reservePath(j.path)) == nil
}
