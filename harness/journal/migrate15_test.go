package journal

import (
	"context"
	"encoding/json"
	"testing"
)

// TestMigrate15 upgrades the version-14 fixture (written by the commit
// that had schema 14): every row is kept as it was, the chain verifies as
// before, and an inbox item added, answered and consumed with its call
// afterwards is chained and read back.
func TestMigrate15(t *testing.T) {
	ctx := context.Background()
	j, _, after := upgradeFixture(t, 14)
	if n := len(after["inbox"]); n != 0 {
		t.Fatalf("inbox has %d rows after the upgrade; want 0", n)
	}
	rep := mustVerify(t, j)
	if !rep.OK {
		t.Fatalf("Verify after the upgrade: %+v", rep.First)
	}

	sid := "ses_fx_closed"
	if err := j.ReopenSession(ctx, sid, Reopening{}); err != nil {
		t.Fatal(err)
	}
	turn := sid + "-v15"
	if err := j.StartTurn(ctx, Turn{ID: turn, SessionID: sid, Prompt: "append a note"}); err != nil {
		t.Fatal(err)
	}
	it, err := j.AddInboxItem(ctx, InboxItem{Kind: InboxApproval, Coworker: "demo", SessionID: sid, TurnID: turn,
		InvocationID: "inv_v15", Tool: "notes.append", Asked: json.RawMessage(`{"tool":"notes.append"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.AnswerInboxItem(ctx, it.ID, json.RawMessage(`"allow_once"`), "terminal"); err != nil {
		t.Fatal(err)
	}
	inv := Invocation{ID: "inv_v15", SessionID: sid, TurnID: turn, Tool: "notes.append", Arguments: json.RawMessage(`{}`)}
	if err := j.BeginInvocation(ctx, inv, &Approval{SessionID: sid, Decision: "allow_once", Source: "inbox", InboxItem: it.ID}); err != nil {
		t.Fatal(err)
	}
	if got, err := j.InboxItem(ctx, it.ID); err != nil || got.Status != InboxConsumed || got.InvocationID != "inv_v15" {
		t.Fatalf("InboxItem = %+v, %v; want consumed, about inv_v15", got, err)
	}
	if end := mustVerify(t, j); !end.OK || end.Entries <= rep.Entries {
		t.Errorf("Verify after the new rows = %+v; want OK with more than %d entries", end, rep.Entries)
	}
}
