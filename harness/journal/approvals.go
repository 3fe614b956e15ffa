package journal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Approval is one consent decision about one call (SPEC §7), bound to the
// session's execution identity.
type Approval struct {
	ID           int64  `json:"id"` // assigned by RecordApproval
	SessionID    string `json:"session_id"`
	TurnID       string `json:"turn_id,omitempty"`
	InvocationID string `json:"invocation_id"` // may name an invocation not yet prepared
	CallID       string `json:"call_id"`
	Tool         string `json:"tool"`
	// Decision: allow_once | allow_session | allow_always | deny.
	Decision string `json:"decision"`
	Scope    string `json:"scope"` // for example "call", "session", "coworker"
	// Source says who decided: "policy:manifest", "policy:user", "grant",
	// "prompt", "bypass", "timeout", "no_terminal", ...
	Source    string    `json:"source"`
	Reason    string    `json:"reason"`
	Identity  string    `json:"identity"` // execution identity the decision is bound to
	CreatedAt time.Time `json:"created_at"`
}

// RecordApproval journals a consent decision and returns its ID. SessionID,
// Decision and Source are required; CreatedAt defaults to now. Cancelling
// ctx does not stop the commit (a prompt that timed out is still journaled).
func (j *Journal) RecordApproval(ctx context.Context, a Approval) (int64, error) {
	ctx = context.WithoutCancel(ctx)
	if a.SessionID == "" {
		return 0, errors.New("journal: RecordApproval: empty session ID")
	}
	switch a.Decision {
	case "allow_once", "allow_session", "allow_always", "deny":
	default:
		return 0, fmt.Errorf("journal: RecordApproval: decision %q; want allow_once, allow_session, allow_always or deny", a.Decision)
	}
	if a.Source == "" {
		return 0, errors.New("journal: RecordApproval: empty source (who decided: prompt, policy:user, grant, ...)")
	}
	created := a.CreatedAt
	if created.IsZero() {
		created = j.now()
	}
	var id int64
	err := j.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO approvals(session_id, turn_id, invocation_id, call_id, tool, decision,
			scope, source, reason, identity, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)`,
			a.SessionID, nullString(a.TurnID), a.InvocationID, a.CallID, a.Tool, a.Decision, a.Scope, a.Source,
			a.Reason, a.Identity, formatTime(created))
		if err != nil {
			return fmt.Errorf("journal: record approval in session %s: %w", a.SessionID, err)
		}
		if id, err = res.LastInsertId(); err != nil {
			return fmt.Errorf("journal: record approval: %w", err)
		}
		return j.chainRow(ctx, tx, "approvals", id)
	})
	if err != nil {
		return 0, err
	}
	return id, nil
}

func scanApproval(sc scanner) (Approval, error) {
	var a Approval
	var turn, created sql.NullString
	err := sc.Scan(&a.ID, &a.SessionID, &turn, &a.InvocationID, &a.CallID, &a.Tool, &a.Decision, &a.Scope,
		&a.Source, &a.Reason, &a.Identity, &created)
	a.TurnID, a.CreatedAt = turn.String, parseTime(created)
	return a, err
}

// Approvals returns the approvals of a session in the order recorded.
func (j *Journal) Approvals(ctx context.Context, sessionID string) ([]Approval, error) {
	return queryAll(ctx, j.db, "approvals of "+sessionID, scanApproval,
		`SELECT id, session_id, turn_id, invocation_id, call_id, tool, decision, scope, source, reason, identity,
		created_at FROM approvals WHERE session_id=? ORDER BY id`, sessionID)
}
