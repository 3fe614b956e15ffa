package journal

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Crash recovery (docs/journal.md): an invocation still "executing" when its
// process is gone becomes "unknown", and a turn still "running" becomes
// "failed". Several processes may have the same
// journal open (the desktop app and a CLI run), so "gone" must be decided
// per process, not per file: each Journal holds a lease, an exclusively
// locked file <db>.owners/<token>.lock, and stamps its token on the
// invocations and turns it starts. The operating system drops the lock
// when the process dies, even by SIGKILL or power loss. Open recovers the
// rows whose owner's lock it can take (or that have no owner: invocations
// written before schema version 2, turns before version 3).

// lease is this Journal's claim on its executing invocations.
type lease struct {
	token string
	path  string
	file  *os.File
}

func ownersDir(dbPath string) string { return dbPath + ".owners" }

// whoPath is the .who file beside a lease file: which process holds it.
func whoPath(leasePath string) string { return strings.TrimSuffix(leasePath, ".lock") + ".who" }

// whoOf is what the .who file of lease token says ("pid 1234 (openworker
// run)"); "" when there is none.
func whoOf(dbPath, token string) string {
	if token == "" || strings.ContainsAny(token, `/\.`) {
		return ""
	}
	b, err := os.ReadFile(filepath.Join(ownersDir(dbPath), token+".who"))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// acquireLease creates and locks a new lease file, and removes lease files
// left by dead processes.
func acquireLease(dbPath string) (*lease, error) {
	dir := ownersDir(dbPath)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("journal: create %s: %w", dir, err)
	}
	for attempt := 0; attempt < 3; attempt++ {
		l := &lease{token: NewID("own_")}
		l.path = filepath.Join(dir, l.token+".lock")
		f, err := os.OpenFile(l.path, os.O_CREATE|os.O_RDWR|os.O_EXCL, 0o600)
		if err != nil {
			return nil, fmt.Errorf("journal: create lease %s: %w", l.path, err)
		}
		if err := lockFile(f, true); err != nil {
			f.Close()
			return nil, fmt.Errorf("journal: lock lease %s: %w", l.path, err)
		}
		// Another process sweeping stale leases may have removed the file
		// between our create and our lock; then our lock guards nothing.
		fi, err1 := f.Stat()
		pi, err2 := os.Stat(l.path)
		if err1 == nil && err2 == nil && os.SameFile(fi, pi) {
			l.file = f
			_ = os.WriteFile(whoPath(l.path), []byte(whoAmI()+"\n"), 0o600) // for busyError; best effort
			sweepLeases(dir, l.token)
			return l, nil
		}
		f.Close()
	}
	return nil, fmt.Errorf("journal: could not hold a lease in %s", dir)
}

// release unlocks and removes the lease file.
func (l *lease) release() {
	if l.file == nil {
		return
	}
	l.file.Close() // drops the lock: from now on our executing calls are recoverable
	os.Remove(l.path)
	os.Remove(whoPath(l.path))
	l.file = nil
}

// ownerAlive reports whether the lease token is held by a live Journal.
func ownerAlive(dbPath, token string) bool {
	if token == "" || strings.ContainsAny(token, `/\.`) {
		return false
	}
	f, err := os.OpenFile(filepath.Join(ownersDir(dbPath), token+".lock"), os.O_RDWR, 0)
	if err != nil {
		return false // no lease file: its owner released it or was swept
	}
	defer f.Close()
	return lockFile(f, false) != nil // a lock we cannot take is held by a live owner
}

// whoKeep is how long the .who of a dead owner is kept for recovery.
const whoKeep = 7 * 24 * time.Hour

// staleLeaseAge keeps the sweeper off lease files so young that their
// creator may not have locked them yet.
var staleLeaseAge = time.Minute

