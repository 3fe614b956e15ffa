package app

import (
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// TestCloseQuestion: closing asks first while a tool call waits for the
// person's answer (and its turn runs); once the turn is over, closing
// asks nothing.
func TestCloseQuestion(t *testing.T) {
	e := newTestEnv(t, envOpts{replies: []modeltest.Reply{echoCall("x"), {Text: "done"}}})
	if q := e.app.closeQuestion(); q != "" {
		t.Fatalf("closeQuestion with nothing open = %q; want none", q)
	}
	chat, err := e.app.Chats.OpenChat("helper")
	if err != nil {
		t.Fatal(err)
	}
	done := sendAsync(e.app, chat.SessionID, "echo x")
	p := e.rec.waitFor(t, EventApprovalRequest, nil).(PendingApproval)
	q := e.app.closeQuestion()
	if !strings.Contains(q, "1 tool call waits for your answer and 1 chat is still running") || !strings.HasSuffix(q, "Quit anyway?") {
		t.Errorf("closeQuestion with a prompt waiting = %q", q)
	}
	if err := e.app.Asks.RespondApproval(p.ID, "allow_once"); err != nil {
		t.Fatal(err)
	}
	if res := waitResult(t, done); res.Status != harness.TurnCompleted {
		t.Fatalf("turn = %+v", res)
	}
	if q := e.app.closeQuestion(); q != "" {
		t.Errorf("closeQuestion after the turn = %q; want none", q)
	}
}
