package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/internal/jsonenc"
)

// The write paths of an invocation before it runs. The harness makes two
// durable commits per executed call (docs/journal.md): BeginInvocation (consent
// decision, prepared and executing rows) before any I/O, FinishInvocation
// after. PrepareInvocation and MarkExecuting make the same history in two
// commits; RefuseInvocation records a call refused before any I/O.

const sqlInsertInvocation = `INSERT INTO invocations(id, session_id, turn_id, call_id, tool, alias, provider,
	remote_name, risk, descriptor_digest, arguments, status, result, result_digest, error_code, error, effect,
	reconciled, reconciled_by, reconciled_at, duration_ms, created_at, started_at, finished_at, owner, placement)
	VALUES (?,?,?,?,?,?,?,?,?,?,?,?,NULL,'',?,?,?,'','',NULL,0,?,?,?,?,?)`

// sqlInsertViewInvocation is sqlInsertInvocation with the origin of a call
// asked by an app view (schema 14; the model's calls leave it NULL, so
// that the statement above also runs on the older schemas tests build).
const sqlInsertViewInvocation = `INSERT INTO invocations(id, session_id, turn_id, call_id, tool, alias, provider,
	remote_name, risk, descriptor_digest, arguments, status, result, result_digest, error_code, error, effect,
	reconciled, reconciled_by, reconciled_at, duration_ms, created_at, started_at, finished_at, owner, placement, origin)
	VALUES (?,?,?,?,?,?,?,?,?,?,?,?,NULL,'',?,?,?,'','',NULL,0,?,?,?,?,?,?)`

const sqlMarkExecuting = `UPDATE invocations SET status='executing', started_at=?, owner=?
	WHERE id=? AND status='prepared' RETURNING *`

// newInvocation checks inv for a first write with status want (prepared,
// executing or refused) and normalizes its arguments and creation time.
func (j *Journal) newInvocation(op string, inv *Invocation, want InvocationStatus) error {
	if inv.ID == "" || inv.SessionID == "" {
		return fmt.Errorf("journal: %s: invocation ID %q and session ID %q must both be set", op, inv.ID, inv.SessionID)
	}
	// A refusal may name no tool: the model asked with an empty name, and
	// that refusal is journaled like every other (issue 40).
	if inv.Tool == "" && inv.Alias == "" && want != InvRefused {
		return fmt.Errorf("journal: %s %s: tool and alias are both empty", op, inv.ID)
	}
	if err := checkOrigin(op, inv.ID, inv.Origin); err != nil {
		return err
	}
	if want == InvRefused {
		if inv.ErrorCode == "" && inv.Error == "" {
			return fmt.Errorf("journal: %s %s: a refused call needs an ErrorCode or Error saying why", op, inv.ID)
		}
		if len(inv.Arguments) > 0 && !json.Valid(inv.Arguments) {
			inv.Arguments = jsonenc.String(string(inv.Arguments))
		}
	}
	if len(inv.Arguments) == 0 {
		inv.Arguments = json.RawMessage("null")
	}
	if err := checkJSON("arguments of invocation "+inv.ID, inv.Arguments); err != nil {
		return err
	}
	if inv.CreatedAt.IsZero() {
		inv.CreatedAt = j.now()
	}
	return nil
}

// insertInvocation inserts inv with status (prepared, executing or
// refused) and returns the row's payload, built from the values written.
func (j *Journal) insertInvocation(ctx context.Context, tx *sql.Tx, inv Invocation, status InvocationStatus, started time.Time) (rowPayload, error) {
	var effect Effect
	finished := ""
	if status == InvRefused {
		effect, finished = EffectNotApplied, j.stamp()
	}
	query := sqlInsertInvocation
	startedText := timeOrEmpty(started)
	args := []any{inv.ID, inv.SessionID, nullString(inv.TurnID), inv.CallID, inv.Tool, inv.Alias,
		inv.Provider, inv.RemoteName, inv.Risk, inv.DescriptorDigest, string(inv.Arguments), string(status), inv.ErrorCode,
		inv.Error, string(effect), formatTime(inv.CreatedAt), nullString(startedText), nullString(finished), j.owner.token,
		nullString(inv.Placement)}
	if inv.Origin != "" {
		query, args = sqlInsertViewInvocation, append(args, inv.Origin)
	}
	st, err := j.stmt(ctx, tx, query)
	if err != nil {
		return nil, err
	}
	_, err = st.ExecContext(ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("journal: record invocation %s: %w", inv.ID, err)
	}
	return invocationPayload(inv, string(status), string(effect), startedText, finished, j.owner.token), nil
}

