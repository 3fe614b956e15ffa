package journal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Model usage (docs/journal.md#usage, docs/limits.md#budgets): one row of
// table model_usage (schema v17) per model response, with the tokens the
// provider reported for it (OpenAI's prompt and completion tokens,
// Anthropic's input and output tokens, streamed or not). Budgets are
// counted from these rows, so they hold across a parked run's restart;
// RunUsage and CoworkerDayUsage are what the budget checks and the
// Activity screen read. Chained like every journal row.

// Usage is the tokens of one model response.
type Usage struct {
	ID           int64     `json:"id"`
	SessionID    string    `json:"session_id"`
	TurnID       string    `json:"turn_id"`
	Coworker     string    `json:"coworker"`
	Model        string    `json:"model"`   // the provider's Describe()
	Attempt      int       `json:"attempt"` // the provider attempt of the turn (1, 2, ...)
	InputTokens  int       `json:"input_tokens"`
	OutputTokens int       `json:"output_tokens"`
	At           time.Time `json:"at"`
}

// UsageTotal adds up usage rows.
type UsageTotal struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	Responses    int `json:"responses"` // model responses counted
}

// Tokens is input plus output tokens: what a token budget counts.
func (u UsageTotal) Tokens() int { return u.InputTokens + u.OutputTokens }

// DayUsage is one coworker's usage on one day (UTC, "2006-01-02").
type DayUsage struct {
	Day      string `json:"day"`
	Coworker string `json:"coworker"`
	UsageTotal
}

// RecordUsage journals the tokens of one model response, durably; u.At
// is set to now. SessionID, TurnID and Coworker are required; a negative
// count is an error.
func (j *Journal) RecordUsage(ctx context.Context, u Usage) (Usage, error) {
	switch {
	case u.SessionID == "" || u.TurnID == "" || u.Coworker == "":
		return u, errors.New("journal: usage needs a session, a turn and a coworker")
	case u.InputTokens < 0 || u.OutputTokens < 0:
		return u, fmt.Errorf("journal: usage of %d input and %d output tokens: counts are never negative", u.InputTokens, u.OutputTokens)
	}
	u.At = j.now()
	err := j.write(context.WithoutCancel(ctx), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO model_usage(session_id, turn_id, coworker, model, attempt, input_tokens, output_tokens, at)
			VALUES (?,?,?,?,?,?,?,?)`, u.SessionID, u.TurnID, u.Coworker, u.Model, u.Attempt, u.InputTokens, u.OutputTokens, formatTime(u.At))
		if err != nil {
			return fmt.Errorf("journal: record the usage of session %s: %w", u.SessionID, err)
		}
		if u.ID, err = res.LastInsertId(); err != nil {
			return err
		}
		return j.chainRow(ctx, tx, "model_usage", u.ID)
	})
	return u, err
}

// RunUsage adds up the usage of one run (a session, parked and resumed
// or not).
func (j *Journal) RunUsage(ctx context.Context, sessionID string) (UsageTotal, error) {
	var u UsageTotal
	err := j.db.QueryRowContext(ctx, `SELECT coalesce(sum(input_tokens),0), coalesce(sum(output_tokens),0), count(*)
		FROM model_usage WHERE session_id=?`, sessionID).Scan(&u.InputTokens, &u.OutputTokens, &u.Responses)
	return u, j.Explain(err)
}

// CoworkerDayUsage adds up the usage of a coworker's runs on the day (UTC)
// of t.
func (j *Journal) CoworkerDayUsage(ctx context.Context, coworker string, t time.Time) (UsageTotal, error) {
	from := t.UTC().Truncate(24 * time.Hour)
	var u UsageTotal
	err := j.db.QueryRowContext(ctx, `SELECT coalesce(sum(input_tokens),0), coalesce(sum(output_tokens),0), count(*)
		FROM model_usage WHERE coworker=? AND at >= ? AND at < ?`, coworker, formatTime(from), formatTime(from.Add(24*time.Hour))).
		Scan(&u.InputTokens, &u.OutputTokens, &u.Responses)
	return u, j.Explain(err)
}

// UsageByDay returns the tokens per coworker per day (UTC) from the day
// of since on, newest day first, then by coworker.
func (j *Journal) UsageByDay(ctx context.Context, since time.Time) ([]DayUsage, error) {
	rows, err := j.db.QueryContext(ctx, `SELECT substr(at, 1, 10) AS day, coworker, sum(input_tokens), sum(output_tokens), count(*)
		FROM model_usage WHERE at >= ? GROUP BY day, coworker ORDER BY day DESC, coworker`, formatTime(since.UTC().Truncate(24*time.Hour)))
	if err != nil {
		return nil, j.Explain(err)
	}
	defer rows.Close()
	out := []DayUsage{}
	for rows.Next() {
		var d DayUsage
		if err := rows.Scan(&d.Day, &d.Coworker, &d.InputTokens, &d.OutputTokens, &d.Responses); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// migrate17 adds model_usage (docs/journal.md#usage), chained.
func migrate17(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`CREATE TABLE model_usage (
			id            INTEGER PRIMARY KEY,
			session_id    TEXT NOT NULL REFERENCES sessions(id),
			turn_id       TEXT NOT NULL,
			coworker      TEXT NOT NULL,
			model         TEXT NOT NULL,
			attempt       INTEGER NOT NULL,
			input_tokens  INTEGER NOT NULL CHECK (input_tokens >= 0),
			output_tokens INTEGER NOT NULL CHECK (output_tokens >= 0),
			at            TEXT NOT NULL
		)`,
		`CREATE INDEX model_usage_session ON model_usage(session_id)`,
		`CREATE INDEX model_usage_coworker_at ON model_usage(coworker, at)`,
	)
}