// sweepLeases removes the lease files of dead owners, except self.
func sweepLeases(dir, self string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if tok, ok := strings.CutSuffix(e.Name(), ".who"); ok && tok != self {
			// The .who of a dead owner names it in recovery reasons; once its
			// lock is gone and a week has passed, nothing is left to recover.
			if _, err := os.Stat(filepath.Join(dir, tok+".lock")); os.IsNotExist(err) {
				if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > whoKeep {
					os.Remove(filepath.Join(dir, e.Name()))
				}
			}
			continue
		}
		tok, ok := strings.CutSuffix(e.Name(), ".lock")
		if !ok || tok == self {
			continue
		}
		if fi, err := e.Info(); err != nil || time.Since(fi.ModTime()) < staleLeaseAge {
			continue
		}
		p := filepath.Join(dir, e.Name())
		f, err := os.OpenFile(p, os.O_RDWR, 0)
		if err != nil {
			continue
		}
		dead := lockFile(f, false) == nil
		f.Close() // Windows cannot remove an open file
		if dead {
			os.Remove(p) // its .who stays for recovery to name the process (removed above after whoKeep)
		}
	}
}

// recover marks the executing invocations of dead owners as unknown and
// their running turns as failed, in one transaction, and returns how many
// of each.
// Recover does again what Open does: invocations still "executing" whose
// process is gone become "unknown", turns still "running" whose process is
// gone become "failed". It returns how many of each it changed. A
// long-lived process calls it before continuing a session that another
// process may have left when it died after this Journal was opened.
func (j *Journal) Recover(ctx context.Context) (invocations, turns int, err error) {
	return j.recover(ctx)
}

