package cli

import (
	"context"
	"errors"
	"fmt"
	"github.com/openworker/desktop/internal/termsafe"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/schedule"
	"github.com/openworker/desktop/harness/tool"
	"github.com/spf13/cobra"
)

// scheduleCommand is "openworker schedule" with add, list, edit, remove
// and run-due (docs/schedules.md).
func (c *config) scheduleCommand(reg *tool.Registry) *cobra.Command {
	f := &journalFlags{c: c}
	cmd := &cobra.Command{
		Use:   "schedule",
		Short: "run coworkers on a schedule, unattended (add, list, edit, remove, run-due)",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErr("unknown schedule command %q; use add, list, edit, remove or run-due", args[0])
			}
			return usageErr("schedule needs a command: add, list, edit, remove or run-due")
		},
	}
	cmd.PersistentFlags().StringVar(&f.db, "db", "", "journal file (default: the app's journal)")
	cmd.AddCommand(c.scheduleAddCommand(f), c.scheduleListCommand(f), c.scheduleEditCommand(f), c.scheduleRemoveCommand(f), c.runDueCommand(reg, f))
	return cmd
}

// scheduleAddCommand is "openworker schedule add".
func (c *config) scheduleAddCommand(f *journalFlags) *cobra.Command {
	var s journal.Schedule
	var noCatchUp bool
	var when, coworkers string
	add := &cobra.Command{
		Use:   "add --coworker ID (--when WORDS | --every D | --cron EXPR) [--tz ZONE] --prompt TEXT [--no-catch-up] [--coworkers DIR]",
		Short: "add a schedule",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s.CatchUp = !noCatchUp
			if when != "" {
				if s.Every != 0 || s.Cron != "" {
					return usageErr("schedule add takes one of --when, --every and --cron")
				}
				if err := schedule.ParseWhen(when, &s); err != nil {
					return usageErr("--when %v", err)
				}
			}
			if err := checkTZ(s, cmd.Flags().Changed("tz"), when); err != nil {
				return err
			}
			if err := c.checkCoworker(coworkers, s.Coworker); err != nil {
				return err
			}
			return c.scheduleAdd(cmd.Context(), f, s)
		},
	}
	add.Flags().StringVar(&when, "when", "", `when in words: "weekdays at 09:00", "daily at 07:30", "mondays at 18:00", "every 2h" (times in --tz, default your time zone)`)
	add.Flags().StringVar(&s.Coworker, "coworker", "", "the coworker to run")
	add.Flags().StringVar(&s.Prompt, "prompt", "", "the prompt of each run")
	add.Flags().DurationVar(&s.Every, "every", 0, "run every D (at least 1m), counted from when the schedule was added")
	add.Flags().StringVar(&s.Cron, "cron", "", "run at the times of a five-field cron expression (minute hour day-of-month month day-of-week)")
	add.Flags().StringVar(&s.TimeZone, "tz", "", "the time zone of --cron (default UTC) or --when (default yours), e.g. Europe/Berlin; not with --every")
	add.Flags().BoolVar(&noCatchUp, "no-catch-up", false, "after missed slots, wait for the next one instead of running once at once")
	add.Flags().StringVar(&coworkers, "coworkers", "", "the coworker bundles folder: --coworker must name one of its coworkers")
	return add
}

// scheduleAdd checks s and adds it to the --db journal, made if need be.
func (c *config) scheduleAdd(ctx context.Context, f *journalFlags, s journal.Schedule) error {
	if f.db == "" {
		f.db = harness.DefaultDBPath()
	}
	j, err := c.openJournal(f.db, true) // the first schedule may come before the first run
	if err != nil {
		return err
	}
	defer j.Close()
	if s.Coworker == "" || s.Prompt == "" || (s.Every == 0) == (s.Cron == "") {
		return usageErr("schedule add needs --coworker ID, --prompt TEXT and one of --when WORDS (e.g. \"weekdays at 09:00\"), --every D (e.g. 2h) or --cron EXPR (e.g. \"0 9 * * 1-5\")")
	}
	if err := schedule.Check(s); err != nil {
		return usageErr("%v", err)
	}
	got, err := schedule.Add(ctx, j, s)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "added %s (%s)\n", got.ID, schedule.Describe(got))
	return nil
}

// scheduleListCommand is "openworker schedule list".
func (c *config) scheduleListCommand(f *journalFlags) *cobra.Command {
	list := &cobra.Command{
		Use:   "list [--json]",
		Short: "list the schedules with their last run",
		Args:  cobra.NoArgs,
		RunE: f.withJournal(func(cmd *cobra.Command, _ []string, j *journal.Journal) error {
			rows, err := schedule.List(cmd.Context(), j, 10, time.Now())
			if err != nil {
				return err
			}
			if f.asJSON {
				return writeJSON(c.stdout, rows)
			}
			if len(rows) == 0 {
				fmt.Fprintf(c.stderr, "no schedules in %s\n", j.Path())
				return nil
			}
			return printSchedules(c.stdout, rows)
		}),
	}
	list.Flags().BoolVar(&f.asJSON, "json", false, "print JSON")
	return list
}

