package cli

import (
	"context"
	"errors"
	"fmt"
	"github.com/openworker/desktop/internal/termsafe"
	"io"
	"text/tabwriter"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/inbox"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/schedule"
	"github.com/openworker/desktop/harness/tool"
	"github.com/spf13/cobra"
)

// scheduleCommand is "openworker schedule" with add, list, remove and
// run-due (docs/schedules.md).
func (c *config) scheduleCommand(reg *tool.Registry) *cobra.Command {
	f := &journalFlags{c: c}
	cmd := &cobra.Command{
		Use:   "schedule",
		Short: "run coworkers on a schedule, unattended (add, list, remove, run-due)",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErr("unknown schedule command %q; use add, list, remove or run-due", args[0])
			}
			return usageErr("schedule needs a command: add, list, remove or run-due")
		},
	}
	cmd.PersistentFlags().StringVar(&f.db, "db", "", "journal file (default: the app's journal)")
	cmd.AddCommand(c.scheduleAddCommand(f), c.scheduleListCommand(f), c.scheduleRemoveCommand(f), c.runDueCommand(reg, f))
	return cmd
}

// scheduleAddCommand is "openworker schedule add".
func (c *config) scheduleAddCommand(f *journalFlags) *cobra.Command {
	var s journal.Schedule
	var noCatchUp bool
	add := &cobra.Command{
		Use:   "add --coworker ID (--every D | --cron EXPR [--tz ZONE]) --prompt TEXT [--no-catch-up]",
		Short: "add a schedule",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s.CatchUp = !noCatchUp
			return c.scheduleAdd(cmd.Context(), f, s)
		},
	}
	add.Flags().StringVar(&s.Coworker, "coworker", "", "the coworker to run")
	add.Flags().StringVar(&s.Prompt, "prompt", "", "the prompt of each run")
	add.Flags().DurationVar(&s.Every, "every", 0, "run every D (at least 1m), counted from when the schedule was added")
	add.Flags().StringVar(&s.Cron, "cron", "", "run at the times of a five-field cron expression (minute hour day-of-month month day-of-week)")
	add.Flags().StringVar(&s.TimeZone, "tz", "", "the time zone of --cron, e.g. Europe/Berlin (default UTC)")
	add.Flags().BoolVar(&noCatchUp, "no-catch-up", false, "after missed slots, wait for the next one instead of running once at once")
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
		return usageErr("schedule add needs --coworker ID, --prompt TEXT and one of --every D (e.g. 2h) or --cron EXPR (e.g. \"0 9 * * 1-5\")")
	}
	if err := schedule.Check(s); err != nil {
		return usageErr("%v", err)
	}
	got, err := j.AddSchedule(ctx, s)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "added %s\n", got.ID)
	return nil
}

// scheduleRow is a schedule as schedule list shows it, with its last
// runs, newest first.
type scheduleRow struct {
	journal.Schedule
	Runs []journal.ScheduleRun `json:"runs"`
}

// scheduleListCommand is "openworker schedule list".
func (c *config) scheduleListCommand(f *journalFlags) *cobra.Command {
	list := &cobra.Command{
		Use:   "list [--json]",
		Short: "list the schedules with their last run",
		Args:  cobra.NoArgs,
		RunE: f.withJournal(func(cmd *cobra.Command, _ []string, j *journal.Journal) error {
			rows, err := scheduleRows(cmd.Context(), j)
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

// scheduleRows reads the schedules of j with their last ten runs.
func scheduleRows(ctx context.Context, j *journal.Journal) ([]scheduleRow, error) {
	all, err := j.Schedules(ctx)
	if err != nil {
		return nil, err
	}
	rows := []scheduleRow{}
	for _, s := range all {
		runs, err := j.ScheduleRuns(ctx, s.ID, 10)
		if err != nil {
			return nil, err
		}
		if runs == nil {
			runs = []journal.ScheduleRun{}
		}
		rows = append(rows, scheduleRow{s, runs})
	}
	return rows, nil
}

// printSchedules writes rows as a table: when each runs and its last run.
func printSchedules(w io.Writer, rows []scheduleRow) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SCHEDULE\tCOWORKER\tWHEN\tLAST RUN\tPROMPT")
	for _, r := range rows {
		when := "every " + r.Every.String()
		if r.Cron != "" {
			when = "cron " + r.Cron
			if r.TimeZone != "" {
				when += " " + r.TimeZone
			}
		}
		last := "never"
		if len(r.Runs) > 0 {
			last = r.Runs[0].Slot.Local().Format(time.DateTime) + " " + r.Runs[0].Status
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Coworker, when, oneLine(last, 80), oneLine(r.Prompt, 50))
	}
	return tw.Flush()
}

// scheduleRemoveCommand is "openworker schedule remove".
func (c *config) scheduleRemoveCommand(f *journalFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "remove ID",
		Short: "remove a schedule (its past runs stay in the journal)",
		Args:  cobra.ExactArgs(1),
		RunE: f.withJournal(func(cmd *cobra.Command, args []string, j *journal.Journal) error {
			err := j.RemoveSchedule(cmd.Context(), args[0])
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

func (c *config) runDue(ctx context.Context, reg *tool.Registry, f runFlags, now time.Time) error {
	out := &printer{w: termsafe.NewWriter(c.stdout), errw: termsafe.NewWriter(c.stderr)}
	quiet := &terminalPrompter{in: c.stdin, out: c.stderr, interactive: false, lock: &out.mu}
	rt, so, err := c.openRuntime(ctx, reg, f, quiet)
	if err != nil {
		return err
	}
	defer rt.Close()
	so.Prompter = &inbox.Parker{Inbox: inbox.New(rt.Journal(), nil)}
	runs, err := schedule.RunDue(ctx, rt, so, now, out.event)
	out.finish()
	for _, r := range runs {
		fmt.Fprintf(c.stdout, "%s  %s  %s  %s\n", r.Schedule.ID, r.Slot.Local().Format(time.DateTime), r.Status, r.SessionID)
	}
	if err != nil {
		return err
	}
	if len(runs) == 0 {
		fmt.Fprintln(c.stderr, "no schedule is due")
	}
	return nil
}
