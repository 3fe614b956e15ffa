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
// Decision and Source are required; CreatedAt defaults to now.
func (j *Journal) RecordApproval(ctx context.Context, a Approval) (int64, error) {
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

// Warning is a journaled warning, for example a model_context fact that
// was dropped because it did not fit.
type Warning struct {
	ID        int64     `json:"id"`
	SessionID string    `json:"session_id"`
	TurnID    string    `json:"turn_id,omitempty"`
	Code      string    `json:"code"`
	Message   string    `json:"message"`
	CreatedAt time.Time `json:"created_at"`
}

// Warn journals a warning in a session (turnID may be empty).
func (j *Journal) Warn(ctx context.Context, sessionID, turnID, code, msg string) error {
	if sessionID == "" || code == "" {
		return fmt.Errorf("journal: Warn: session ID %q and code %q must both be set", sessionID, code)
	}
	return j.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO warnings(session_id, turn_id, code, message, created_at) VALUES (?,?,?,?,?)`,
			sessionID, nullString(turnID), code, msg, j.stamp())
		if err != nil {
			return fmt.Errorf("journal: warn in session %s: %w", sessionID, err)
		}
		id, err := res.LastInsertId()
		if err != nil {
			return fmt.Errorf("journal: warn: %w", err)
		}
		return j.chainRow(ctx, tx, "warnings", id)
	})
}

func scanWarning(sc scanner) (Warning, error) {
	var w Warning
	var turn, created sql.NullString
	err := sc.Scan(&w.ID, &w.SessionID, &turn, &w.Code, &w.Message, &created)
	w.TurnID, w.CreatedAt = turn.String, parseTime(created)
	return w, err
}

// Warnings returns the warnings of a session in the order recorded.
func (j *Journal) Warnings(ctx context.Context, sessionID string) ([]Warning, error) {
	return queryAll(ctx, j.db, "warnings of "+sessionID, scanWarning,
		`SELECT id, session_id, turn_id, code, message, created_at FROM warnings WHERE session_id=? ORDER BY id`, sessionID)
}
