package journal

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

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
