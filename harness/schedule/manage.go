package schedule

import (
	"context"
	"time"

	"github.com/openworker/desktop/harness/journal"
)

// Managing schedules (docs/schedules.md#api): what the app and the CLI
// call to list, add, edit and remove schedules; RunDue runs the due ones.

// Listed is a schedule as a list shows it: when it runs in words, its
// next slot and its newest runs.
type Listed struct {
	journal.Schedule
	When string      `json:"when"`            // Describe
	Next time.Time   `json:"next,omitzero"`   // the next slot after now (zero: the "when" is broken)
	Runs []ListedRun `json:"runs"`            // newest first
	Err  string      `json:"error,omitempty"` // why the "when" does not work, if it does not
}

// ListedRun is a claimed slot with where its run is now
// (journal.ScheduledRun: a parked run answered and resumed since reads
// succeeded, or caught up).
type ListedRun struct {
	journal.ScheduleRun
	Run journal.Run `json:"run"`
}

// List returns the schedules of j in use, oldest first, each with its
// newest runs (at most runs of them) and its next slot after now.
func List(ctx context.Context, j *journal.Journal, runs int, now time.Time) ([]Listed, error) {
	all, err := j.Schedules(ctx)
	if err != nil {
		return nil, err
	}
	out := []Listed{}
	for _, s := range all {
		rs, err := j.ScheduleRuns(ctx, s.ID, runs)
		if err != nil {
			return nil, err
		}
		l := Listed{Schedule: s, When: Describe(s), Runs: []ListedRun{}}
		for _, r := range rs {
			run, err := j.ScheduledRun(ctx, r)
			if err != nil {
				return nil, err
			}
			l.Runs = append(l.Runs, ListedRun{r, run})
		}
		if nx, err := Next(s, now); err != nil {
			l.Err = err.Error()
		} else {
			l.Next = nx
		}
		out = append(out, l)
	}
	return out, nil
}

// Add checks s (Check) and writes it; it returns s with its ID and
// CreatedAt.
func Add(ctx context.Context, j *journal.Journal, s journal.Schedule) (journal.Schedule, error) {
	if err := Check(s); err != nil {
		return s, err
	}
	return j.AddSchedule(ctx, s)
}

// Edit checks s (Check) and replaces the coworker, prompt, when and
// catch-up of the schedule s.ID; journal.ErrNotFound if it is not in use.
func Edit(ctx context.Context, j *journal.Journal, s journal.Schedule) error {
	if err := Check(s); err != nil {
		return err
	}
	return j.UpdateSchedule(ctx, s)
}

// Remove takes the schedule id off the list (its runs stay in the
// journal); journal.ErrNotFound if it is not in use.
func Remove(ctx context.Context, j *journal.Journal, id string) error {
	return j.RemoveSchedule(ctx, id)
}
