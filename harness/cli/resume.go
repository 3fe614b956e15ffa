package cli

import (
	"context"
	"errors"
	"fmt"
	"github.com/openworker/desktop/internal/termsafe"
	"strings"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/inbox"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/tool"
	"github.com/spf13/cobra"
)

// resumeCommand is "openworker resume [SESSION]": it continues the parked
// sessions whose inbox items are answered (docs/inbox.md#unattended).
func (c *config) resumeCommand(reg *tool.Registry) *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "resume [SESSION] --coworkers DIR [the flags of run]",
		Short: "continue the parked runs whose inbox items are answered (or SESSION)",
		Long: `Continue parked runs (docs/inbox.md#unattended).

A run parks when a call needs an approval and nobody is there to give it
(run --unattended): the approval waits in the inbox. Once it is answered
(openworker inbox answer ID allow|deny), resume runs each approved call
exactly once, tells the model about each denied one, and lets the model go
on. Without SESSION it continues every session whose parked calls are all
answered. The continued run is unattended too: a call that needs another
approval parks again (exit 3).`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return c.resume(cmd.Context(), reg, f, args)
		},
	}
	f.register(cmd, "approval mode: ask (a call that needs approval parks in the inbox) or bypass (no approvals; deny policies, limits and the journal still apply)")
	return cmd
}

func (c *config) resume(ctx context.Context, reg *tool.Registry, f runFlags, args []string) error {
	out := &printer{w: termsafe.NewWriter(c.stdout), errw: termsafe.NewWriter(c.stderr)}
	quiet := &terminalPrompter{in: c.stdin, out: c.stderr, interactive: false, lock: &out.mu}
	rt, so, err := c.openRuntime(ctx, reg, f, quiet)
	if err != nil {
		return err
	}
	defer rt.Close()
	j := rt.Journal()
	so.Prompter = &inbox.Parker{Inbox: inbox.New(j, nil)}
	ids := args
	if len(ids) == 0 {
		if ids, err = answeredSessions(ctx, j); err != nil {
			return err
		}
		if len(ids) == 0 {
			fmt.Fprintf(c.stderr, "no parked run has an answered inbox item in %s\n", j.Path())
			return nil
		}
	}
	var parked, failed []string
	for _, id := range ids {
		s, err := rt.ResumeSession(ctx, id, so)
		if err != nil {
			fmt.Fprintf(c.stderr, "session %s: %v\n", id, err)
			failed = append(failed, id)
			continue
		}
		fmt.Fprintf(c.stderr, "session %s continues\n", id)
		res, err := s.Continue(ctx, out.event)
		out.finish()
		var we *harness.WaitingError
		switch {
		case errors.Is(err, harness.ErrNothingToContinue):
			fmt.Fprintf(c.stderr, "session %s: %v\n", id, err)
		case errors.As(err, &we):
			fmt.Fprintf(c.stderr, "%v; answer with: openworker inbox answer ID allow|deny\n", err)
			parked = append(parked, id)
		case err != nil:
			fmt.Fprintf(c.stderr, "session %s: %v\n", id, err)
			failed = append(failed, id)
		case res.Code == harness.CodeParked:
			if perr := c.printParked(ctx, j, id); perr != nil {
				return perr
			}
			parked = append(parked, id)
		case res.Status != harness.TurnCompleted:
			fmt.Fprintf(c.stderr, "session %s: the turn %s: %s\n", id, res.Status, res.Reason)
			failed = append(failed, id)
		}
		s.Close()
	}
	switch {
	case len(failed) > 0:
		return &exitError{ExitFailure, fmt.Errorf("could not continue %s", strings.Join(failed, ", "))}
	case len(parked) > 0:
		return &exitError{ExitParked, fmt.Errorf("parked again, waiting on you: %s", strings.Join(parked, ", "))}
	}
	return nil
}

// answeredSessions are the sessions to continue, oldest item first: those
// with an approval in the inbox that is answered, or consumed by a
// continuation that did not complete (its process died) in the last week,
// and no open item.
func answeredSessions(ctx context.Context, j *journal.Journal) ([]string, error) {
	items, err := j.Inbox(ctx, journal.InboxFilter{Statuses: []journal.InboxStatus{journal.InboxOpen, journal.InboxAnswered}})
	if err != nil {
		return nil, err
	}
	// Continuations that died: answers taken in the last week.
	taken, err := j.Inbox(ctx, journal.InboxFilter{Statuses: []journal.InboxStatus{journal.InboxConsumed}, Since: time.Now().Add(-7 * 24 * time.Hour)})
	if err != nil {
		return nil, err
	}
	items = append(items, taken...)
	open := map[string]bool{}
	for _, it := range items {
		if it.Open() {
			open[it.SessionID] = true
		}
	}
	var ids []string
	seen := map[string]bool{}
	for _, it := range items {
		if it.Kind != journal.InboxApproval || it.Open() || it.SessionID == "" || open[it.SessionID] || seen[it.SessionID] {
			continue
		}
		seen[it.SessionID] = true
		if it.Status == journal.InboxConsumed {
			turns, err := j.Turns(ctx, it.SessionID)
			if err != nil {
				return nil, err
			}
			if len(turns) == 0 || turns[len(turns)-1].Status == journal.TurnCompleted {
				continue // continued to the end
			}
		}
		ids = append(ids, it.SessionID)
	}
	return ids, nil
}

// parked prints what session id waits on and returns the exit of a parked
// run.
func (c *config) parked(ctx context.Context, j *journal.Journal, id string) error {
	if err := c.printParked(ctx, j, id); err != nil {
		return err
	}
	return &exitError{ExitParked, fmt.Errorf("session %s parked, waiting on you: answer with openworker inbox answer ID allow|deny, then continue with openworker resume %s", id, id)}
}

// printParked prints, on stdout, one line per open item of session id:
// "waiting  ID  KIND  what it waits for".
func (c *config) printParked(ctx context.Context, j *journal.Journal, id string) error {
	items, err := j.Inbox(ctx, journal.InboxFilter{SessionID: id})
	if err != nil {
		return err
	}
	for _, it := range items {
		fmt.Fprintf(c.stdout, "waiting  %s  %s  %s\n", it.ID, it.Kind, oneLine(waitsFor(it), 200))
	}
	return nil
}