// executingRow is what FinishInvocation needs of an invocation this
// Journal moved to executing: when, and the row's payload.
type executingRow struct {
	started time.Time
	payload rowPayload
}

// PrepareInvocation records a call that passed validation, selection,
// consent and budget (status "prepared"), or, when inv.Status is "refused",
// a call refused before any I/O (see RefuseInvocation). ID, SessionID and
// Tool or Alias are required. Arguments must be JSON (at most
// MaxJSONBytes), except for refused calls, whose invalid arguments are
// stored as a JSON string holding the raw text.
func (j *Journal) PrepareInvocation(ctx context.Context, inv Invocation) error {
	switch inv.Status {
	case "", InvPrepared:
	case InvRefused:
		return j.RefuseInvocation(ctx, inv, nil)
	default:
		return fmt.Errorf("journal: PrepareInvocation %s: status %q; want \"\" (prepared) or %q", inv.ID, inv.Status, InvRefused)
	}
	if err := j.newInvocation("PrepareInvocation", &inv, InvPrepared); err != nil {
		return err
	}
	return j.write(ctx, func(tx *sql.Tx) error {
		p, err := j.insertInvocation(ctx, tx, inv, InvPrepared, time.Time{})
		if err != nil {
			return err
		}
		return j.appendChain(ctx, tx, linkOf("invocations", inv.ID, p))
	})
}

// RefuseInvocation records, in one durable transaction, the consent
// decision a (optional; typically a deny) and a call refused before any
// I/O (unknown alias, not selected, bad arguments, denied, over budget,
// consent withdrawn): status "refused", effect "not_applied", with
// inv.ErrorCode and inv.Error saying why (one of them is required).
// inv.Status must be "" or "refused". Invalid JSON arguments are stored as
// a JSON string of the raw text. a.ID is set when it returns nil.
// Cancelling ctx does not stop the commit: a refusal is evidence even on a
// cancelled turn.
func (j *Journal) RefuseInvocation(ctx context.Context, inv Invocation, a *Approval) error {
	ctx = context.WithoutCancel(ctx)
	if inv.Status != "" && inv.Status != InvRefused {
		return fmt.Errorf("journal: RefuseInvocation %s: status %q; want \"\" or %q", inv.ID, inv.Status, InvRefused)
	}
	if err := j.newInvocation("RefuseInvocation", &inv, InvRefused); err != nil {
		return err
	}
	if err := j.approvalFor("RefuseInvocation", a, inv); err != nil {
		return err
	}
	return j.write(ctx, func(tx *sql.Tx) error {
		var links []link
		if a != nil && a.InboxItem != "" {
			if err := j.consumeInboxItem(ctx, tx, a.InboxItem); err != nil {
				return err
			}
		}
		if a != nil {
			l, err := j.insertApproval(ctx, tx, a)
			if err != nil {
				return err
			}
			links = append(links, l)
		}
		p, err := j.insertInvocation(ctx, tx, inv, InvRefused, time.Time{})
		if err != nil {
			return err
		}
		return j.appendChain(ctx, tx, append(links, linkOf("invocations", inv.ID, p))...)
	})
}

