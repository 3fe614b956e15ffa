package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/inbox"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/schedule"
)

// Schedules is the Schedules screen (docs/app.md#schedules): a coworker,
// a prompt and when (harness/schedule, docs/schedules.md), kept in the
// journal. While the app runs (its window open, or hidden with "keep running"
// on, background.go) it runs the due schedules at start and then
// every scheduleTick, unattended: a call that needs approval parks in the
// inbox, and answering it in the Inbox continues the run. Catch-up is the
// harness's: a schedule that missed slots runs once, "caught up (missed
// N)". Two processes on one journal never run one slot twice (the
// journal's claim). It starts at login when the person chose so.
type Schedules struct {
	*env
	engine  *engine
	inboxes *inboxWatch
	chats   *Chats

	running sync.Mutex // one RunDue at a time
}

// scheduleTick is how often the app looks for due schedules.
var scheduleTick = 30 * time.Second

// ScheduleInput is a schedule as the screen edits it. When is "every D"
// (a Go duration of at least a minute: "every 2h", "every 30m"),
// "weekdays at HH:MM" (this computer's time zone) or a five-field cron
// expression ("0 9 * * 1-5").
type ScheduleInput struct {
	Coworker string `json:"coworker"`
	Prompt   string `json:"prompt"`
	When     string `json:"when"`
	CatchUp  bool   `json:"catch_up"`
}

// ScheduleInfo is one schedule as listed, with its last run.
type ScheduleInfo struct {
	journal.Schedule
	When    string               `json:"when"`               // as the screen writes it
	LastRun *journal.ScheduleRun `json:"last_run,omitempty"` // nil: it has not run yet
	Next    time.Time            `json:"next,omitzero"`      // its next slot; zero when its "when" does not work
}

// List returns the schedules, oldest first, each with its last run.
func (x *Schedules) List() ([]ScheduleInfo, error) {
	j, err := x.engine.openJournal()
	if err != nil {
		return nil, err
	}
	all, err := j.Schedules(x.base)
	if err != nil {
		return nil, err
	}
	out := make([]ScheduleInfo, 0, len(all))
	for _, s := range all {
		i := ScheduleInfo{Schedule: s, When: whenOf(s)}
		i.Next, _ = schedule.Next(s, x.now())
		if runs, err := j.ScheduleRuns(x.base, s.ID, 1); err == nil && len(runs) > 0 {
			i.LastRun = &runs[0]
		}
		out = append(out, i)
	}
	return out, nil
}

// Add checks and writes a schedule and returns it. Its first slot is the
// first after now.
func (x *Schedules) Add(in ScheduleInput) (ScheduleInfo, error) {
	j, err := x.engine.openJournal()
	if err != nil {
		return ScheduleInfo{}, err
	}
	s, err := parseSchedule(in)
	if err != nil {
		return ScheduleInfo{}, err
	}
	if !bundle.IDPattern.MatchString(s.Coworker) {
		return ScheduleInfo{}, fmt.Errorf("%q is not a coworker's id", s.Coworker)
	}
	if _, err := bundle.Load(filepath.Join(x.chats.settings.coworkersDir(), s.Coworker)); err != nil {
		return ScheduleInfo{}, fmt.Errorf("coworker %q cannot run: %w", s.Coworker, err)
	}
	s, err = j.AddSchedule(x.base, s)
	if err != nil {
		return ScheduleInfo{}, err
	}
	x.log.Info("schedule added", "id", s.ID, "coworker", s.Coworker, "when", whenOf(s))
	return ScheduleInfo{Schedule: s, When: whenOf(s)}, nil
}

// Edit replaces the schedule id by in: the old one is removed (its runs
// stay on record) and the new one, with a new ID, counts its slots from
// now.
func (x *Schedules) Edit(id string, in ScheduleInput) (ScheduleInfo, error) {
	if _, err := parseSchedule(in); err != nil {
		return ScheduleInfo{}, err
	}
	if err := x.Remove(id); err != nil {
		return ScheduleInfo{}, err
	}
	return x.Add(in)
}

// Remove removes the schedule id; its runs stay on record.
func (x *Schedules) Remove(id string) error {
	j, err := x.engine.openJournal()
	if err != nil {
		return err
	}
	if err := j.RemoveSchedule(x.base, id); err != nil {
		if errors.Is(err, journal.ErrNotFound) {
			return fmt.Errorf("there is no schedule %s (it was removed already)", id)
		}
		return err
	}
	x.log.Info("schedule removed", "id", id)
	return nil
}