// printSchedules writes rows as a table: when each runs, its next slot
// and its last run, in the local time zone, named (NEXT says "09:00
// CET", not a bare UTC time).
func printSchedules(w io.Writer, rows []schedule.Listed) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SCHEDULE\tCOWORKER\tWHEN\tNEXT\tLAST RUN\tPROMPT")
	for _, r := range rows {
		last, nx := "never", "-"
		if len(r.Runs) > 0 {
			last = localTime(r.Runs[0].Slot) + " " + r.Runs[0].Run.String()
		}
		if !r.Next.IsZero() {
			nx = localTime(r.Next)
		}
		if !r.CatchUp {
			nx += " (no catch-up)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Coworker, r.When, nx, oneLine(last, 80), oneLine(r.Prompt, 50))
	}
	return tw.Flush()
}

// localTime is t in the local time zone with the zone's abbreviation:
// "2026-12-07 09:00:00 CET". The local zone is the one schedule add takes
// as the person's (schedule.LocalZone: $TZ first), which Go's time.Local
// is too except on Windows, where Go ignores $TZ.
func localTime(t time.Time) string {
	loc := time.Local
	if z := schedule.LocalZone(); z != "Local" {
		if l, err := time.LoadLocation(z); err == nil {
			loc = l
		}
	}
	return t.In(loc).Format("2006-01-02 15:04:05 MST")
}

// runStatus is a schedule run's status as the terminal shows it
// (docs/journal.md#run-status): "missed (missed N)" says how many slots.
func runStatus(r journal.ScheduleRun) string {
	if r.Status == schedule.StatusMissed {
		return journal.Run{State: journal.RunMissed, Missed: r.Missed}.String()
	}
	return r.Status
}

// scheduleEditCommand is "openworker schedule edit": the flags given
// replace those parts of the schedule.
func (c *config) scheduleEditCommand(f *journalFlags) *cobra.Command {
	var e journal.Schedule
	var when, coworkers string
	var catchUp bool
	edit := &cobra.Command{
		Use:   "edit ID [--coworker ID] [--prompt TEXT] [--when WORDS | --every D | --cron EXPR] [--tz ZONE] [--catch-up=false] [--coworkers DIR]",
		Short: "change a schedule (its past runs stay)",
		Args:  cobra.ExactArgs(1),
		RunE: f.withJournal(func(cmd *cobra.Command, args []string, j *journal.Journal) error {
			s, err := j.ScheduleByID(cmd.Context(), args[0])
			if errors.Is(err, journal.ErrNotFound) {
				return usageErr("no schedule %q in %s (openworker schedule list shows them)", args[0], j.Path())
			} else if err != nil {
				return err
			}
			fl := cmd.Flags()
			if err := editSchedule(&s, e, when, fl.Changed("tz"), fl.Changed("catch-up"), catchUp); err != nil {
				return err
			}
			if err := checkTZ(s, fl.Changed("tz"), when); err != nil {
				return err
			}
			if err := c.checkCoworker(coworkers, e.Coworker); err != nil {
				return err
			}
			if err := schedule.Edit(cmd.Context(), j, s); err != nil {
				return usageErr("%v", err)
			}
			fmt.Fprintf(c.stdout, "edited %s (%s)\n", s.ID, schedule.Describe(s))
			return nil
		}),
	}
	edit.Flags().StringVar(&e.Coworker, "coworker", "", "the coworker to run")
	edit.Flags().StringVar(&e.Prompt, "prompt", "", "the prompt of each run")
	edit.Flags().StringVar(&when, "when", "", `when in words: "weekdays at 09:00", "every 2h", ...`)
	edit.Flags().DurationVar(&e.Every, "every", 0, "run every D (at least 1m)")
	edit.Flags().StringVar(&e.Cron, "cron", "", "run at the times of a five-field cron expression")
	edit.Flags().StringVar(&e.TimeZone, "tz", "", "the time zone of the times (not with --every)")
	edit.Flags().BoolVar(&catchUp, "catch-up", true, "after missed slots, run once (false: mark them missed and wait)")
	edit.Flags().StringVar(&coworkers, "coworkers", "", "the coworker bundles folder: --coworker must name one of its coworkers")
	return edit
}

