package journal

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
)

// Durable handles (docs/journal.md#handles): the ID a remote provider
// gave the work of an executing call (an A2A task ID, docs/a2a.md), journaled
// as soon as it is known, so that after a crash, a timeout or a lost
// connection the provider can be asked what became of the work instead
// of the person guessing. Nothing is ever sent again.

// MaxHandleBytes bounds a handle.
const MaxHandleBytes = 1 << 10

// migrate13 adds invocations.handle, nullable with no default: rows from
// before have NULL, left out of chain payloads, so they still verify.
func migrate13(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx, `ALTER TABLE invocations ADD COLUMN handle TEXT`)
}

// SetHandle records handle for the executing invocation id, in one
// durable commit chained like every change of the row. A row takes one
// handle: setting it again, or on a row that is not executing, is
// ErrBadTransition; an unknown id is ErrNotFound. Cancelling ctx does not
// stop the commit.
func (j *Journal) SetHandle(ctx context.Context, id, handle string) error {
	ctx = context.WithoutCancel(ctx)
	if handle == "" || len(handle) > MaxHandleBytes {
		return fmt.Errorf("journal: handle of invocation %s is %d bytes; want 1 to %d", id, len(handle), MaxHandleBytes)
	}
	return j.write(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `UPDATE invocations SET handle=? WHERE id=? AND status='executing' AND handle IS NULL RETURNING *`, handle, id)
		if err != nil {
			return fmt.Errorf("journal: set the handle of invocation %s: %w", id, err)
		}
		_, p, err := returnedRow("invocations", rows)
		if errors.Is(err, errNoRow) {
			var status string
			var have sql.NullString
			err := tx.QueryRowContext(ctx, `SELECT status, handle FROM invocations WHERE id=?`, id).Scan(&status, &have)
			if errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("journal: invocation %s: %w", id, ErrNotFound)
			}
			if err != nil {
				return err
			}
			if have.Valid {
				return fmt.Errorf("journal: invocation %s has the handle %q already: %w", id, have.String, ErrBadTransition)
			}
			return fmt.Errorf("journal: invocation %s is %s, not executing; only an executing call takes a handle: %w", id, status, ErrBadTransition)
		}
		if err != nil {
			return fmt.Errorf("journal: set the handle of invocation %s: %w", id, err)
		}
		return j.chainRowChange(ctx, tx, id, p)
	})
}

// ReconcileResult is ReconcileAs that also records what the provider
// answered about the work (result, JSON: an A2A task's artifacts) when the
// invocation has no result yet; who is for example "a2a:poll". An empty
// result records only the outcome.
func (j *Journal) ReconcileResult(ctx context.Context, id string, outcome Effect, who string, result []byte) error {
	if len(result) == 0 {
		return j.ReconcileAs(ctx, id, outcome, who)
	}
	if err := checkJSON("result of invocation "+id, result); err != nil {
		return err
	}
	sum := sha256.Sum256(result)
	return j.reconcile(ctx, id, outcome, who, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE invocations SET result=?, result_digest=? WHERE id=? AND result IS NULL`,
			string(result), "sha256:"+hex.EncodeToString(sum[:]), id)
		return err
	})
}

// Handle returns the handle of invocation id (SetHandle), or "" when it
// has none; ErrNotFound for an unknown id.
func (j *Journal) Handle(ctx context.Context, id string) (string, error) {
	var h sql.NullString
	err := j.db.QueryRowContext(ctx, `SELECT handle FROM invocations WHERE id=?`, id).Scan(&h)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("journal: invocation %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("journal: the handle of invocation %s: %w", id, err)
	}
	return h.String, nil
}

// chainRowChange chains the new payload p of invocation id after a change
// of its row (a handle, a view) inside tx, and keeps it as the executing
// row's payload when the call still runs: FinishInvocation chains from it.
func (j *Journal) chainRowChange(ctx context.Context, tx *sql.Tx, id string, p rowPayload) error {
	if v, ok := j.executing.Load(id); ok {
		e := v.(executingRow)
		e.payload = p
		j.executing.Store(id, e)
	}
	return j.appendChain(ctx, tx, linkOf("invocations", id, p))
}