var weekdaysAt = regexp.MustCompile(`^weekdays at ([01]?[0-9]|2[0-3]):([0-5][0-9])$`)

// parseSchedule reads a ScheduleInput as a journal.Schedule, with errors
// saying what to write instead.
func parseSchedule(in ScheduleInput) (journal.Schedule, error) {
	s := journal.Schedule{Coworker: strings.TrimSpace(in.Coworker), Prompt: strings.TrimSpace(in.Prompt), CatchUp: in.CatchUp}
	when := strings.TrimSpace(strings.ToLower(in.When))
	switch {
	case s.Coworker == "":
		return s, errors.New("choose the coworker the schedule runs")
	case s.Prompt == "":
		return s, errors.New("write the prompt the schedule sends")
	case strings.HasPrefix(when, "every "):
		d, err := time.ParseDuration(strings.TrimSpace(strings.TrimPrefix(when, "every ")))
		if err != nil || d < time.Minute {
			return s, fmt.Errorf("%q: write \"every\" and a duration of at least a minute, e.g. \"every 2h\" or \"every 30m\"", in.When)
		}
		s.Every = d
	case weekdaysAt.MatchString(when):
		m := weekdaysAt.FindStringSubmatch(when)
		s.Cron, s.TimeZone = fmt.Sprintf("%s %s * * 1-5", strings.TrimLeft(m[2], "0")+zeroIfEmpty(m[2]), strings.TrimLeft(m[1], "0")+zeroIfEmpty(m[1])), localZone()
	case when == "":
		return s, errors.New("say when: \"every 2h\", \"weekdays at 09:00\" or a cron expression such as \"0 9 * * 1-5\"")
	default:
		s.Cron, s.TimeZone = strings.TrimSpace(in.When), localZone()
	}
	s.CreatedAt = time.Now()
	if err := schedule.Check(s); err != nil {
		return s, err
	}
	return s, nil
}

func zeroIfEmpty(s string) string {
	if strings.TrimLeft(s, "0") == "" {
		return "0"
	}
	return ""
}

// localZone is this computer's IANA time zone name, or "" (UTC) when it
// cannot be told.
func localZone() string {
	if n := time.Local.String(); n != "Local" && n != "" {
		if _, err := time.LoadLocation(n); err == nil {
			return n
		}
	}
	return ""
}

// whenOf writes a schedule's when as the screen shows it.
func whenOf(s journal.Schedule) string {
	if s.Cron == "" {
		return "every " + schedule.Interval(s.Every)
	}
	if s.TimeZone != "" {
		return s.Cron + " (" + schedule.ZoneName(s.TimeZone) + ")"
	}
	return s.Cron + " (UTC)"
}

// runDue runs the due schedules now, unattended, one RunDue at a time;
// each run's events stream to its chat. It returns the runs it claimed.
func (x *Schedules) runDue(ctx context.Context, now time.Time) ([]schedule.Run, error) {
	x.running.Lock()
	defer x.running.Unlock()
	rt, so, err := x.chats.ready()
	if err != nil {
		return nil, err
	}
	b, err := x.inboxes.inbox()
	if err != nil {
		return nil, err
	}
	so.Prompter = &inbox.Parker{Inbox: b}
	so.Elicitor = &questionWait{inner: x.chats.elicitor, wait: x.chats.questionWait} // every scheduled run is unattended
	so.Budget = nil                                                                  // a budget parks (docs/limits.md#budgets)
	runs, err := schedule.RunDue(ctx, rt, so, now, func(e harness.Event) {
		x.emit.Emit(EventHarness, chatEvent(e))
		if chatEventChanges(e) {
			x.chats.chatChanged(e.SessionID)
		}
	})
	for _, r := range runs {
		x.log.Info("schedule ran", "schedule", r.Schedule.ID, "session", r.SessionID, "status", r.Status)
		if r.SessionID != "" {
			x.chats.chatChanged(r.SessionID)
		}
	}
	if len(runs) > 0 {
		x.emit.Emit(EventSchedulesChanged, len(runs))
	}
	return runs, err
}

// EventSchedulesChanged carries the number of runs that were made: the
// Schedules screen reads its list again.
const EventSchedulesChanged EventName = "schedules:changed"

// loop runs the due schedules at start and every scheduleTick until ctx
// ends.
func (x *Schedules) loop(ctx context.Context) {
	t := time.NewTicker(scheduleTick)
	defer t.Stop()
	for {
		if _, err := x.runDue(ctx, time.Now()); err != nil && ctx.Err() == nil {
			x.log.Warn("schedules", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
