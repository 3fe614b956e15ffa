package harness_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// A parked call answered "Never" in the inbox (docs/consent.md#never) is
// refused, journaled as deny, and saves the deny policy as the dialog's
// Never does: the next call is refused without parking.
func TestParkedCallAnsweredNever(t *testing.T) {
	e, notes := notesEnv(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{call("c1", "notes__append", `{"text":"hi"}`)}}, modeltest.Reply{Text: "Not noted."},
		modeltest.Reply{ToolCalls: []model.ToolCall{call("c2", "notes__append", `{"text":"again"}`)}}, modeltest.Reply{Text: "Still not."})
	ctx := context.Background()
	j := e.rt.Journal()
	s, items := parkNote(t, e, notes)
	if _, err := j.AnswerInboxItem(ctx, items[0].ID, json.RawMessage(`"deny_always"`), "test"); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	rs, err := e.rt.ResumeSession(ctx, s.ID(), e.so)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := rs.Continue(ctx, e.sink); err != nil || res.Status != harness.TurnCompleted || notes.calls.Load() != 0 {
		t.Fatalf("Continue = %+v, %v (%d calls); want completed, nothing run", res, err, notes.calls.Load())
	}
	if as := e.approvals(s.ID()); len(as) != 1 || as[0].Decision != "deny" || as[0].Source != "inbox" || !contains(as[0].Reason, "Never") {
		t.Fatalf("approvals = %+v; want one inbox deny saying Never", as)
	}
	if pols, _ := j.UserPolicies(ctx, "tester"); len(pols) != 1 || pols[0].Policy != "deny" {
		t.Fatalf("policies = %+v; want the saved Never", pols)
	}
	if res, err := rs.Send(ctx, "Note again.", e.sink); err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("Send = %+v, %v; want completed without parking", res, err)
	}
	if as := e.approvals(s.ID()); len(as) != 2 || as[1].Source != consent.SourceUser || as[1].Decision != "deny" {
		t.Fatalf("approvals = %+v; want the second refused by the saved Never", as)
	}
}
