package app

import (
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// An "always allow" answer is listed by Policies, lets the next call run
// without asking (its approval event says it came from the saved policy),
// and RevokePolicy takes it back: the list is empty and the next call asks.
func TestPoliciesListAndRevoke(t *testing.T) {
	e := newTestEnv(t, envOpts{replies: []modeltest.Reply{
		echoCall("one"), {Text: "first"}, echoCall("two"), {Text: "second"}, echoCall("three"), {Text: "third"}}})
	if got, err := e.app.Policies(); err != nil || len(got) != 0 {
		t.Fatalf("Policies before any answer = %+v, %v; want none", got, err)
	}
	chat, err := e.app.OpenChat("helper")
	if err != nil {
		t.Fatal(err)
	}
	done := sendAsync(e.app, chat.SessionID, "one")
	p := e.rec.waitFor(t, EventApprovalRequest, nil).(PendingApproval)
	if err := e.app.RespondApproval(p.ID, "allow_always"); err != nil {
		t.Fatal(err)
	}
	if res := waitResult(t, done); res.Status != harness.TurnCompleted {
		t.Fatalf("first turn = %+v", res)
	}
	got, err := e.app.Policies()
	if err != nil || len(got) != 1 {
		t.Fatalf("Policies after always allow = %+v, %v; want one", got, err)
	}
	pol := got[0]
	if pol.Coworker != "helper" || pol.Tool != "test.echo" || pol.Policy != journal.PolicyAllow ||
		!strings.HasPrefix(pol.DescriptorDigest, "sha256:") || pol.UpdatedAt.IsZero() || pol.Ignored != "" {
		t.Fatalf("saved policy = %+v", pol)
	}

	// The second call runs on the saved answer, and says so.
	if res := waitResult(t, sendAsync(e.app, chat.SessionID, "two")); res.Status != harness.TurnCompleted {
		t.Fatalf("second turn = %+v", res)
	}
	if n := len(e.rec.all(EventApprovalRequest)); n != 1 {
		t.Fatalf("%d prompts after the always answer, want still 1", n)
	}
	var sources []string
	for _, ev := range e.rec.all(EventHarness) {
		if h := ev.(ChatEvent); h.Type == harness.EventApprovalDecided {
			sources = append(sources, h.Status+" "+h.Source)
		}
	}
	if want := "allow_always prompt,allow_once " + consent.SourceUser; strings.Join(sources, ",") != want {
		t.Fatalf("approval.decided = %q; want %q", sources, want)
	}

	if err := e.app.RevokePolicy(pol.Coworker, pol.Tool, pol.DescriptorDigest); err != nil {
		t.Fatal(err)
	}
	if got, err := e.app.Policies(); err != nil || len(got) != 0 {
		t.Fatalf("Policies after revoke = %+v, %v; want none", got, err)
	}
	if err := e.app.RevokePolicy(pol.Coworker, pol.Tool, pol.DescriptorDigest); err == nil || !strings.Contains(err.Error(), "no saved answer for test.echo") {
		t.Fatalf("revoking twice: %v; want no saved answer", err)
	}
	// Revoked: a call in a new chat asks again (the first chat keeps the
	// session grant the answer also gave).
	chat2, err := e.app.OpenChat("helper")
	if err != nil {
		t.Fatal(err)
	}
	done = sendAsync(e.app, chat2.SessionID, "three")
	e.rec.waitFor(t, EventApprovalRequest, func(v any) bool { return v.(PendingApproval).ID != p.ID })
	for _, v := range e.rec.all(EventApprovalRequest) {
		if q := v.(PendingApproval); q.ID != p.ID {
			if err := e.app.RespondApproval(q.ID, "deny"); err != nil {
				t.Fatal(err)
			}
		}
	}
	waitResult(t, done)
}
