package journal

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// What the Activity screen shows of model usage (docs/journal.md#usage,
// docs/app.md#tokens): the tokens of each run listed, and each
// coworker's tokens today and over the last days. Days are UTC, as
// tokens_per_day counts them (docs/limits.md#budgets).

// MaxUsageRuns bounds the runs of one RunsUsage call (a page of Activity
// holds 100).
const MaxUsageRuns = 500

// RunsUsage adds up the usage of each run in ids (sessions; at most
// MaxUsageRuns), by session id. A run with no journaled usage is absent.
func (j *Journal) RunsUsage(ctx context.Context, ids []string) (map[string]UsageTotal, error) {
	out := map[string]UsageTotal{}
	if len(ids) == 0 {
		return out, nil
	}
	if len(ids) > MaxUsageRuns {
		return nil, fmt.Errorf("journal: the usage of %d runs asked at once; the limit is %d", len(ids), MaxUsageRuns)
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := j.db.QueryContext(ctx, `SELECT session_id, sum(input_tokens), sum(output_tokens), count(*)
		FROM model_usage INDEXED BY model_usage_session WHERE session_id IN (?`+strings.Repeat(",?", len(ids)-1)+`) GROUP BY session_id`, args...)
	if err != nil {
		return nil, j.Explain(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var u UsageTotal
		if err := rows.Scan(&id, &u.InputTokens, &u.OutputTokens, &u.Responses); err != nil {
			return nil, err
		}
		out[id] = u
	}
	return out, rows.Err()
}

// CoworkerUsage is one coworker's tokens on the day of a time and over
// the days up to it (UsageByCoworker).
type CoworkerUsage struct {
	Coworker string     `json:"coworker"`
	Today    UsageTotal `json:"today"`
	Days     UsageTotal `json:"days"` // the last N days, today included
}

// UsageByCoworker returns, for each coworker with usage in the days (UTC)
// days-1 before the day of now up to the end of that day, its usage on
// the day of now and over all those days; most tokens over the days
// first, then by coworker. days is 1 to 366.
func (j *Journal) UsageByCoworker(ctx context.Context, now time.Time, days int) ([]CoworkerUsage, error) {
	if days < 1 || days > 366 {
		return nil, fmt.Errorf("journal: usage over %d days; want 1 to 366", days)
	}
	today := now.UTC().Truncate(24 * time.Hour)
	from, end := today.AddDate(0, 0, -(days-1)), today.AddDate(0, 0, 1)
	rows, err := j.db.QueryContext(ctx, `SELECT coworker,
			sum(CASE WHEN at >= ?1 THEN input_tokens ELSE 0 END), sum(CASE WHEN at >= ?1 THEN output_tokens ELSE 0 END), sum(at >= ?1),
			sum(input_tokens), sum(output_tokens), count(*)
		FROM model_usage WHERE at >= ?2 AND at < ?3 GROUP BY coworker
		ORDER BY sum(input_tokens) + sum(output_tokens) DESC, coworker`,
		formatTime(today), formatTime(from), formatTime(end))
	if err != nil {
		return nil, j.Explain(err)
	}
	defer rows.Close()
	out := []CoworkerUsage{}
	for rows.Next() {
		var c CoworkerUsage
		if err := rows.Scan(&c.Coworker, &c.Today.InputTokens, &c.Today.OutputTokens, &c.Today.Responses,
			&c.Days.InputTokens, &c.Days.OutputTokens, &c.Days.Responses); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
