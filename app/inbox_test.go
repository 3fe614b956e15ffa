package app

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/internal/testwait"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// eventually waits up to hangGuard for ok, failing with what.
func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	testwait.Until(t, hangGuard, what, ok)
}

// lastTurn is the status of the session's newest turn in the journal.
func lastTurn(t *testing.T, e *testEnv, sessionID string) string {
	t.Helper()
	d, err := e.app.Activity.SessionDetail(sessionID)
	if err != nil || len(d.Turns) == 0 {
		return ""
	}
	return string(d.Turns[len(d.Turns)-1].Status)
}

// TestUnattendedChatParksAndContinuesInTheInbox: a chat switched to run on
// its own asks nothing in the window; its call parks as an inbox item,
// the turn stops "waiting on you", the Inbox lists the item, and
// answering it there continues the run at once: the call runs once, the
// model goes on, and a second answer is told it was already answered.
func TestUnattendedChatParksAndContinuesInTheInbox(t *testing.T) {
	e := newTestEnv(t, envOpts{replies: []modeltest.Reply{echoCall("parked"), {Text: "Done after your answer."}}})
	chat, err := e.app.Chats.OpenChat("helper")
	if err != nil {
		t.Fatal(err)
	}
	if info, err := e.app.Chats.SetUnattended(chat.SessionID, true); err != nil || !info.Unattended {
		t.Fatalf("SetUnattended = %+v, %v", info, err)
	}
	res := waitResult(t, sendAsync(e.app, chat.SessionID, "append it"))
	if res.Code != harness.CodeParked {
		t.Fatalf("turn = %+v, want stopped waiting on you", res)
	}
	if n := len(e.rec.all(EventApprovalRequest)); n != 0 {
		t.Fatalf("%d consent dialogs for a chat that runs on its own", n)
	}
	items, err := e.app.Inbox.Items()
	if err != nil || len(items) != 1 {
		t.Fatalf("Inbox = %+v, %v; want the parked call", items, err)
	}
	it := items[0]
	if it.Kind != "approval" || !it.Parked || it.Coworker != "helper" || it.SessionID != chat.SessionID || !strings.Contains(it.What, "test.echo") {
		t.Fatalf("item = %+v", it)
	}
	if n, _ := e.app.Inbox.Count(); n != 1 {
		t.Fatalf("badge = %d, want 1", n)
	}
	if pend, _ := e.app.Asks.PendingApprovals(); len(pend) != 0 {
		t.Fatalf("the parked item is up as a dialog: %+v", pend)
	}
	if e.echo.calls.Load() != 0 {
		t.Fatal("the call ran before anyone answered")
	}
	if err := e.app.Inbox.Answer(it.ID, "allow_once"); err != nil {
		t.Fatal(err)
	}
	err = e.app.Inbox.Answer(it.ID, "deny")
	if !errors.Is(err, journal.ErrAlreadyAnswered) || !strings.Contains(err.Error(), "by window") {
		t.Fatalf("second answer: %v; want already answered by window", err)
	}
	eventually(t, "the parked run continued to a completed turn", func() bool { return lastTurn(t, e, chat.SessionID) == "completed" })
	if n := e.echo.calls.Load(); n != 1 {
		t.Fatalf("the approved call ran %d times, want 1", n)
	}
	d, _ := e.app.Activity.SessionDetail(chat.SessionID)
	if len(d.Invocations) != 1 || d.Invocations[0].Status != journal.InvSucceeded || len(d.Approvals) != 1 || d.Approvals[0].Source != "inbox" {
		t.Fatalf("journal: invocations %+v approvals %+v", d.Invocations, d.Approvals)
	}
	if last := d.Messages[len(d.Messages)-1]; !strings.Contains(string(last.Content), "Done after your answer.") {
		t.Fatalf("last message = %+v", last)
	}
	if n, _ := e.app.Inbox.Count(); n != 0 {
		t.Fatalf("badge = %d after the answer, want 0", n)
	}
	if c := e.rec.waitFor(t, EventInboxChanged, func(v any) bool { return v.(InboxCount).Open == 0 }).(InboxCount); c.Open != 0 {
		t.Fatalf("inbox event = %+v", c)
	}
}

