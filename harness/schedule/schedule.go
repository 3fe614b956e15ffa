// Package schedule runs coworkers on a schedule (docs/schedules.md): each
// schedule is a coworker, a prompt and when — every D, or a cron
// expression (github.com/robfig/cron/v3's standard five-field parser, in
// the schedule's time zone). Due says which slot is due and how many were
// missed; RunDue claims each due slot in the journal (one process wins a
// slot) and runs it unattended: a call that needs approval parks in the
// inbox (docs/inbox.md#unattended). After missed slots a schedule runs
// once, not once per slot, marked "caught up (missed N)", unless its
// catch-up is off.
package schedule

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/journal"
	"github.com/robfig/cron/v3"
)

// parser reads standard cron expressions: minute, hour, day of month,
// month, day of week, and the descriptors (@daily, @hourly, ...).
var parser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// maxSlots bounds how many missed slots Due counts (a minutely schedule
// left for years).
const maxSlots = 100000

// Check reports whether s's "when" is valid: a cron expression the parser
// reads and a time zone the system knows, or an interval of at least a
// minute.
func Check(s journal.Schedule) error {
	_, err := next(s)
	return err
}

// next returns the function giving the slot after t.
func next(s journal.Schedule) (func(time.Time) time.Time, error) {
	if s.Cron == "" {
		if s.Every < time.Minute {
			return nil, fmt.Errorf("the interval %s is under a minute", s.Every)
		}
		// Slots are CreatedAt + k×Every.
		return func(t time.Time) time.Time {
			if t.Before(s.CreatedAt) {
				return s.CreatedAt.Add(s.Every)
			}
			k := t.Sub(s.CreatedAt)/s.Every + 1
			return s.CreatedAt.Add(k * s.Every)
		}, nil
	}
	loc := time.UTC
	if s.TimeZone != "" {
		var err error
		if loc, err = time.LoadLocation(s.TimeZone); err != nil {
			return nil, fmt.Errorf("time zone %q: %w", s.TimeZone, err)
		}
	}
	sch, err := parser.Parse(s.Cron)
	if err != nil {
		return nil, fmt.Errorf("cron expression %q: %w (five fields: minute hour day-of-month month day-of-week, e.g. \"0 9 * * 1-5\")", s.Cron, err)
	}
	return func(t time.Time) time.Time { return sch.Next(t.In(loc)) }, nil
}

// Next is the first slot of s after now, or why its "when" does not work.
func Next(s journal.Schedule, now time.Time) (time.Time, error) {
	nx, err := next(s)
	if err != nil {
		return time.Time{}, err
	}
	return nx(now), nil
}

// Due returns the newest slot of s in (after, now] — after is the last
// slot claimed, or s.CreatedAt — and how many slots fell in that range
// (0: nothing is due).
func Due(s journal.Schedule, after, now time.Time) (slot time.Time, n int, err error) {
	nx, err := next(s)
	if err != nil {
		return time.Time{}, 0, err
	}
	if after.IsZero() || after.Before(s.CreatedAt) {
		after = s.CreatedAt
	}
	for t := nx(after); !t.IsZero() && !t.After(now) && n < maxSlots; t = nx(t) {
		slot, n = t, n+1
	}
	return slot, n, nil
}

// StatusMissed is the status of slots a schedule with catch-up off passed
// over without a run (ScheduleRun.Missed says how many).
const StatusMissed = "missed"

// Run is one due slot that RunDue claimed, or left due (NotRun).
type Run struct {
	Schedule journal.Schedule
	journal.ScheduleRun
	// NotRun says why a due slot was neither claimed nor run — its
	// coworker cannot be loaded — so it stays due for the next run-due
	// (ScheduleRun.ID is 0); nil for a claimed slot.
	NotRun error `json:"-"`
}

// Failed reports whether the slot failed: not run (NotRun), or its run
// failed.
func (r Run) Failed() bool {
	return r.NotRun != nil || strings.HasPrefix(r.Status, "failed")
}

// Waiting reports whether the slot waits on the person: its run parked,
// or it was held because the run before it had.
func (r Run) Waiting() bool {
	return r.Status == StatusWaiting || strings.HasPrefix(r.Status, StatusHeld)
}

// StatusWaiting is the status of a run that parked (an inbox item waits
// on the person); StatusHeld starts the status of slots held back because
// the schedule's previous run still waits ("held: the last run is waiting
// on you — inbox item inb_…").
const (
	StatusWaiting = "waiting on you"
	StatusHeld    = "held: "
)

