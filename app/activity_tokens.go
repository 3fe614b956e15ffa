package app

import (
	"time"

	"github.com/openworker/desktop/harness/journal"
)

// Tokens in Activity (docs/app.md#tokens): each run's tokens next to it
// in the list, and each coworker's tokens today and over the last 7 days,
// read from the journal's model_usage (docs/journal.md#usage). Days are
// UTC, the days tokens_per_day counts (docs/limits.md#budgets).

// tokenDays is how many days CoworkerTokens adds up, today included.
const tokenDays = 7

// CoworkerTokens is Activity's tokens per coworker.
type CoworkerTokens struct {
	Today     string                  `json:"today"` // the UTC day, "2006-01-02"
	Days      int                     `json:"days"`  // how many days Coworkers[i].Days covers, today included
	Coworkers []journal.CoworkerUsage `json:"coworkers"`
}

// RunTokens returns the tokens of each run in sessionIDs (the sessions of
// a page of Activity, at most journal.MaxUsageRuns), by session id; a run
// with none journaled is absent.
func (a *Activity) RunTokens(sessionIDs []string) (map[string]journal.UsageTotal, error) {
	j, err := a.engine.openJournal()
	if err != nil {
		return nil, err
	}
	return j.RunsUsage(a.base, sessionIDs)
}

// CoworkerTokens returns each coworker's tokens today and over the last
// 7 days, most first; coworkers with none in those days are left out.
func (a *Activity) CoworkerTokens() (CoworkerTokens, error) {
	j, err := a.engine.openJournal()
	if err != nil {
		return CoworkerTokens{}, err
	}
	now := a.now()
	cs, err := j.UsageByCoworker(a.base, now, tokenDays)
	if err != nil {
		return CoworkerTokens{}, err
	}
	return CoworkerTokens{Today: now.UTC().Format(time.DateOnly), Days: tokenDays, Coworkers: cs}, nil
}
