package journal

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"github.com/openworker/desktop/harness/consent"
)

// Approval is one consent decision about one call (docs/consent.md), bound to the
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
	// InboxItem, when set, names the answered inbox item this decision
	// comes from (docs/inbox.md): BeginInvocation and RefuseInvocation
	// consume it in their commit, and fail with ErrAlreadyConsumed, writing
	// nothing, if it was consumed before — so an approved call parked in
	// the inbox runs once. Not a column of approvals (the inbox row names
	// the call).
	InboxItem string `json:"-"`
}

// RecordApproval journals a consent decision and returns its ID. SessionID,
// Decision and Source are required; CreatedAt defaults to now. Cancelling
// ctx does not stop the commit (a prompt that timed out is still journaled).
// BeginInvocation and RefuseInvocation record the decision together with
// the invocation, in one commit.
func (j *Journal) RecordApproval(ctx context.Context, a Approval) (int64, error) {
	ctx = context.WithoutCancel(ctx)
	if err := j.checkApproval("RecordApproval", &a); err != nil {
		return 0, err
	}
	err := j.write(ctx, func(tx *sql.Tx) error {
		l, err := j.insertApproval(ctx, tx, &a)
		if err != nil {
			return err
		}
		return j.appendChain(ctx, tx, l)
	})
	if err != nil {
		return 0, err
	}
	return a.ID, nil
}

// checkApproval checks the required fields and defaults CreatedAt.
func (j *Journal) checkApproval(op string, a *Approval) error {
	if a.SessionID == "" {
		return fmt.Errorf("journal: %s: empty session ID", op)
	}
	// A "Never" answer is journaled as deny (its saved policy is the
	// user_policies row): the table's CHECK knows the four decisions.
	if d := consent.Decision(a.Decision); !d.Valid() || d == consent.DenyAlways {
		return fmt.Errorf("journal: %s: decision %q; want %s", op, a.Decision, consent.OneOf(consent.Decisions()[:4]))
	}
	if a.Source == "" {
		return fmt.Errorf("journal: %s: empty source (who decided: prompt, policy:user, grant, ...)", op)
	}
	if a.CreatedAt.IsZero() {
		a.CreatedAt = j.now()
	}
	return nil
}

// approvalFor checks an optional approval written with inv: same session,
// and about inv (an empty InvocationID becomes inv.ID).
func (j *Journal) approvalFor(op string, a *Approval, inv Invocation) error {
	if a == nil {
		return nil
	}
	if a.InvocationID == "" {
		a.InvocationID = inv.ID
	}
	if a.SessionID != inv.SessionID || a.InvocationID != inv.ID {
		return fmt.Errorf("journal: %s %s: the approval is for session %q, invocation %q; want session %q",
			op, inv.ID, a.SessionID, a.InvocationID, inv.SessionID)
	}
	return j.checkApproval(op, a)
}

const sqlInsertApproval = `INSERT INTO approvals(session_id, turn_id, invocation_id, call_id, tool, decision,
	scope, source, reason, identity, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)`

// insertApproval inserts a checked approval, sets a.ID and returns its
// chain link (the payload built from the values written).
func (j *Journal) insertApproval(ctx context.Context, tx *sql.Tx, a *Approval) (link, error) {
	st, err := j.stmt(ctx, tx, sqlInsertApproval)
	if err != nil {
		return link{}, err
	}
	res, err := st.ExecContext(ctx, a.SessionID, nullString(a.TurnID), a.InvocationID, a.CallID, a.Tool, a.Decision,
		a.Scope, a.Source, a.Reason, a.Identity, formatTime(a.CreatedAt))
	if err != nil {
		return link{}, fmt.Errorf("journal: record approval in session %s: %w", a.SessionID, err)
	}
	if a.ID, err = res.LastInsertId(); err != nil {
		return link{}, fmt.Errorf("journal: record approval: %w", err)
	}
	return linkOf("approvals", strconv.FormatInt(a.ID, 10), approvalPayload(a)), nil
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