// BeginInvocation records, in ONE durable transaction (BEGIN IMMEDIATE …
// COMMIT, WAL with synchronous=FULL), the consent decision a that allowed
// the call (optional; its Decision must allow), and the invocation inv as
// "prepared" and then "executing": the chain gets an entry for the
// approval, one for the prepared row and one for the executing row, the
// same history PrepareInvocation + MarkExecuting write in two commits.
//
// When it returns nil the executing row is durable: the caller may make
// its one provider call, and whatever happens next the journal shows that
// the call may have run. If the process dies before, nothing ran and
// nothing of it is in the journal. If it returns an error the caller must
// not make the call. A cancelled ctx fails it (nothing is written).
//
// inv.Status must be "", "prepared" or "executing"; ID, SessionID and Tool
// or Alias are required; Arguments must be JSON. a.SessionID must be
// inv.SessionID; an empty a.InvocationID becomes inv.ID; a.ID is set when
// it returns nil.
func (j *Journal) BeginInvocation(ctx context.Context, inv Invocation, a *Approval) error {
	switch inv.Status {
	case "", InvPrepared, InvExecuting:
	default:
		return fmt.Errorf("journal: BeginInvocation %s: status %q; want \"\" (prepared, then executing)", inv.ID, inv.Status)
	}
	if err := j.newInvocation("BeginInvocation", &inv, InvExecuting); err != nil {
		return err
	}
	if err := j.approvalFor("BeginInvocation", a, inv); err != nil {
		return err
	}
	if a != nil && consent.Decision(a.Decision) == consent.Deny {
		return fmt.Errorf("journal: BeginInvocation %s: the approval is a deny; record it with RefuseInvocation", inv.ID)
	}
	started := j.now()
	var executing executingRow
	err := j.write(ctx, func(tx *sql.Tx) error {
		var links []link
		if a != nil && a.InboxItem != "" {
			if err := j.consumeInboxItem(ctx, tx, a.InboxItem); err != nil {
				return err
			}
		}
		if a != nil {
			l, err := j.insertApproval(ctx, tx, a)
			if err != nil {
				return err
			}
			links = append(links, l)
		}
		// The row is inserted as executing; the prepared state it passed
		// through in this transaction is chained from the same values:
		// status "prepared" and no started_at, as PrepareInvocation writes.
		p, err := j.insertInvocation(ctx, tx, inv, InvExecuting, started)
		if err != nil {
			return err
		}
		prepared := p.set("status", string(InvPrepared)).without("started_at")
		links = append(links, linkOf("invocations", inv.ID, prepared), linkOf("invocations", inv.ID, p))
		executing = executingRow{started, p}
		return j.appendChain(ctx, tx, links...)
	})
	if err != nil {
		return err
	}
	j.executing.Store(inv.ID, executing)
	return nil
}

// MarkExecuting moves a prepared invocation to "executing". When it
// returns nil the row is committed and fsynced (WAL, synchronous=FULL), so
// the caller may now make its one provider call: whatever happens next,
// the journal shows the call may have run. Any other status returns
// ErrBadTransition. A cancelled ctx fails it and the row stays prepared;
// if an error is returned the caller must not make the call (in the rare
// case the commit landed anyway, the row is recovered as "unknown", never
// silently lost).
func (j *Journal) MarkExecuting(ctx context.Context, id string) error {
	started := j.now()
	var executing executingRow
	err := j.write(ctx, func(tx *sql.Tx) error {
		st, err := j.stmt(ctx, tx, sqlMarkExecuting)
		if err != nil {
			return err
		}
		rows, err := st.QueryContext(ctx, formatTime(started), j.owner.token, id)
		if err != nil {
			return fmt.Errorf("journal: mark invocation %s executing: %w", id, err)
		}
		_, p, err := returnedRow("invocations", rows)
		if errors.Is(err, errNoRow) {
			return transitionError(ctx, tx, "invocation", "invocations", id, string(InvExecuting), string(InvPrepared))
		}
		if err != nil {
			return fmt.Errorf("journal: mark invocation %s executing: %w", id, err)
		}
		executing = executingRow{started, p}
		return j.appendChain(ctx, tx, linkOf("invocations", id, p))
	})
	if err != nil {
		return err
	}
	j.executing.Store(id, executing)
	return nil
}
