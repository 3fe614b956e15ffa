package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Session is one conversation with a coworker, bound to its execution
// identity (docs/identity.md). Status is "open", then "closed" or "failed".
type Session struct {
	ID              string          `json:"id"`
	Coworker        string          `json:"coworker"`
	CoworkerVersion string          `json:"coworker_version"`
	Identity        string          `json:"identity"` // execution identity (hex SHA-256)
	Provider        string          `json:"provider"` // model provider
	Model           string          `json:"model"`
	Approve         string          `json:"approve"` // approval mode: "ask" | "bypass"
	Status          SessionStatus   `json:"status"`  // "open", "closed" or "failed"
	Error           string          `json:"error"`
	CreatedAt       time.Time       `json:"created_at"`
	UpdatedAt       time.Time       `json:"updated_at"`
	IdentityParts   json.RawMessage `json:"identity_parts,omitempty"` // what the identity was hashed from
	// FirstPrompt is the prompt of the session's first turn ("" before
	// one); filled in by Sessions, for lists, where it tells sessions with
	// the same coworker apart.
	FirstPrompt string `json:"first_prompt,omitempty"`
	// Interrupted is true for an open session whose process is gone (it
	// crashed or was killed with the session open): no one is running it,
	// and it can be continued. Filled in by Sessions.
	Interrupted bool `json:"interrupted,omitempty"`
	// Unreconciled counts the session's invocations waiting for
	// reconciliation (status "unknown", not reconciled): what the
	// "needs attention" lists show (SessionQuery.NeedsAttention). Filled
	// in by Sessions and SessionPage.
	Unreconciled int `json:"unreconciled,omitempty"`
	// Title is the chat's title: the newest one set (SetTitle), else
	// DefaultTitle of FirstPrompt ("" before the first turn). TitleSet
	// says one was set. Hidden is true when the newest hidden label hides
	// the session from the chat list (HideSession). LastActivity is the
	// time of its newest message, else CreatedAt (closing or hiding a
	// session is not activity). Filled in by the lists
	// (docs/journal.md#chat-titles).
	Title        string    `json:"title"`
	TitleSet     bool      `json:"title_set,omitempty"`
	Hidden       bool      `json:"hidden,omitempty"`
	LastActivity time.Time `json:"last_activity,omitzero"`
}

// MaxJSONBytes bounds each JSON field (message content, arguments, result,
// identity parts). Images are never stored: callers journal their digests.
const MaxJSONBytes = 1 << 20

// checkJSON validates an optional JSON field.
func checkJSON(what string, raw json.RawMessage) error {
	if len(raw) > MaxJSONBytes {
		return fmt.Errorf("journal: %s is %d bytes; the journal stores at most %d bytes per field (store image digests, never pixels)",
			what, len(raw), MaxJSONBytes)
	}
	if len(raw) > 0 && !json.Valid(raw) {
		return fmt.Errorf("journal: %s is not valid JSON", what)
	}
	return nil
}

func jsonOrNull(raw json.RawMessage) any {
	if len(raw) == 0 {
		return nil
	}
	return string(raw)
}

// CreateSession records a new session with status "open". ID, Coworker and
// Identity are required; CreatedAt defaults to now.
func (j *Journal) CreateSession(ctx context.Context, s Session) error {
	switch {
	case s.ID == "":
		return errors.New("journal: CreateSession: empty session ID")
	case s.Coworker == "":
		return fmt.Errorf("journal: CreateSession %s: empty coworker", s.ID)
	case s.Identity == "":
		return fmt.Errorf("journal: CreateSession %s: empty execution identity (docs/identity.md)", s.ID)
	}
	if err := checkJSON("session identity parts", s.IdentityParts); err != nil {
		return err
	}
	created := s.CreatedAt
	if created.IsZero() {
		created = j.now()
	}
	return j.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO sessions(id, coworker, coworker_version, identity, identity_parts,
			provider, model, approve, status, error, created_at, updated_at, owner) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`,
			s.ID, s.Coworker, s.CoworkerVersion, s.Identity, jsonOrNull(s.IdentityParts),
			s.Provider, s.Model, s.Approve, string(SessionOpen), "", formatTime(created), formatTime(created), j.owner.token)
		if err != nil {
			return fmt.Errorf("journal: create session %s: %w", s.ID, err)
		}
		return j.chainRow(ctx, tx, "sessions", s.ID)
	})
}

// FinishSession moves an open session to status "closed" or "failed" with
// an optional error message. Finishing a session that is not open returns
// ErrBadTransition. Cancelling ctx does not stop the commit.
func (j *Journal) FinishSession(ctx context.Context, id string, status SessionStatus, errMsg string) error {
	ctx = context.WithoutCancel(ctx)
	if status != SessionClosed && status != SessionFailed {
		return fmt.Errorf("journal: FinishSession %s: status %q; want %q or %q", id, status, SessionClosed, SessionFailed)
	}
	return j.writeFinal(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE sessions SET status=?, error=?, updated_at=? WHERE id=? AND status='open'`,
			string(status), errMsg, j.stamp(), id)
		if err != nil {
			return fmt.Errorf("journal: finish session %s: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return transitionError(ctx, tx, "session", "sessions", id, string(status), string(SessionOpen))
		}
		return j.chainRow(ctx, tx, "sessions", id)
	})
}