// RunDue claims and runs, one after the other, the due slot of each
// schedule of rt's journal at now, unattended: so's Prompter must not
// wait on a person (inbox.Parker). A slot another process claimed first is
// left to it. A schedule with catch-up off that missed slots records them
// "missed" (with how many) and runs at its next slot. A schedule whose
// previous run still waits on the person (an open inbox item) records its
// due slots "held" instead of starting another run, so items do not pile
// up; its next run counts the held slots as missed. A schedule whose
// coworker cannot be loaded (from so.Coworkers, else rt.Coworkers) is not
// claimed: its slot stays due and the Run says why (NotRun). The
// coworkers folder itself missing is RunDue's error, before any slot is
// claimed. It returns the runs it claimed, with their status; a run's own
// failure is its status, not RunDue's error.
func RunDue(ctx context.Context, rt *harness.Runtime, so harness.SessionOptions, now time.Time, sink harness.Sink) ([]Run, error) {
	j := rt.Journal()
	all, err := j.Schedules(ctx)
	if err != nil {
		return nil, err
	}
	var cw *coworkers
	var out []Run
	for _, s := range all {
		last, err := j.LastSlot(ctx, s.ID)
		if err != nil {
			return out, err
		}
		slot, n, err := Due(s, last, now)
		if err != nil {
			out = append(out, Run{Schedule: s, ScheduleRun: journal.ScheduleRun{ScheduleID: s.ID, Status: "failed: " + err.Error()}})
			continue
		}
		if n == 0 {
			continue
		}
		if cw == nil {
			if cw, err = loadCoworkers(so.Coworkers, rt.Coworkers()); err != nil {
				return out, err
			}
		}
		if err := cw.problem(s.Coworker); err != nil {
			out = append(out, Run{Schedule: s, ScheduleRun: journal.ScheduleRun{ScheduleID: s.ID, Slot: slot, Missed: n, Status: "not run (the slot stays due): " + err.Error()}, NotRun: err})
			continue
		}
		r, ok, err := claimAndRun(ctx, rt, so, s, slot, n, sink)
		if err != nil {
			return out, err
		}
		if ok {
			out = append(out, r)
		}
	}
	return out, nil
}

// claimAndRun claims slot of s (n slots due) and runs it, or records it
// missed or held; false when another process claimed it first.
func claimAndRun(ctx context.Context, rt *harness.Runtime, so harness.SessionOptions, s journal.Schedule, slot time.Time, n int, sink harness.Sink) (Run, bool, error) {
	j := rt.Journal()
	status := "claimed"
	held, err := heldBy(ctx, j, s.ID)
	if err != nil {
		return Run{}, false, err
	}
	switch {
	case held != "":
		status = StatusHeld + held
	case n > 1 && !s.CatchUp:
		status = StatusMissed
	}
	missed := n
	if status == "claimed" && s.CatchUp {
		h, err := heldSlots(ctx, j, s.ID)
		if err != nil {
			return Run{}, false, err
		}
		missed += h
	}
	r, claimed, err := j.ClaimSlot(ctx, s.ID, slot, missed, status)
	if err != nil || !claimed || status != "claimed" {
		return Run{s, r, nil}, claimed, err // another process has it, or nothing runs
	}
	r.SessionID, r.Status = run(ctx, rt, so, s, missed, sink)
	if err := j.SetScheduleRun(ctx, r.ID, r.SessionID, r.Status); err != nil {
		return Run{}, false, err
	}
	return Run{s, r, nil}, true, nil
}

// heldBy says what the previous run of schedule id waits on — "the last
// run is waiting on you — inbox item inb_…" — or "" when it does not
// wait (docs/schedules.md#held).
func heldBy(ctx context.Context, j *journal.Journal, id string) (string, error) {
	sess, err := j.LastScheduledSession(ctx, id)
	if err != nil || sess == "" {
		return "", err
	}
	items, err := j.Inbox(ctx, journal.InboxFilter{SessionID: sess})
	if err != nil || len(items) == 0 {
		return "", err
	}
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = it.ID
	}
	word := "item"
	if len(ids) > 1 {
		word = "items"
	}
	return fmt.Sprintf("the last run is waiting on you — inbox %s %s", word, strings.Join(ids, ", ")), nil
}

// heldSlots is how many slots were held since the schedule's last run
// (the held records newest first, up to the first that is not).
func heldSlots(ctx context.Context, j *journal.Journal, id string) (int, error) {
	rs, err := j.ScheduleRuns(ctx, id, 100)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, r := range rs {
		if !strings.HasPrefix(r.Status, StatusHeld) {
			break
		}
		n += r.Missed
	}
	return n, nil
}

// run runs one slot of s and returns its session and status.
func run(ctx context.Context, rt *harness.Runtime, so harness.SessionOptions, s journal.Schedule, missed int, sink harness.Sink) (string, string) {
	sess, err := rt.NewSession(ctx, s.Coworker, so)
	if err != nil {
		return "", "failed: " + err.Error()
	}
	defer sess.Close()
	res, err := sess.Send(ctx, s.Prompt, sink)
	var merr *harness.ModelError
	switch {
	case errors.As(err, &merr):
		return sess.ID(), "failed: " + merr.Error()
	case err != nil:
		return sess.ID(), "failed: " + err.Error()
	case res.Code == harness.CodeParked:
		return sess.ID(), StatusWaiting
	case res.Status != harness.TurnCompleted:
		return sess.ID(), fmt.Sprintf("failed: the turn %s: %s", res.Status, res.Reason)
	case missed > 1:
		return sess.ID(), fmt.Sprintf("caught up (missed %d)", missed)
	}
	return sess.ID(), "succeeded"
}