// editSchedule applies the flags of schedule edit to s.
func editSchedule(s *journal.Schedule, e journal.Schedule, when string, tz, catch, catchUp bool) error {
	if e.Coworker != "" {
		s.Coworker = e.Coworker
	}
	if e.Prompt != "" {
		s.Prompt = e.Prompt
	}
	if tz {
		s.TimeZone = e.TimeZone
	}
	if catch {
		s.CatchUp = catchUp
	}
	n := 0
	for _, set := range []bool{when != "", e.Every != 0, e.Cron != ""} {
		if set {
			n++
		}
	}
	switch {
	case n > 1:
		return usageErr("schedule edit takes one of --when, --every and --cron")
	case when != "":
		if err := schedule.ParseWhen(when, s); err != nil {
			return usageErr("--when %v", err)
		}
	case e.Every != 0:
		s.Every, s.Cron = e.Every, ""
	case e.Cron != "":
		s.Every, s.Cron = 0, e.Cron
	}
	return nil
}

// scheduleRemoveCommand is "openworker schedule remove".
func (c *config) scheduleRemoveCommand(f *journalFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "remove ID",
		Short: "remove a schedule (its past runs stay in the journal)",
		Args:  cobra.ExactArgs(1),
		RunE: f.withJournal(func(cmd *cobra.Command, args []string, j *journal.Journal) error {
			err := schedule.Remove(cmd.Context(), j, args[0])
			if errors.Is(err, journal.ErrNotFound) {
				return usageErr("no schedule %q in %s (openworker schedule list shows them)", args[0], j.Path())
			}
			if err == nil {
				fmt.Fprintf(c.stdout, "removed %s\n", args[0])
			}
			return err
		}),
	}
}

// runDueCommand is "schedule run-due": idempotent, for a systemd timer,
// cron or Task Scheduler.
func (c *config) runDueCommand(reg *tool.Registry, jf *journalFlags) *cobra.Command {
	var f runFlags
	var at string
	cmd := &cobra.Command{
		Use:   "run-due --coworkers DIR [the flags of run]",
		Short: "run each schedule's due slot once, unattended (safe to call from a timer, any number of times)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			now := time.Now()
			if at != "" {
				t, err := time.Parse(time.RFC3339, at)
				if err != nil {
					return usageErr("--now %q: want an RFC 3339 time, e.g. 2026-01-02T09:00:00Z", at)
				}
				now = t
			}
			if f.db == "" {
				f.db = jf.db
			}
			return c.runDue(cmd.Context(), reg, f, now)
		},
	}
	f.register(cmd, "approval mode: ask (a call that needs approval parks in the inbox) or bypass")
	cmd.Flags().StringVar(&at, "now", "", "the time to run as (RFC 3339); for tests")
	cmd.Flags().Lookup("now").Hidden = true
	return cmd
}

// runDue runs the due slots at now and exits as run --unattended does
// (docs/schedules.md#exit): 1 when a run failed or a slot could not run,
// 3 when a run waits on the person (parked or held) and none failed, 0
// otherwise.
func (c *config) runDue(ctx context.Context, reg *tool.Registry, f runFlags, now time.Time) error {
	out := &printer{w: termsafe.NewWriter(c.stdout), errw: termsafe.NewWriter(c.stderr)}
	quiet := &terminalPrompter{in: c.stdin, out: c.stderr, interactive: false, lock: &out.mu}
	rt, so, err := c.openRuntime(ctx, reg, f, quiet)
	if err != nil {
		return err
	}
	defer rt.Close()
	f.unattendedOptions(rt, &so)
	runs, err := schedule.RunDue(ctx, rt, so, now, out.event)
	out.finish()
	var failed, waiting []string
	for _, r := range runs {
		fmt.Fprintf(c.stdout, "%s  %s  %s  %s\n", r.Schedule.ID, localTime(r.Slot), runStatus(r.ScheduleRun), r.SessionID)
		switch {
		case r.Failed():
			failed = append(failed, r.Schedule.ID)
		case r.Waiting():
			waiting = append(waiting, r.Schedule.ID)
		}
	}
	if err != nil {
		return err
	}
	switch {
	case len(failed) > 0:
		return &exitError{ExitFailure, fmt.Errorf("%s failed or could not run: %s (the lines above say why; a slot not run stays due)", plural(len(failed), "scheduled run"), strings.Join(failed, ", "))}
	case len(waiting) > 0:
		return &exitError{ExitParked, fmt.Errorf("%s waiting on you: %s (openworker inbox list shows what; once answered, openworker resume continues the run)", plural(len(waiting), "scheduled run"), strings.Join(waiting, ", "))}
	case len(runs) == 0:
		fmt.Fprintln(c.stderr, "no schedule is due")
	}
	return nil
}