// ErrHeldElsewhere is returned by ReopenSession for a
// session that another live process (another Journal on the same file,
// found through its lease) holds open.
var ErrHeldElsewhere = errors.New("the session is open in another OpenWorker process")

// Reopening is what a process continuing a session runs it with now; empty
// fields keep the session row's values.
type Reopening struct {
	Provider, Model, Approve string
}

// ReopenSession takes a session for this Journal's process so that it can
// take new turns (a person continuing a chat), recording the provider,
// model and approval mode it goes on with (by): a closed or failed session
// is moved back to "open" with its error cleared; an open one whose owner
// process is gone (or that has no owner, from before owners were
// recorded) is taken over. Either change is chained, so the journal shows
// that the session was reopened and when (updated_at). A session held open
// by another live process returns ErrHeldElsewhere; one this Journal holds
// is left as it is; a missing one returns ErrNotFound.
func (j *Journal) ReopenSession(ctx context.Context, id string, by Reopening) error {
	ctx = context.WithoutCancel(ctx)
	return j.write(ctx, func(tx *sql.Tx) error {
		var status SessionStatus
		var owner sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT status, owner FROM sessions WHERE id=?`, id).Scan(&status, &owner)
		if err == sql.ErrNoRows {
			return fmt.Errorf("journal: session %s: %w", id, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("journal: reopen session %s: %w", id, err)
		}
		if status == SessionOpen {
			switch {
			case owner.String == j.owner.token:
				return nil
			case j.ownerLive(nil, owner.String):
				return fmt.Errorf("journal: session %s: %w; close it there first", id, ErrHeldElsewhere)
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET status=?, error='', updated_at=?, owner=?,
			provider=coalesce(nullif(?, ''), provider), model=coalesce(nullif(?, ''), model), approve=coalesce(nullif(?, ''), approve)
			WHERE id=?`, string(SessionOpen), j.stamp(), j.owner.token, by.Provider, by.Model, by.Approve, id); err != nil {
			return fmt.Errorf("journal: reopen session %s: %w", id, err)
		}
		return j.chainRow(ctx, tx, "sessions", id)
	})
}

// RunningElsewhere reports whether another live process (another Journal
// on the same file, found through its lease) has a turn running in the
// session: continuing that session here would interleave two histories.
// Turns of dead processes do not count (Open marks them failed).
func (j *Journal) RunningElsewhere(ctx context.Context, sessionID string) (bool, error) {
	rows, err := j.db.QueryContext(ctx, `SELECT owner FROM turns WHERE session_id=? AND status='running'`, sessionID)
	if err != nil {
		return false, fmt.Errorf("journal: running turns of session %s: %w", sessionID, err)
	}
	defer rows.Close()
	var owners []string
	for rows.Next() {
		var owner sql.NullString
		if err := rows.Scan(&owner); err != nil {
			return false, fmt.Errorf("journal: running turns of session %s: %w", sessionID, err)
		}
		owners = append(owners, owner.String)
	}
	if err := rows.Err(); err != nil {
		return false, fmt.Errorf("journal: running turns of session %s: %w", sessionID, err)
	}
	for _, o := range owners {
		if o != j.owner.token && j.ownerLive(nil, o) {
			return true, nil
		}
	}
	return false, nil
}

// transitionError explains why an UPDATE guarded by the current status
// touched no row: the row is missing (ErrNotFound) or in another state
// (ErrBadTransition).
func transitionError(ctx context.Context, tx *sql.Tx, what, table, id, to, from string) error {
	var cur string
	err := tx.QueryRowContext(ctx, `SELECT status FROM `+table+` WHERE id=?`, id).Scan(&cur)
	if err == sql.ErrNoRows {
		return fmt.Errorf("journal: %s %s: %w", what, id, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("journal: %s %s: %w", what, id, err)
	}
	return fmt.Errorf("journal: %s %s is %s; only a %s %s can become %s: %w", what, id, cur, from, what, to, ErrBadTransition)
}

const sessionCols = `id, coworker, coworker_version, identity, identity_parts, provider, model, approve,
	status, error, created_at, updated_at`

func scanSession(sc scanner) (Session, error) {
	var s Session
	var parts, created, updated sql.NullString
	err := sc.Scan(&s.ID, &s.Coworker, &s.CoworkerVersion, &s.Identity, &parts, &s.Provider, &s.Model,
		&s.Approve, &s.Status, &s.Error, &created, &updated)
	if parts.Valid {
		s.IdentityParts = json.RawMessage(parts.String)
	}
	s.CreatedAt, s.UpdatedAt = parseTime(created), parseTime(updated)
	return s, err
}

// Session returns the session with the given ID, or ErrNotFound.
func (j *Journal) Session(ctx context.Context, id string) (Session, error) {
	s, err := scanSession(j.db.QueryRowContext(ctx, `SELECT `+sessionCols+` FROM sessions WHERE id=?`, id))
	if err == sql.ErrNoRows {
		return Session{}, fmt.Errorf("journal: session %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Session{}, fmt.Errorf("journal: session %s: %w", id, err)
	}
	return s, nil
}

// scannerFunc adapts a func to scanner.
type scannerFunc func(dest ...any) error

func (f scannerFunc) Scan(dest ...any) error { return f(dest...) }
