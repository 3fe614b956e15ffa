package harness_test

import (
	"context"
	"sync"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// seqPrompter answers the prompts in order with its decisions and records
// the tools it was asked about.
type seqPrompter struct {
	mu    sync.Mutex
	next  []consent.Decision
	asked []string
}

func (p *seqPrompter) Prompt(_ context.Context, r consent.Request) (consent.Decision, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asked = append(p.asked, r.Tool)
	if len(p.next) == 0 {
		return consent.Deny, nil
	}
	d := p.next[0]
	p.next = p.next[1:]
	return d, nil
}

func (p *seqPrompter) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.asked)
}

// A "Never" answer (docs/consent.md#never) denies the call and saves a deny
// policy in the journal file: the coworker's next call of the tool, in a
// new chat, is denied without a prompt and the model gets the denial as a
// tool result; once the answer is revoked (saved as "ask", as Settings and
// `journal revoke` do) the next call asks again.
func TestNeverDeniesWithoutAskingUntilRevoked(t *testing.T) {
	echo := &testTool{name: "test.echo", risk: tool.ReadOnly}
	p := &seqPrompter{next: []consent.Decision{consent.DenyAlways, consent.AllowOnce}}
	e := newEnv(t, envOpts{
		tools: []tool.Tool{echo}, selected: []string{"test.echo"}, mode: consent.Ask, prompter: p,
		replies: []modeltest.Reply{
			{ToolCalls: []model.ToolCall{call("c1", "test__echo", `{"text":"a"}`)}}, {Text: "not allowed"},
			{ToolCalls: []model.ToolCall{call("c2", "test__echo", `{"text":"b"}`)}}, {Text: "still not"},
			{ToolCalls: []model.ToolCall{call("c3", "test__echo", `{"text":"c"}`)}}, {Text: "ran"},
		},
	})
	ctx := context.Background()
	s1, res, err := e.send("first")
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("Send = %+v, %v", res, err)
	}
	if as := e.approvals(s1.ID()); len(as) != 1 || as[0].Decision != "deny" || as[0].Source != consent.SourcePrompt || !contains(as[0].Reason, "Never") {
		t.Fatalf("approvals = %+v, want one prompt deny saying Never", as)
	}
	pols, err := e.rt.Journal().UserPolicies(ctx, "tester")
	if err != nil || len(pols) != 1 || pols[0].Tool != "test.echo" || pols[0].Policy != "deny" {
		t.Fatalf("UserPolicies = %+v, %v; want one deny of test.echo", pols, err)
	}

	s2, res, err := e.send("second")
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("Send = %+v, %v", res, err)
	}
	if n := p.count(); n != 1 {
		t.Fatalf("prompts = %d after the second chat, want 1 (Never asks no more)", n)
	}
	if as := e.approvals(s2.ID()); len(as) != 1 || as[0].Decision != "deny" || as[0].Source != consent.SourceUser {
		t.Fatalf("approvals = %+v, want one policy:user deny", as)
	}
	if invs := e.invocations(s2.ID()); len(invs) != 1 || invs[0].Status != "refused" {
		t.Fatalf("invocations = %+v, want one refused", invs)
	}
	reqs := e.model.Requests()
	last := reqs[len(reqs)-1].Messages
	if tm := last[len(last)-1]; tm.Role != "tool" || !contains(tm.Text, "Never") {
		t.Fatalf("the model's last message = %+v, want the denial as a tool result", tm)
	}
	if echo.calls.Load() != 0 {
		t.Fatalf("the tool ran %d times, want 0", echo.calls.Load())
	}

	// Revoke: saved as "ask", as Preferences.RevokePolicy and `journal revoke` do.
	if err := e.rt.Journal().SaveUserPolicy(ctx, "tester", "test.echo", pols[0].DescriptorDigest, string(consent.PolicyAsk)); err != nil {
		t.Fatal(err)
	}
	if _, res, err = e.send("third"); err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("Send = %+v, %v", res, err)
	}
	if n := p.count(); n != 2 || echo.calls.Load() != 1 {
		t.Fatalf("prompts = %d, calls = %d after revoking; want 2 and 1 (asked again, allowed once)", n, echo.calls.Load())
	}
}
