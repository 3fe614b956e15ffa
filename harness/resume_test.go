package harness_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// A process that dies in the middle of a tool call leaves an assistant
// message whose call has no answer; providers reject such a history. On
// resume the call gets an error answer saying its outcome is unknown, placed
// right after the asking message and journaled once, so a second resume
// neither adds another nor reorders.
func TestResumeAnswersDanglingToolCalls(t *testing.T) {
	ctx := context.Background()
	echo := &testTool{name: "test.echo", risk: tool.ReadOnly}
	e := newEnv(t, envOpts{tools: []tool.Tool{echo}, selected: []string{"test.echo"}, replies: []modeltest.Reply{{Text: "first answer"}}})
	s, res, err := e.send("first question")
	if err != nil || res.Status != "completed" {
		t.Fatalf("Send = %+v, %v", res, err)
	}
	// What the dead process left: the model asked for two calls, one was
	// answered, then the process died before answering the other.
	j := e.rt.Journal()
	asked, _ := json.Marshal(model.Message{Role: model.Assistant, Text: "checking", ToolCalls: []model.ToolCall{
		{ID: "c1", Name: "test__echo", Arguments: `{"text":"a"}`}, {ID: "c2", Name: "test__echo", Arguments: `{"text":"b"}`}}})
	answered, _ := json.Marshal(model.Message{Role: model.ToolRole, ToolCallID: "c1", ToolName: "test__echo", Text: `{"echo":"a"}`})
	for _, m := range []journal.Message{{Role: "assistant", Content: asked}, {Role: "tool", Content: answered}} {
		m.SessionID = s.ID()
		if _, err := j.AppendMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	before, _ := j.Messages(ctx, s.ID())

	for round, reply := range []string{"second answer", "third answer"} {
		rt, srv := e.reopen([]tool.Tool{echo}, "", modeltest.Reply{Text: reply})
		rs, err := rt.ResumeSession(ctx, s.ID())
		if err != nil {
			t.Fatalf("round %d: ResumeSession = %v", round, err)
		}
		if res, err := rs.Send(ctx, "next question", nil); err != nil || res.Text != reply {
			t.Fatalf("round %d: Send = %+v, %v", round, res, err)
		}
		msgs := srv.Requests()[0].Messages
		var roles []string
		for _, m := range msgs {
			roles = append(roles, m.Role+":"+m.ToolCallID)
		}
		at := -1
		for i, m := range msgs {
			if len(m.ToolCalls) == 2 {
				at = i
			}
		}
		if at < 0 || at+2 >= len(msgs) {
			t.Fatalf("round %d: the asking message is missing or last: %v", round, roles)
		}
		if a, b := msgs[at+1], msgs[at+2]; a.ToolCallID != "c1" || b.ToolCallID != "c2" ||
			!strings.Contains(b.Text, "outcome unknown") || strings.Contains(a.Text, "outcome unknown") {
			t.Errorf("round %d: messages after the asking one: %v; want c1's answer, then c2's 'outcome unknown'", round, roles)
		}
		after, _ := rt.Journal().Messages(ctx, s.ID())
		var synthesized int
		for _, m := range after {
			if strings.Contains(string(m.Content), "outcome unknown") {
				synthesized++
			}
		}
		if synthesized != 1 {
			t.Errorf("round %d: the journal holds %d 'outcome unknown' answers, want exactly 1", round, synthesized)
		}
		if round == 0 && len(after) != len(before)+1+2 { // the answer, then the new user and assistant messages
			t.Errorf("round %d: journal has %d messages, want %d", round, len(after), len(before)+3)
		}
		rt.Close()
	}
}

// A session with a turn running in another live process is not continued
// here: two processes would interleave one history.
func TestResumeRefusedWhileRunningElsewhere(t *testing.T) {
	ctx := context.Background()
	echo := &testTool{name: "test.echo", risk: tool.ReadOnly}
	e := newEnv(t, envOpts{tools: []tool.Tool{echo}, selected: []string{"test.echo"}, replies: []modeltest.Reply{{Text: "hi"}}})
	s, _, err := e.send("first")
	if err != nil {
		t.Fatal(err)
	}
	// The first runtime's journal stands for the other process: it starts a turn.
	if err := e.rt.Journal().StartTurn(ctx, journal.Turn{ID: "trn_elsewhere", SessionID: s.ID(), Prompt: "busy"}); err != nil {
		t.Fatal(err)
	}
	reg := tool.NewRegistry()
	if err := reg.Register(echo); err != nil {
		t.Fatal(err)
	}
	rt, err := harness.Open(ctx, reg, harness.Options{Coworkers: e.bundles, DBPath: e.db, Model: e.provider, Approve: "bypass"})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	if _, err := rt.ResumeSession(ctx, s.ID()); err == nil || !strings.Contains(err.Error(), "running in another OpenWorker process") {
		t.Fatalf("ResumeSession while another process runs a turn = %v; want a refusal", err)
	}
	if err := e.rt.Journal().FinishTurn(ctx, "trn_elsewhere", journal.TurnCompleted, "", 1, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := rt.ResumeSession(ctx, s.ID()); err != nil {
		t.Fatalf("ResumeSession after the other turn ended = %v", err)
	}
}
