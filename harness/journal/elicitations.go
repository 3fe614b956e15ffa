package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Elicitations (docs/journal.md#elicitations): one row of table
// elicitations (schema v12) per question an MCP server asked, chained like
// every journal row. A row says who asked (Namespace, ServerName), within
// which invocation (empty when no running call could be found), the
// field names and the outcome. It never holds the values the person typed,
// nor the server's message (either may carry secrets).

// Elicitation sources: who chose the action.
const (
	ElicitByPerson    = "person"      // the person answered
	ElicitByBound     = "bound"       // unanswered when the call's bound was near: declined
	ElicitByBypass    = "bypass"      // bypass mode: never asked, declined
	ElicitByRefused   = "refused"     // the schema is not a form (or URL mode): refused
	ElicitByLimit     = "limit"       // over the call's question limit: declined
	ElicitByStray     = "stray"       // no running call asked: declined
	ElicitByNoOne     = "no_elicitor" // no one to ask (no terminal, no host): declined
	ElicitByCancelled = "cancelled"   // the call or turn ended while asking: cancelled
	ElicitByCompleted = "completed"   // URL mode: the server said it was done before the person chose: cancelled
)

// Elicitation is one journaled question.
type Elicitation struct {
	ID           int64     `json:"id"`
	SessionID    string    `json:"session_id,omitempty"`
	TurnID       string    `json:"turn_id,omitempty"`
	InvocationID string    `json:"invocation_id,omitempty"`
	Namespace    string    `json:"namespace"`
	ServerName   string    `json:"server_name,omitempty"`
	Mode         string    `json:"mode"`           // "form" or "url"
	Host         string    `json:"host,omitempty"` // URL mode: the URL's host (punycode), never the URL itself
	Seq          int       `json:"seq"`            // the call's 1st, 2nd... question; 0 outside a call
	Fields       []string  `json:"fields"`
	Action       string    `json:"action"` // accept, decline or cancel
	Source       string    `json:"source"` // ElicitBy...
	Reason       string    `json:"reason,omitempty"`
	CreatedAt    time.Time `json:"created_at"`
}

// RecordElicitation appends e (ID and CreatedAt are set by the journal).
// An InvocationID must name a journaled invocation (ErrNotFound otherwise).
func (j *Journal) RecordElicitation(ctx context.Context, e Elicitation) error {
	switch e.Action {
	case "accept", "decline", "cancel":
	default:
		return fmt.Errorf("journal: elicitation action %q is not accept, decline or cancel", e.Action)
	}
	if e.Fields == nil {
		e.Fields = []string{}
	}
	fields, err := json.Marshal(e.Fields)
	if err != nil {
		return err
	}
	if e.Mode == "" {
		e.Mode = "form"
	}
	return j.write(ctx, func(tx *sql.Tx) error {
		if e.InvocationID != "" {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM invocations WHERE id=?`, e.InvocationID).Scan(&n); err != nil {
				return fmt.Errorf("journal: record an elicitation of %s: %w", e.InvocationID, err)
			}
			if n == 0 {
				return fmt.Errorf("journal: invocation %s: %w", e.InvocationID, ErrNotFound)
			}
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO elicitations(session_id, turn_id, invocation_id, namespace, server_name, mode, host, seq, fields, action, source, reason, created_at)
			VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`,
			nullString(e.SessionID), nullString(e.TurnID), nullString(e.InvocationID), e.Namespace, e.ServerName, e.Mode, e.Host, e.Seq,
			string(fields), e.Action, e.Source, e.Reason, j.stamp())
		if err != nil {
			return fmt.Errorf("journal: record an elicitation: %w", err)
		}
		row, err := res.LastInsertId()
		if err != nil {
			return fmt.Errorf("journal: record an elicitation: %w", err)
		}
		return j.chainRow(ctx, tx, "elicitations", row)
	})
}

// Elicitations returns the questions asked within invocation id, oldest
// first; id "" returns those asked outside any call.
func (j *Journal) Elicitations(ctx context.Context, id string) ([]Elicitation, error) {
	q := `SELECT id, coalesce(session_id,''), coalesce(turn_id,''), coalesce(invocation_id,''), namespace, server_name, mode, host, seq, fields, action, source, reason, created_at
		FROM elicitations WHERE `
	args := []any{}
	if id == "" {
		q += `invocation_id IS NULL ORDER BY id`
	} else {
		q += `invocation_id = ? ORDER BY id`
		args = append(args, id)
	}
	rows, err := j.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, j.Explain(err)
	}
	defer rows.Close()
	var out []Elicitation
	for rows.Next() {
		var e Elicitation
		var fields string
		var at sql.NullString
		if err := rows.Scan(&e.ID, &e.SessionID, &e.TurnID, &e.InvocationID, &e.Namespace, &e.ServerName, &e.Mode, &e.Host, &e.Seq, &fields, &e.Action, &e.Source, &e.Reason, &at); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(fields), &e.Fields); err != nil {
			return nil, errors.New("journal: elicitation fields are not a JSON array: " + err.Error())
		}
		e.CreatedAt = parseTime(at)
		out = append(out, e)
	}
	return out, rows.Err()
}

// migrate12 adds elicitations: the questions MCP servers asked
// (docs/journal.md#elicitations), chained, never holding the answers.
func migrate12(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`CREATE TABLE elicitations (
			id            INTEGER PRIMARY KEY,
			session_id    TEXT REFERENCES sessions(id),
			turn_id       TEXT,
			invocation_id TEXT REFERENCES invocations(id),
			namespace     TEXT NOT NULL,
			server_name   TEXT NOT NULL,
			mode          TEXT NOT NULL CHECK (mode IN ('form', 'url')),
			host          TEXT NOT NULL DEFAULT '',
			seq           INTEGER NOT NULL,
			fields        TEXT NOT NULL,
			action        TEXT NOT NULL CHECK (action IN ('accept', 'decline', 'cancel')),
			source        TEXT NOT NULL,
			reason        TEXT NOT NULL,
			created_at    TEXT NOT NULL
		)`,
		`CREATE INDEX elicitations_invocation ON elicitations(invocation_id, id)`,
	)
}
