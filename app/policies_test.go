package app

import (
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// An "always allow" answer is listed by Policies, lets the next call run
// without asking (its approval event says it came from the saved policy),
// and RevokePolicy takes it back: the list is empty and the next call asks.
func TestPoliciesListAndRevoke(t *testing.T) {
	e := newTestEnv(t, envOpts{replies: []modeltest.Reply{
		echoCall("one"), {Text: "first"}, echoCall("two"), {Text: "second"}, echoCall("three"), {Text: "third"}}})
	if got, err := e.app.Preferences.Policies(); err != nil || len(got) != 0 {
		t.Fatalf("Policies before any answer = %+v, %v; want none", got, err)
	}
	chat, err := e.app.Chats.OpenChat("helper")
	if err != nil {
		t.Fatal(err)
	}
	done := sendAsync(e.app, chat.SessionID, "one")
	p := e.rec.waitFor(t, EventApprovalRequest, nil).(PendingApproval)
	if err := e.app.Asks.RespondApproval(p.ID, "allow_always"); err != nil {
		t.Fatal(err)
	}
	if res := waitResult(t, done); res.Status != harness.TurnCompleted {
		t.Fatalf("first turn = %+v", res)
	}
	got, err := e.app.Preferences.Policies()
	if err != nil || len(got) != 1 {
		t.Fatalf("Policies after always allow = %+v, %v; want one", got, err)
	}
	pol := got[0]
	if pol.Coworker != "helper" || pol.Tool != "test.echo" || pol.Policy != string(consent.PolicyAllow) ||
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

	// The chat header lists the grant the answer also gave this chat.
	if g, err := e.app.Chats.ChatGrants(chat.SessionID); err != nil || len(g) != 1 || g[0].Tool != "test.echo" || g[0].Digest != pol.DescriptorDigest {
		t.Fatalf("ChatGrants = %+v, %v; want test.echo with the saved digest", g, err)
	}
	if err := e.app.Preferences.RevokePolicy(pol.Coworker, pol.Tool, pol.DescriptorDigest); err != nil {
		t.Fatal(err)
	}
	if g, err := e.app.Chats.ChatGrants(chat.SessionID); err != nil || len(g) != 0 {
		t.Fatalf("ChatGrants after revoking the saved answer = %+v, %v; want none (the open chat asks again too)", g, err)
	}
	if got, err := e.app.Preferences.Policies(); err != nil || len(got) != 0 {
		t.Fatalf("Policies after revoke = %+v, %v; want none", got, err)
	}
	if err := e.app.Preferences.RevokePolicy(pol.Coworker, pol.Tool, pol.DescriptorDigest); err == nil || !strings.Contains(err.Error(), "no saved answer for test.echo") {
		t.Fatalf("revoking twice: %v; want no saved answer", err)
	}
	// Revoked: the next call in the same chat asks again.
	done = sendAsync(e.app, chat.SessionID, "three")
	e.rec.waitFor(t, EventApprovalRequest, func(v any) bool { return v.(PendingApproval).ID != p.ID })
	for _, v := range e.rec.all(EventApprovalRequest) {
		if q := v.(PendingApproval); q.ID != p.ID {
			if err := e.app.Asks.RespondApproval(q.ID, "deny"); err != nil {
				t.Fatal(err)
			}
		}
	}
	waitResult(t, done)
}

// An "allow for this session" answer is listed by ChatGrants and
// RevokeChatGrant takes it back: the next call in the chat asks again.
func TestChatGrantsListAndRevoke(t *testing.T) {
	e := newTestEnv(t, envOpts{replies: []modeltest.Reply{
		echoCall("one"), {Text: "first"}, echoCall("two"), {Text: "second"}, echoCall("three"), {Text: "third"}}})
	chat, err := e.app.Chats.OpenChat("helper")
	if err != nil {
		t.Fatal(err)
	}
	if g, err := e.app.Chats.ChatGrants(chat.SessionID); err != nil || len(g) != 0 {
		t.Fatalf("ChatGrants of a new chat = %+v, %v", g, err)
	}
	done := sendAsync(e.app, chat.SessionID, "one")
	p := e.rec.waitFor(t, EventApprovalRequest, nil).(PendingApproval)
	if err := e.app.Asks.RespondApproval(p.ID, "allow_session"); err != nil {
		t.Fatal(err)
	}
	waitResult(t, done)
	if g, _ := e.app.Chats.ChatGrants(chat.SessionID); len(g) != 1 || g[0].Tool != "test.echo" {
		t.Fatalf("ChatGrants = %+v; want test.echo", g)
	}
	// The grant lets the second call through without a prompt.
	waitResult(t, sendAsync(e.app, chat.SessionID, "two"))
	if n := len(e.rec.all(EventApprovalRequest)); n != 1 {
		t.Fatalf("%d prompts with the grant, want 1", n)
	}
	if err := e.app.Chats.RevokeChatGrant(chat.SessionID, "test.echo"); err != nil {
		t.Fatal(err)
	}
	if g, _ := e.app.Chats.ChatGrants(chat.SessionID); len(g) != 0 {
		t.Fatalf("ChatGrants after revoke = %+v", g)
	}
	done = sendAsync(e.app, chat.SessionID, "three")
	q := e.rec.waitFor(t, EventApprovalRequest, func(v any) bool { return v.(PendingApproval).ID != p.ID }).(PendingApproval)
	if err := e.app.Asks.RespondApproval(q.ID, "deny"); err != nil {
		t.Fatal(err)
	}
	waitResult(t, done)
	if _, err := e.app.Chats.ChatGrants("ses_nope"); err == nil {
		t.Fatal("ChatGrants of an unknown chat: no error")
	}
}
