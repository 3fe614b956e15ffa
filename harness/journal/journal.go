package journal

import (
	"context"
	"crypto/ed25519"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// Sentinel errors, matched with errors.Is.
var (
	// ErrNotFound is returned when a session, turn or invocation with the
	// given ID does not exist.
	ErrNotFound = errors.New("not found")
	// ErrBadTransition is returned when a status change is not allowed from
	// the row's current status (for example finishing an invocation that is
	// not executing). The wrapping message names both states.
	ErrBadTransition = errors.New("bad status transition")
	// ErrFutureSchema is returned by Open when the file was written by a
	// newer OpenWorker whose schema this build does not understand.
	ErrFutureSchema = errors.New("journal schema is newer than this app")
)

// RecoveredReason is the error text an invocation gets when Open finds it
// still executing: its process stopped between the durable "executing"
// commit and the terminal commit, so nobody knows whether its effect
// happened (docs/journal.md). It is never re-run automatically.
const RecoveredReason = "the app stopped while this call was running; it needs reconciliation"

// RecoveredCode is the ErrorCode of an invocation recovered by Open.
const RecoveredCode = "interrupted"

// RecoveredTurnReason is the reason a turn gets when Open finds it still
// "running" and the process that started it is gone: the turn becomes
// "failed" (its session is left as it was: it may take new turns).
const RecoveredTurnReason = "the app stopped during this turn"

// Options configures Open. A nil *Options means defaults.
type Options struct {
	// Now returns the current time; nil means time.Now. Tests set it to get
	// fixed timestamps. Every stored time is converted to UTC.
	Now func() time.Time
	// DeferCheck leaves Check (quick_check and the newest chain entries)
	// to the caller, who runs it in the background: the desktop app, whose
	// window should not wait for a cold read of a large file. Open still
	// degrades the journal if migration or recovery meet a damaged file.
	DeferCheck bool
	// Reading is for an open that only reads (journal list, show, export):
	// it checks the newest chain entries but not the whole file with
	// quick_check, whose cost grows with the file (docs/journal.md#scale),
	// until the journal is about to write (a migration or recovery at
	// open, a reconciliation): then it runs first. A read that meets
	// damage still degrades the journal (Explain).
	Reading bool
	// Checkpoints, when not nil, anchors the head outside the file after
	// every commit (checkpoint.go, docs/journal.md#checkpoints).
	Checkpoints *CheckpointOptions
}

// Journal is an open journal database. It is safe for concurrent use by
// multiple goroutines, and several Journals (in one or several processes)
// may open the same file: writers queue on SQLite's write lock for up to
// the busy timeout (5 s).
type Journal struct {
	db        *sql.DB
	path      string
	now       func() time.Time
	recovered int
	turns     int // turns recovered by Open
	owner     *lease
	stmts     stmtCache
	executing sync.Map               // invocation ID → executingRow this Journal committed, for FinishInvocation
	health    atomic.Pointer[Health] // nil while sound; see health.go
	full      atomic.Bool            // a write met a full disk; see reserve.go
	reading   atomic.Bool            // Options.Reading, until a write needs the quick_check
	backup    UpgradeBackup          // the copy Open made before upgrading (backup.go)
	anchor    *anchor                // nil: no checkpoints (checkpoint.go)
	out       outbox                 // outcomes the journal was too busy to take (outbox.go)
}

// Open opens (creating it and its parent directories if needed) the journal
// at path, checks it (Check: quick_check and the newest chain entries;
// unless Options.DeferCheck), upgrades its schema (see migrations.go) and
// recovers interrupted work whose process is gone: every invocation still
// "executing" becomes "unknown" with RecoveredReason (Recovered reports
// how many), and every turn still "running" becomes "failed" with
// RecoveredTurnReason (RecoveredTurns). Before upgrading a file with an
// older schema it copies the file next to it (Backup; an error wrapping
// ErrBackup when it cannot, and then nothing is changed).
//
// Connections use WAL, synchronous=FULL, on macOS fullfsync and
// checkpoint_fullfsync, foreign_keys=ON, busy_timeout=5000 ms and BEGIN
// IMMEDIATE for every transaction; Open reads the durable settings back.
// A file written by a newer app is refused with ErrFutureSchema.
//
// A problem the checks find does not fail Open: the journal opens
// degraded (Health says what is wrong and what to do), reads work as far
// as the file allows, and every write fails with ErrDegraded; no
// migration or recovery is written (docs/journal.md#degraded).
func Open(path string, opts *Options) (*Journal, error) {
	if path == "" {
		return nil, errors.New("journal: empty database path")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("journal: create directory for %s: %w", abs, err)
	}
	// A new file is the person's record: readable by them only (SQLite
	// gives its -wal and -shm the same mode).
	if f, err := os.OpenFile(abs, os.O_RDONLY|os.O_CREATE, 0o600); err == nil {
		f.Close()
	}
	j, err := open(abs, opts)
	if err != nil && isFull(err) && os.Remove(reservePath(abs)) == nil {
		// Too full even to open (SQLite needs room for the -wal and -shm):
		// the reserve makes that room, so that what is there can be read.
		j, err = open(abs, opts)
	}
	if err != nil && isFull(err) && !errors.Is(err, ErrDiskFull) {
		err = fmt.Errorf("journal: %w on %s: free some space on that disk, then try again: %w", ErrDiskFull, abs, err)
	}
	return j, err
}

func open(abs string, opts *Options) (*Journal, error) {
	var err error
	j := &Journal{path: abs, now: time.Now}
	if opts != nil && opts.Now != nil {
		j.now = opts.Now
	}
	if opts != nil && opts.Checkpoints != nil {
		if len(opts.Checkpoints.Key) != ed25519.PrivateKeySize {
			return nil, errors.New("journal: Options.Checkpoints needs a key (LoadCheckpointKey)")
		}
		j.anchor = &anchor{o: *opts.Checkpoints, pub: opts.Checkpoints.Key.Public().(ed25519.PublicKey)}
	}
	j.db, err = sql.Open(driverName, dsn(abs))
	if err != nil {
		return nil, fmt.Errorf("journal: open %s: %w", abs, err)
	}
	if err := j.start(context.Background(), opts); err != nil {
		j.Close()
		return nil, err
	}
	return j, nil
}

// start brings the file j opened into use, in order: the first
// connection (which reads back the durability settings), the degraded
// state an earlier process found, the checks (unless deferred), the
// schema upgrade, this process's lease, the disk-space reserve, and the
// recovery of what a process that is gone left running. A problem with
// the file degrades the journal instead of failing (docs/journal.md#degraded);
// the error is for a file that cannot be used at all.
func (j *Journal) start(ctx context.Context, opts *Options) error {
	bad, err := j.connect(ctx)
	if err != nil {
		return j.unreadable(j.busyError(err))
	}
	if len(bad) > 0 {
		j.degrade(ProblemNotDurable, bad)
	}
	j.readMarker(ctx)
	if err := j.checkAtOpen(ctx, opts); err != nil {
		return err
	}
	if err := j.upgradeAtOpen(ctx); err != nil {
		return err
	}
	if j.owner, err = acquireLease(j.path); err != nil {
		return err
	}
	if j.Health().OK() && !j.keepReserve() {
		j.full.Store(true) // no room even for the reserve: new work waits for space
	}
	return j.recoverAtOpen(ctx)
}

// connect makes the first connection and reads back the settings a
// durable commit needs, returning the ones that did not hold. The first
// connection switches a file in another journal mode (an old fixture, a
// restored copy) to WAL, which needs the file to itself: a second process
// opening it at that moment gets "database is locked" without SQLite's
// busy wait, so it waits here, as long as a busy write.
func (j *Journal) connect(ctx context.Context) (bad []string, err error) {
	for deadline := time.Now().Add(time.Duration(busyTimeoutMS) * time.Millisecond); ; {
		err = j.db.PingContext(ctx)
		if err == nil {
			bad, err = readBackDurability(ctx, j.db)
		}
		if err == nil || !isBusy(err) || time.Now().After(deadline) {
			return bad, err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// unreadable is the error for a file the first connection could not
// read: a file too damaged to be read at all says what to do.
func (j *Journal) unreadable(err error) error {
	if isCorrupt(err) {
		return fmt.Errorf("journal: %s cannot be read at all, it is too damaged (SQLite: %w). "+
			"Close OpenWorker, then restore a backup (%s.*-backup, if there is one) or move the file aside so that a new journal starts", j.path, err, j.path)
	}
	return fmt.Errorf("journal: open %s: %w", j.path, err)
}

// checkAtOpen runs Check, unless opts defers it (a reading open skips
// the quick_check of the whole file), and, before a schema upgrade
// writes, the quick_check a reading open skipped.
func (j *Journal) checkAtOpen(ctx context.Context, opts *Options) error {
	if opts == nil || !opts.DeferCheck {
		j.reading.Store(opts != nil && opts.Reading)
		if _, err := j.check(ctx, !j.reading.Load()); err != nil {
			return err
		}
	}
	if v, err := schemaVersion(ctx, j.db); err == nil && v > 0 && v < len(migrations) {
		return j.quickCheckBeforeWriting(ctx)
	}
	return nil
}

// upgradeAtOpen brings a sound journal's schema to this version (with a
// backup first, j.backup); a damaged file found on the way degrades it.
func (j *Journal) upgradeAtOpen(ctx context.Context) error {
	if !j.Health().OK() {
		return nil
	}
	var err error
	if j.backup, err = upgrade(ctx, j.db, j.path, len(migrations), j.now); err != nil {
		if !isCorrupt(err) {
			return j.busyError(err)
		}
		j.degrade(ProblemDamaged, []string{err.Error()})
	}
	return nil
}

// recoverAtOpen turns what a process that is gone left executing or
// running into unknown or failed, on a sound journal. A reading open's
// quick_check runs before recovery's write, if there is one (commit).
// A damaged file degrades the journal; a held write lock leaves recovery
// to the next Open (or Recover), so that reads go on.
func (j *Journal) recoverAtOpen(ctx context.Context) error {
	if !j.Health().OK() {
		return nil
	}
	var err error
	if j.recovered, j.turns, err = j.recover(ctx); err != nil {
		switch {
		case isCorrupt(err):
			j.degrade(ProblemDamaged, []string{err.Error()})
		case errors.Is(err, ErrDegraded): // the quick_check, or a row to recover changed outside the journal
		case isBusy(err):
			j.recovered, j.turns = 0, 0
		default:
			return err
		}
	}
	return nil
}

// dsn builds the go-sqlite3 data source name. The driver applies these
// pragmas to every pooled connection, not just the first.
//
// Durability: in WAL mode with synchronous=FULL, SQLite fsyncs the WAL file
// at every COMMIT before the COMMIT returns. So when a write method (for
// example MarkExecuting) returns nil, its row survives a process kill or a
// power loss. synchronous=NORMAL would only fsync at checkpoints and could
// lose the last commits on power loss, which would let a tool run without
// its "executing" row.
func dsn(path string) string {
	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	q.Set("_synchronous", "FULL")
	q.Set("_foreign_keys", "on")
	q.Set("_busy_timeout", fmt.Sprint(busyTimeoutMS))
	q.Set("_txlock", "immediate")
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// Close releases the database and this process's claim on its executing
// invocations. Calls still executing at Close become "unknown" at the next
// Open.
func (j *Journal) Close() error {
	if j.Pending() > 0 { // the outcomes kept while the journal was busy: one more try, else the files stay for the next Open
		j.flushPending(context.Background())
	}
	j.stmts.close()
	err := j.db.Close()
	if j.owner != nil {
		j.owner.release()
	}
	return err
}

// Path returns the absolute path of the database file.
func (j *Journal) Path() string { return j.path }

// Recovered returns how many invocations Open turned from "executing" into
// "unknown".
func (j *Journal) Recovered() int { return j.recovered }

// RecoveredTurns returns how many turns Open turned from "running" into
// "failed" because the process running them was gone.
func (j *Journal) RecoveredTurns() int { return j.turns }

// write runs fn in one BEGIN IMMEDIATE transaction and commits it (durably,
// see dsn). fn's error rolls back.
//
// A degraded journal (Health) refuses every write with ErrDegraded, and a
// write that meets a damaged file degrades the journal. A write that
// meets a full disk fails with ErrDiskFull and makes the journal full
// (reserve.go): new work is refused until there is space again.
func (j *Journal) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if err := j.refuseWhileFull(); err != nil {
		return err
	}
	j.flushPending(ctx)
	err := j.commitRetrying(ctx, fn)
	if isFull(err) {
		j.full.Store(true)
		return j.fullError(err)
	}
	return err
}

// writeFinal is write for the terminal record of work already running (a
// call's outcome, a turn's or session's end, recovery): it goes ahead on
// a full journal, and if the disk is full it gives up the reserve and
// tries once more.
func (j *Journal) writeFinal(ctx context.Context, fn func(tx *sql.Tx) error) error {
	err := j.commitRetrying(ctx, fn)
	if isFull(err) {
		j.full.Store(true)
		if j.giveUpReserve() {
			err = j.commitRetrying(ctx, fn)
		}
		if isFull(err) {
			return j.fullError(err)
		}
	}
	return err
}

func (j *Journal) commit(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if err := j.quickCheckBeforeWriting(ctx); err != nil {
		return err
	}
	if err := j.degradedError(); err != nil {
		return err
	}
	tx, err := j.db.BeginTx(ctx, nil)
	if err != nil {
		return j.writeError(fmt.Errorf("journal: begin: %w", err))
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return j.writeError(err)
	}
	if err := tx.Commit(); err != nil {
		return j.writeError(fmt.Errorf("journal: commit: %w", err))
	}
	j.checkpoint(context.WithoutCancel(ctx))
	return nil
}

// writeError is what a failed write returns: a damaged file degrades the
// journal and says what to do; a held lock names who holds the journal.
func (j *Journal) writeError(err error) error {
	if isBusy(err) {
		return j.busyError(err)
	}
	return j.readError(err)
}

// stamp returns the current time in the stored format.
func (j *Journal) stamp() string { return formatTime(j.now()) }

// Timestamps are stored as fixed-width UTC text with nanoseconds
// ("2006-01-02T15:04:05.000000000Z"): readable in the sqlite3 shell and
// sortable as text. A zero time is stored as NULL.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return formatTime(t)
}

func parseTime(s sql.NullString) time.Time {
	if !s.Valid || s.String == "" {
		return time.Time{}
	}
	t, err := time.Parse(timeLayout, s.String)
	if err != nil {
		return time.Time{}
	}
	return t
}

// nullString stores "" as NULL (used for optional foreign keys).
func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

type scanner interface{ Scan(...any) error }

type querier interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}

// queryAll runs a query and scans every row with scan.
func queryAll[T any](ctx context.Context, q querier, what string, scan func(scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("journal: %s: %w", what, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("journal: %s: %w", what, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("journal: %s: %w", what, err)
	}
	return out, nil
}

// DefaultPath returns the journal's default location,
// <user config dir>/OpenWorker/journal.db (docs/cli.md; `--db` overrides):
// ~/.config on Linux, ~/Library/Application Support on macOS, %AppData% on
// Windows.
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("journal: find the user config directory: %w", err)
	}
	return filepath.Join(dir, "OpenWorker", "journal.db"), nil
}
