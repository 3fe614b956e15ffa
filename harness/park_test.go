package harness_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/inbox"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// TestParkAndContinue: with a prompter that parks, a call that needs
// approval becomes an open inbox item and the turn stops waiting on you,
// with nothing run or refused; resumed, the session refuses a new prompt
// until its parked call is settled, Continue waits while the item is
// open, and once it is answered runs the call once (its approval from
// the inbox, the item consumed in the same commit) and the model goes on.
func TestParkAndContinue(t *testing.T) {
	e, notes := notesEnv(t, modeltest.Reply{ToolCalls: []model.ToolCall{call("c1", "notes__append", `{"text":"hi"}`)}}, modeltest.Reply{Text: "Noted."})
	ctx := context.Background()
	j := e.rt.Journal()
	s, items := parkNote(t, e, notes)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	rs, err := e.rt.ResumeSession(ctx, s.ID(), e.so)
	if err != nil {
		t.Fatal(err)
	}
	if got := rs.Pending(); len(got) != 1 || got[0] != items[0].ID {
		t.Fatalf("Pending = %v", got)
	}
	if _, err := rs.Send(ctx, "hello?", e.sink); !errors.Is(err, harness.ErrPendingCalls) {
		t.Fatalf("Send with a parked call = %v; want ErrPendingCalls", err)
	}
	var we *harness.WaitingError
	if _, err := rs.Continue(ctx, e.sink); !errors.As(err, &we) || we.Items[0] != items[0].ID {
		t.Fatalf("Continue while open = %v; want a WaitingError naming %s", err, items[0].ID)
	}
	if _, err := j.AnswerInboxItem(ctx, items[0].ID, json.RawMessage(`"allow_once"`), "test"); err != nil {
		t.Fatal(err)
	}
	res, err := rs.Continue(ctx, e.sink)
	if err != nil || res.Status != harness.TurnCompleted || res.Text != "Noted." || notes.calls.Load() != 1 {
		t.Fatalf("Continue = %+v, %v (%d calls)", res, err, notes.calls.Load())
	}
	invs := e.invocations(s.ID())
	if len(invs) != 1 || invs[0].Status != journal.InvSucceeded || invs[0].CallID != "c1" {
		t.Fatalf("invocations = %+v", invs)
	}
	if as := e.approvals(s.ID()); len(as) != 1 || as[0].Source != "inbox" || as[0].Decision != "allow_once" {
		t.Fatalf("approvals = %+v", as)
	}
	if it, _ := j.InboxItem(ctx, items[0].ID); it.Status != journal.InboxConsumed {
		t.Fatalf("item = %+v; want consumed", it)
	}
	if _, err := rs.Continue(ctx, e.sink); !errors.Is(err, harness.ErrNothingToContinue) {
		t.Fatalf("Continue again = %v; want ErrNothingToContinue", err)
	}
}

// notesEnv is a runtime whose one tool, notes.append, needs approval
// (consent.Ask), whose model gives replies, and whose prompter parks
// every question in the inbox.
func notesEnv(t *testing.T, replies ...modeltest.Reply) (*env, *testTool) {
	t.Helper()
	notes := &testTool{name: "notes.append", risk: tool.NonIdempotentWrite}
	e := newEnv(t, envOpts{tools: []tool.Tool{notes}, selected: []string{"notes.append"}, mode: consent.Ask, replies: replies})
	e.so.Prompter = &inbox.Parker{Inbox: inbox.New(e.rt.Journal(), nil)}
	return e, notes
}

// parkNote sends "Note hi." and checks that the turn stopped with its
// call (c1) parked: one open inbox item, nothing run or refused.
func parkNote(t *testing.T, e *env, notes *testTool) (*harness.Session, []journal.InboxItem) {
	t.Helper()
	s, res, err := e.send("Note hi.")
	if err != nil || res.Status != harness.TurnStopped || res.Code != harness.CodeParked {
		t.Fatalf("Send = %+v, %v; want stopped, waiting on you", res, err)
	}
	items, _ := e.rt.Journal().Inbox(context.Background(), journal.InboxFilter{SessionID: s.ID()})
	if len(items) != 1 || items[0].Tool != "notes.append" || items[0].CallID != "c1" || notes.calls.Load() != 0 || len(e.invocations(s.ID())) != 0 {
		t.Fatalf("items %+v, %d calls, %d invocations; want one open item and nothing run or refused", items, notes.calls.Load(), len(e.invocations(s.ID())))
	}
	return s, items
}
