package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Turn is one user prompt and the model attempts and tool calls that answer
// it. Status is "running", then one of "completed", "stopped", "failed",
// "cancelled".
type Turn struct {
	ID         string     `json:"id"`
	SessionID  string     `json:"session_id"`
	Seq        int        `json:"seq"` // 1, 2, ... within the session
	Prompt     string     `json:"prompt"`
	Status     TurnStatus `json:"status"`
	Reason     string     `json:"reason"`   // why it stopped or failed
	Attempts   int        `json:"attempts"` // model requests made
	Calls      int        `json:"calls"`    // tool calls made
	StartedAt  time.Time  `json:"started_at"`
	FinishedAt time.Time  `json:"finished_at,omitzero"`
	// Model and Approve are the model (provider description) and approval
	// mode this turn ran with: a continued session may use others than it
	// started with. "" for turns from before schema v7.
	Model   string `json:"model,omitempty"`
	Approve string `json:"approve,omitempty"`
}

// StartTurn records a turn with status "running" in an open session. A zero
// Seq is given the next number in the session; StartedAt defaults to now.
// A session that is not open returns ErrBadTransition. The turn is owned by
// this Journal: if its process stops before FinishTurn, the next Open marks
// it failed with RecoveredTurnReason.
func (j *Journal) StartTurn(ctx context.Context, t Turn) error {
	if t.ID == "" || t.SessionID == "" {
		return fmt.Errorf("journal: StartTurn: turn ID %q and session ID %q must both be set", t.ID, t.SessionID)
	}
	started := t.StartedAt
	if started.IsZero() {
		started = j.now()
	}
	return j.write(ctx, func(tx *sql.Tx) error {
		var status SessionStatus
		err := tx.QueryRowContext(ctx, `SELECT status FROM sessions WHERE id=?`, t.SessionID).Scan(&status)
		if err == sql.ErrNoRows {
			return fmt.Errorf("journal: start turn %s: session %s: %w", t.ID, t.SessionID, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("journal: start turn %s: %w", t.ID, err)
		}
		if status != SessionOpen {
			return fmt.Errorf("journal: start turn %s: session %s is %s; turns need an open session: %w",
				t.ID, t.SessionID, status, ErrBadTransition)
		}
		seq := t.Seq
		if seq == 0 {
			if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) + 1 FROM turns WHERE session_id=?`,
				t.SessionID).Scan(&seq); err != nil {
				return fmt.Errorf("journal: start turn %s: %w", t.ID, err)
			}
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO turns(id, session_id, seq, prompt, status, reason, attempts, calls,
			started_at, finished_at, owner, model, approve) VALUES (?,?,?,?,?,?,?,?,?,NULL,?,?,?)`,
			t.ID, t.SessionID, seq, t.Prompt, string(TurnRunning), "", 0, 0, formatTime(started), j.owner.token,
			nullString(t.Model), nullString(t.Approve))
		if err != nil {
			return fmt.Errorf("journal: start turn %s: %w", t.ID, err)
		}
		return j.chainRow(ctx, tx, "turns", t.ID)
	})
}

