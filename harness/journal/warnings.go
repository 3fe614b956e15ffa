package journal

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Warning is a journaled warning, for example a model_context fact that
// was dropped because it did not fit, or a tool left out of a
// whole-provider selection (code "tool_left_out", Tool its qualified
// name; docs/journal.md#warnings).
type Warning struct {
	ID        int64  `json:"id"`
	SessionID string `json:"session_id"`
	TurnID    string `json:"turn_id,omitempty"`
	Code      string `json:"code"`
	// Tool is the qualified name of the tool the warning is about, or ""
	// (and always "" in rows from before schema version 9).
	Tool      string    `json:"tool,omitempty"`
	Message   string    `json:"message"`
	CreatedAt time.Time `json:"created_at"`
}

// Warn journals a warning in a session (turnID may be empty).
func (j *Journal) Warn(ctx context.Context, sessionID, turnID, code, msg string) error {
	return j.AddWarning(ctx, Warning{SessionID: sessionID, TurnID: turnID, Code: code, Message: msg})
}

// AddWarning journals w in its session, in one chained commit. SessionID
// and Code are required; TurnID and Tool may be empty; ID and CreatedAt
// are set by the journal (the values in w are ignored).
func (j *Journal) AddWarning(ctx context.Context, w Warning) error {
	if w.SessionID == "" || w.Code == "" {
		return fmt.Errorf("journal: Warn: session ID %q and code %q must both be set", w.SessionID, w.Code)
	}
	return j.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO warnings(session_id, turn_id, code, message, created_at, tool) VALUES (?,?,?,?,?,?)`,
			w.SessionID, nullString(w.TurnID), w.Code, w.Message, j.stamp(), nullString(w.Tool))
		if err != nil {
			return fmt.Errorf("journal: warn in session %s: %w", w.SessionID, err)
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
	var turn, created, tool sql.NullString
	err := sc.Scan(&w.ID, &w.SessionID, &turn, &w.Code, &w.Message, &created, &tool)
	w.TurnID, w.CreatedAt, w.Tool = turn.String, parseTime(created), tool.String
	return w, err
}

// Warnings returns the warnings of a session in the order recorded.
func (j *Journal) Warnings(ctx context.Context, sessionID string) ([]Warning, error) {
	return queryAll(ctx, j.db, "warnings of "+sessionID, scanWarning,
		`SELECT id, session_id, turn_id, code, message, created_at, tool FROM warnings WHERE session_id=? ORDER BY id`, sessionID)
}
