package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/journal"
)

// Chats that run on their own (docs/app.md#run-on-its-own,
// docs/inbox.md#unattended): a chat the person switches to "run on its
// own" never waits on them. A call that needs approval becomes an inbox
// item and the turn parks (CodeParked); answering the item in the Inbox
// continues the run at once (continueParked), and the chat shows the
// result. Scheduled runs park the same way (schedules.go).

// SetUnattended switches the chat to run on its own (on) or to ask in
// the window again (off), and returns it. A prompt already up stays up.
func (c *Chats) SetUnattended(sessionID string, on bool) (ChatInfo, error) {
	s, err := c.engine.chat(sessionID)
	if err != nil {
		return ChatInfo{}, err
	}
	c.prompter.setUnattended(sessionID, on)
	c.log.Info("chat runs on its own", "session", sessionID, "on", on)
	return c.info(s), nil
}

// info describes a chat, with whether it runs on its own.
func (c *Chats) info(s *harness.Session) ChatInfo {
	i := chatInfo(s)
	i.Unattended = c.prompter.isUnattended(s.ID())
	return i
}

// continueParked continues a parked run once no item it waits on is
// open: the session is reopened from the journal (a chat open here is
// closed first, since only a reopened session finds its parked calls) and
// continued (harness.Session.Continue), unattended: a further approval
// parks again. Its events stream to its chat as a turn's do. It returns
// how the continued turn ended, or why it did not run (still waiting,
// nothing to continue).
func (c *Chats) continueParked(ctx context.Context, sessionID string) (harness.TurnResult, error) {
	c.parked.Lock() // one continuation at a time: two answers in a row continue once
	defer c.parked.Unlock()
	j, err := c.engine.openJournal()
	if err != nil {
		return harness.TurnResult{}, err
	}
	open, err := j.Inbox(ctx, journal.InboxFilter{SessionID: sessionID})
	if err != nil {
		return harness.TurnResult{}, err
	}
	if len(open) > 0 {
		return harness.TurnResult{}, &harness.WaitingError{SessionID: sessionID, Items: []string{open[0].ID}}
	}
	if s, err := c.engine.chat(sessionID); err == nil && s.Running() {
		// A watched chat waiting at its budget took the answer itself
		// (chatBudget): it did not park, so nothing is continued.
		return harness.TurnResult{}, harness.ErrNothingToContinue
	}
	rt, so, err := c.ready()
	if err != nil {
		return harness.TurnResult{}, err
	}
	c.prompter.setUnattended(sessionID, true) // it parked: it runs on its own
	if s, err := c.engine.chat(sessionID); err == nil {
		if len(s.Pending()) == 0 {
			_ = s.Close()
		}
	}
	s, ok := rt.Session(sessionID)
	if !ok {
		if s, err = rt.ResumeSession(ctx, sessionID, so); err != nil {
			c.log.Warn("parked run not continued", "session", sessionID, "err", err)
			return harness.TurnResult{}, err
		}
	}
	c.log.Info("parked run continues", "session", sessionID)
	res, err := c.runTurn(sessionID, func(sink harness.Sink) (*harness.TurnResult, error) {
		return s.Continue(ctx, sink)
	})
	if errors.Is(err, harness.ErrNothingToContinue) {
		c.log.Info("parked run: nothing to continue", "session", sessionID)
	}
	c.chatChanged(sessionID)
	if err == nil {
		c.scheduleRunEnded(ctx, j, sessionID, res)
	}
	return res, err
}

// scheduleRunEnded records how a continued scheduled run ended on its
// schedule run (docs/schedules.md): "waiting on you" becomes the
// continued turn's status.
func (c *Chats) scheduleRunEnded(ctx context.Context, j *journal.Journal, sessionID string, res harness.TurnResult) {
	status := "succeeded"
	switch {
	case res.Code == harness.CodeParked:
		status = "waiting on you"
	case res.Status != harness.TurnCompleted:
		status = fmt.Sprintf("failed: the turn %s: %s", res.Status, res.Reason)
	}
	all, err := j.Schedules(ctx)
	if err != nil {
		return
	}
	for _, sc := range all {
		runs, err := j.ScheduleRuns(ctx, sc.ID, 20)
		if err != nil {
			continue
		}
		for _, r := range runs {
			if r.SessionID == sessionID {
				if status == "succeeded" && r.Missed > 1 {
					status = fmt.Sprintf("caught up (missed %d)", r.Missed)
				}
				if err := j.SetScheduleRun(ctx, r.ID, sessionID, status); err != nil {
					c.log.Warn("schedule run status", "run", r.ID, "err", err)
				}
				c.emit.Emit(EventSchedulesChanged, 1)
				return
			}
		}
	}
}