// TestScheduleParksAndContinuesInTheInbox: a schedule added in the app
// runs when due, unattended: its call parks, the schedule's last run says
// "waiting on you"; answering in the Inbox continues it and the last run
// then says "succeeded". The due slot is claimed once: running due
// schedules again at the same time runs nothing.
func TestScheduleParksAndContinuesInTheInbox(t *testing.T) {
	e := newTestEnv(t, envOpts{replies: []modeltest.Reply{echoCall("scheduled"), {Text: "Scheduled work done."}}})
	if _, err := e.app.Schedules.Add(ScheduleInput{Coworker: "helper", Prompt: "check", When: "every 10s"}); err == nil || !strings.Contains(err.Error(), "at least a minute") {
		t.Fatalf("every 10s: %v", err)
	}
	if _, err := e.app.Schedules.Add(ScheduleInput{Coworker: "nobody", Prompt: "check", When: "every 1h"}); err == nil {
		t.Fatal("a schedule of a coworker that does not exist was added")
	}
	s, err := e.app.Schedules.Add(ScheduleInput{Coworker: "helper", Prompt: "check", When: "every 1m", CatchUp: true})
	if err != nil || s.When != "every 1m" {
		t.Fatalf("Add = %+v, %v", s, err)
	}
	if l, _ := e.app.Schedules.List(); len(l) != 1 || !l[0].Next.Equal(s.CreatedAt.Add(time.Minute)) {
		t.Fatalf("List before its first run = %+v; want next at %v", l, s.CreatedAt.Add(time.Minute))
	}
	at := s.CreatedAt.Add(61 * time.Second)
	runs, err := e.app.Schedules.runDue(context.Background(), at)
	if err != nil || len(runs) != 1 || runs[0].Status != "waiting on you" {
		t.Fatalf("runDue = %+v, %v", runs, err)
	}
	if again, _ := e.app.Schedules.runDue(context.Background(), at); len(again) != 0 {
		t.Fatalf("the same slot ran again: %+v", again)
	}
	list, _ := e.app.Schedules.List()
	if len(list) != 1 || list[0].LastRun == nil || list[0].LastRun.Status != "waiting on you" {
		t.Fatalf("List = %+v", list)
	}
	items, _ := e.app.Inbox.Items()
	if len(items) != 1 || items[0].SessionID != runs[0].SessionID || !items[0].Parked {
		t.Fatalf("Inbox = %+v", items)
	}
	if err := e.app.Inbox.Answer(items[0].ID, "allow_once"); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the schedule's run ended succeeded", func() bool {
		l, _ := e.app.Schedules.List()
		return len(l) == 1 && l[0].LastRun != nil && l[0].LastRun.Status == "succeeded"
	})
	if n := e.echo.calls.Load(); n != 1 {
		t.Fatalf("the approved call ran %d times, want 1", n)
	}
	if got := lastTurn(t, e, runs[0].SessionID); got != "completed" {
		t.Fatalf("last turn = %q", got)
	}
	if err := e.app.Schedules.Remove(s.ID); err != nil {
		t.Fatal(err)
	}
	if l, _ := e.app.Schedules.List(); len(l) != 0 {
		t.Fatalf("after Remove: %+v", l)
	}
}

func TestParseScheduleWhen(t *testing.T) {
	for _, c := range []struct{ when, cron, err string }{
		{when: "weekdays at 09:00", cron: "0 9 * * 1-5"},
		{when: "Weekdays at 17:30", cron: "30 17 * * 1-5"},
		{when: "0 9 * * 1-5", cron: "0 9 * * 1-5"},
		{when: "every 2h"},
		{when: "", err: "say when"},
		{when: "sometimes", err: "cron expression"},
		{when: "weekdays at 25:00", err: "cron expression"},
	} {
		s, err := parseSchedule(ScheduleInput{Coworker: "helper", Prompt: "p", When: c.when})
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: err %v, want %q", c.when, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%q: %v", c.when, err)
		case c.err == "" && s.Cron != c.cron:
			t.Errorf("%q: cron %q, want %q", c.when, s.Cron, c.cron)
		}
	}
}