// FinishTurn moves a running turn to status completed, stopped, failed or
// cancelled, with the reason and the number of model attempts and tool
// calls. A turn that is not running returns ErrBadTransition.
// Cancelling ctx does not stop the commit.
func (j *Journal) FinishTurn(ctx context.Context, id string, status TurnStatus, reason string, attempts, calls int) error {
	ctx = context.WithoutCancel(ctx)
	switch status {
	case TurnCompleted, TurnStopped, TurnFailed, TurnCancelled:
	default:
		return fmt.Errorf("journal: FinishTurn %s: status %q; want completed, stopped, failed or cancelled", id, status)
	}
	return j.writeFinal(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE turns SET status=?, reason=?, attempts=?, calls=?, finished_at=?
			WHERE id=? AND status='running'`, string(status), reason, attempts, calls, j.stamp(), id)
		if err != nil {
			return fmt.Errorf("journal: finish turn %s: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return transitionError(ctx, tx, "turn", "turns", id, string(status), string(TurnRunning))
		}
		return j.chainRow(ctx, tx, "turns", id)
	})
}

const turnCols = `id, session_id, seq, prompt, status, reason, attempts, calls, started_at, finished_at, model, approve`

func scanTurn(sc scanner) (Turn, error) {
	var t Turn
	var started, finished, model, approve sql.NullString
	err := sc.Scan(&t.ID, &t.SessionID, &t.Seq, &t.Prompt, &t.Status, &t.Reason, &t.Attempts, &t.Calls, &started, &finished, &model, &approve)
	t.StartedAt, t.FinishedAt = parseTime(started), parseTime(finished)
	t.Model, t.Approve = model.String, approve.String
	return t, err
}

// Turns returns the turns of a session in order.
func (j *Journal) Turns(ctx context.Context, sessionID string) ([]Turn, error) {
	return queryAll(ctx, j.db, "turns of "+sessionID, scanTurn,
		`SELECT `+turnCols+` FROM turns WHERE session_id=? ORDER BY seq`, sessionID)
}

// Message is one conversation message as sent to or received from the
// model. Content is the caller's JSON (text, tool calls, tool results,
// image digests — never image bytes), at most MaxJSONBytes.
type Message struct {
	ID        int64           `json:"id"` // assigned by AppendMessage, increasing
	SessionID string          `json:"session_id"`
	TurnID    string          `json:"turn_id,omitempty"` // "" for messages outside a turn
	Role      string          `json:"role"`              // "system", "user", "assistant", "tool"
	Content   json.RawMessage `json:"content"`
	CreatedAt time.Time       `json:"created_at"`
}

// AppendMessage records a message and returns its ID. Role and Content are
// required; CreatedAt defaults to now. The words of a user or assistant
// message's "text" join the chat search index in the same transaction
// (Search).
func (j *Journal) AppendMessage(ctx context.Context, m Message) (int64, error) {
	if m.SessionID == "" || m.Role == "" {
		return 0, fmt.Errorf("journal: AppendMessage: session ID %q and role %q must both be set", m.SessionID, m.Role)
	}
	if len(m.Content) == 0 {
		return 0, errors.New("journal: AppendMessage: empty content")
	}
	if err := checkJSON("message content", m.Content); err != nil {
		return 0, err
	}
	created := m.CreatedAt
	if created.IsZero() {
		created = j.now()
	}
	var id int64
	err := j.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO messages(session_id, turn_id, role, content, created_at) VALUES (?,?,?,?,?)`,
			m.SessionID, nullString(m.TurnID), m.Role, string(m.Content), formatTime(created))
		if err != nil {
			return fmt.Errorf("journal: append message to session %s: %w", m.SessionID, err)
		}
		if id, err = res.LastInsertId(); err != nil {
			return fmt.Errorf("journal: append message: %w", err)
		}
		if err := j.chainRow(ctx, tx, "messages", id); err != nil {
			return err
		}
		if text := messageText(m.Role, m.Content); text != "" {
			return indexText(ctx, tx, m.SessionID, text) // chat search, search.go
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return id, nil
}

func scanMessage(sc scanner) (Message, error) {
	var m Message
	var turn, created sql.NullString
	var content string
	err := sc.Scan(&m.ID, &m.SessionID, &turn, &m.Role, &content, &created)
	m.TurnID, m.Content, m.CreatedAt = turn.String, json.RawMessage(content), parseTime(created)
	return m, err
}

// Messages returns the messages of a session in the order they were
// appended.
func (j *Journal) Messages(ctx context.Context, sessionID string) ([]Message, error) {
	return queryAll(ctx, j.db, "messages of "+sessionID, scanMessage,
		`SELECT id, session_id, turn_id, role, content, created_at FROM messages WHERE session_id=? ORDER BY id`, sessionID)
}