func (j *Journal) recover(ctx context.Context) (invocations, turns int, err error) {
	// Look first without the write lock: most opens find nothing to
	// recover, and a journal another process is writing must not make
	// them wait for its lock.
	if some, err := j.anyDeadOwned(ctx); err != nil || !some {
		return 0, 0, j.readError(err)
	}
	var kept []string // invocations finished from the outbox (outbox.go)
	err = j.writeFinal(ctx, func(tx *sql.Tx) error {
		alive := map[string]bool{}
		now := j.stamp()
		ids, err := j.deadOwned(ctx, tx, alive, `SELECT id, coalesce(owner, '') FROM invocations WHERE status='executing' ORDER BY rowid`)
		if err != nil {
			return fmt.Errorf("journal: find interrupted invocations: %w", err)
		}
		kept = kept[:0]
		for _, r := range ids {
			id := r.id
			if err := j.checkUnchanged(ctx, tx, "invocations", id); err != nil {
				return err
			}
			if f, ok := j.outboxFinish(id); ok { // its outcome is known: the journal was only busy
				if err := j.finishFromOutbox(ctx, tx, id, f, now); err != nil {
					return err
				}
				kept = append(kept, id)
				continue
			}
			reason, _ := j.recoveredReasons(r.owner)
			if _, err := tx.ExecContext(ctx, `UPDATE invocations SET status='unknown', effect='unknown', error_code=?,
				error=?, finished_at=? WHERE id=? AND status='executing'`, RecoveredCode, reason, now, id); err != nil {
				return fmt.Errorf("journal: recover invocation %s: %w", id, err)
			}
			if err := j.chainRow(ctx, tx, "invocations", id); err != nil {
				return err
			}
		}
		invocations = len(ids) - len(kept)
		ids, err = j.deadOwned(ctx, tx, alive, `SELECT id, coalesce(owner, '') FROM turns WHERE status='running' ORDER BY rowid`)
		if err != nil {
			return fmt.Errorf("journal: find interrupted turns: %w", err)
		}
		for _, r := range ids {
			id := r.id
			if err := j.checkUnchanged(ctx, tx, "turns", id); err != nil {
				return err
			}
			_, reason := j.recoveredReasons(r.owner)
			// The counts are written when a turn ends; for one that never
			// did, count what the journal holds: the model replies and the
			// calls that started (at least that many attempts and calls).
			if _, err := tx.ExecContext(ctx, `UPDATE turns SET status='failed', reason=?, finished_at=?,
				attempts=max(attempts, (SELECT count(*) FROM messages WHERE turn_id=turns.id AND role='assistant')),
				calls=max(calls, (SELECT count(*) FROM invocations WHERE turn_id=turns.id AND status IN ('succeeded','failed','unknown')))
				WHERE id=? AND status='running'`, reason, now, id); err != nil {
				return fmt.Errorf("journal: recover turn %s: %w", id, err)
			}
			if err := j.chainRow(ctx, tx, "turns", id); err != nil {
				return err
			}
		}
		turns = len(ids)
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	for _, id := range kept {
		if p, ok := outboxFile(j.path, id); ok {
			os.Remove(p)
		}
	}
	return invocations, turns, nil
}

// deadOwned runs query (rows of id, owner) and returns the ids whose owner
// is gone: no live lease, or no owner at all (rows written before owners
// were recorded). alive caches the answer per owner.
func (j *Journal) deadOwned(ctx context.Context, tx querier, alive map[string]bool, query string) ([]ownedRow, error) {
	rows, err := tx.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ownedRow
	for rows.Next() {
		var r ownedRow
		if err := rows.Scan(&r.id, &r.owner); err != nil {
			return nil, err
		}
		if !j.ownerLive(alive, r.owner) {
			out = append(out, r)
		}
	}
	return out, rows.Err()
}

// ownedRow is a row's key and the lease token of the process that wrote it.
type ownedRow struct{ id, owner string }

// recoveredReasons are the error of an invocation and the reason of a
// turn recovered from the dead owner: naming the process when its lease
// left a .who (RecoveredReason and RecoveredTurnReason when not).
func (j *Journal) recoveredReasons(owner string) (call, turn string) {
	who := whoOf(j.path, owner)
	if who == "" {
		return RecoveredReason, RecoveredTurnReason
	}
	return "the process that ran this call, " + who + ", stopped while it was running; it needs reconciliation",
		who + " stopped during this turn"
}

// anyDeadOwned reports whether recover has anything to do: an invocation
// still executing or a turn still running whose owner is gone.
func (j *Journal) anyDeadOwned(ctx context.Context) (bool, error) {
	alive := map[string]bool{}
	for _, q := range []string{
		`SELECT id, coalesce(owner, '') FROM invocations WHERE status='executing'`,
		`SELECT id, coalesce(owner, '') FROM turns WHERE status='running'`,
	} {
		ids, err := j.deadOwned(ctx, j.db, alive, q)
		if err != nil || len(ids) > 0 {
			return len(ids) > 0, err
		}
	}
	return false, nil
}

// ownerLive reports whether the Journal whose lease token is owner is
// alive: this one, or one whose lease is held. alive caches the answers
// (nil: no cache). A row with no owner has none alive.
func (j *Journal) ownerLive(alive map[string]bool, owner string) bool {
	if live, seen := alive[owner]; seen {
		return live
	}
	live := owner != "" && (owner == j.owner.token || ownerAlive(j.path, owner))
	if alive != nil {
		alive[owner] = live
	}
	return live
}

// finishFromOutbox writes, inside recovery's transaction, the outcome a
// process that is gone kept in the outbox because the journal was busy:
// its status, result and effect as they were, with BusyCode and a note
// saying so (a failed call keeps its own error code, the note added to
// its error).
func (j *Journal) finishFromOutbox(ctx context.Context, tx *sql.Tx, id string, f Finish, now string) error {
	effect, _ := finishEffect(id, f)
	digest := ""
	if len(f.Result) > 0 {
		sum := sha256.Sum256(f.Result)
		digest = "sha256:" + hex.EncodeToString(sum[:])
	}
	code, msg := f.ErrorCode, busyNote
	if code == "" {
		code = BusyCode
	}
	if f.Error != "" {
		msg = f.Error + " (" + busyNote + ")"
	}
	if f.Status == InvSucceeded {
		msg = busyNote + "; the call succeeded"
	}
	if _, err := tx.ExecContext(ctx, sqlFinishInvocation, string(f.Status), jsonOrNull(f.Result), digest, code, msg, string(effect), f.DurationMS, now, id); err != nil {
		return fmt.Errorf("journal: write the kept outcome of invocation %s: %w", id, err)
	}
	return j.chainRow(ctx, tx, "invocations", id)
}
