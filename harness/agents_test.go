package harness_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/a2a"
	"github.com/openworker/desktop/harness/a2a/a2atest"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/elicit"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

func startA2A(t *testing.T, opts a2atest.Options) *a2atest.Agent {
	t.Helper()
	return a2atest.New(t, opts)
}

// agentPrompter answers every prompt with d and keeps the requests.
type agentPrompter struct {
	d    consent.Decision
	mu   sync.Mutex
	reqs []consent.Request
}

func (p *agentPrompter) Prompt(_ context.Context, r consent.Request) (consent.Decision, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reqs = append(p.reqs, r)
	return p.d, nil
}

func (p *agentPrompter) requests() []consent.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]consent.Request(nil), p.reqs...)
}

// A turn calls three skills of a real A2A agent beside nothing else: the
// echo completes, ask needs input, fail fails; each is journaled with the
// agent's task ID as its handle and the card's digest as its descriptor
// digest, and the prompt shows where the call goes and the message.
// TestA2ATurn runs a turn against agents of A2A 0.3 and 1.0 (a2a-go's
// 0.3 server and v2's), streaming and not.
func TestA2ATurn(t *testing.T) {
	for _, v1 := range []bool{false, true} {
		for _, streaming := range []bool{true, false} {
			t.Run(fmt.Sprintf("v1=%v/streaming=%v", v1, streaming), func(t *testing.T) { a2aTurn(t, a2atest.Options{Streaming: streaming, V1: v1}) })
		}
	}
}

// instant is a clock whose waits are over at once: a call follows a task
// of an agent that does not stream with back-to-back tasks/get.
func instant(time.Duration) <-chan time.Time {
	c := make(chan time.Time, 1)
	c <- time.Time{}
	return c
}

func a2aTurn(t *testing.T, opts a2atest.Options) {
	ag := startA2A(t, opts)
	p := &agentPrompter{d: consent.AllowSession}
	e := newEnv(t, envOpts{
		a2a:      a2a.Options{After: instant},
		agents:   []tool.A2AAgent{{Namespace: "helper", Card: ag.CardURL}},
		selected: []string{"helper.echo", "helper.ask", "helper.fail"},
		mode:     consent.Ask,
		prompter: p,
		replies: []modeltest.Reply{
			{ToolCalls: []model.ToolCall{call("c1", "helper__echo", `{"text":"hello agent","data":{"n":1}}`)}},
			{ToolCalls: []model.ToolCall{call("c2", "helper__ask", `{"text":"weather?"}`)}},
			{ToolCalls: []model.ToolCall{call("c3", "helper__fail", `{"text":"x"}`)}},
			{Text: "done"},
		},
	})
	s, res, err := e.send("use the agent")
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("Send = %+v, %v", res, err)
	}
	card, err := a2a.Fetch(context.Background(), tool.A2AAgent{Namespace: "helper", Card: ag.CardURL}, a2a.Options{})
	if err != nil {
		t.Fatal(err)
	}
	invs := e.invocations(s.ID())
	if len(invs) != 3 {
		t.Fatalf("%d invocations, want 3", len(invs))
	}
	for i, want := range []struct{ status, code string }{{"succeeded", ""}, {"failed", a2a.CodeInputRequired}, {"failed", a2a.CodeFailed}} {
		inv := invs[i]
		if string(inv.Status) != want.status || inv.ErrorCode != want.code || inv.Provider != "a2a:helper" || inv.Placement != tool.PlacementLocal || inv.DescriptorDigest != card.Digest() {
			t.Errorf("invocation %d = %+v; want %s %s from a2a:helper with digest %s", i, inv, want.status, want.code, card.Digest())
		}
		h, err := e.rt.Journal().Handle(context.Background(), inv.ID)
		if err != nil || h == "" {
			t.Errorf("invocation %d has handle %q, %v; want the agent's task ID", i, h, err)
		}
		if i == 0 && !strings.Contains(string(inv.Result), h) {
			t.Errorf("the result %s does not name the task %s", inv.Result, h)
		}
	}
	if !strings.Contains(string(invs[0].Result), "echo: hello agent") || !strings.Contains(invs[1].Error, a2atest.Question) {
		t.Errorf("echo result %s; ask error %q", invs[0].Result, invs[1].Error)
	}
	reqs := p.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d prompts, want one per skill", len(reqs))
	}
	r := reqs[0]
	if r.Provider != "a2a:helper" || r.Placement != tool.PlacementLocal || r.Classification != "External" || !strings.Contains(string(r.Arguments), "hello agent") {
		t.Errorf("prompt %+v", r)
	}
	if got := e.model.Requests()[1].Messages; !strings.Contains(lastText(got), "echo: hello agent") {
		t.Errorf("the model was not given the artifact: %q", lastText(got))
	}
}

func lastText(ms []modeltest.RecordedMessage) string {
	if len(ms) == 0 {
		return ""
	}
	return ms[len(ms)-1].Text
}

// An "always" approval is for the card as it was: a changed card asks
// again.
func TestA2AChangedCardAsksAgain(t *testing.T) {
	ag := startA2A(t, a2atest.Options{Streaming: true})
	p := &agentPrompter{d: consent.AllowAlways}
	reply := modeltest.Reply{ToolCalls: []model.ToolCall{call("c1", "helper__echo", `{"text":"hi"}`)}}
	e := newEnv(t, envOpts{
		agents:   []tool.A2AAgent{{Namespace: "helper", Card: ag.CardURL}},
		selected: []string{"helper.echo"},
		mode:     consent.Ask,
		prompter: p,
		replies:  []modeltest.Reply{reply, {Text: "1"}, reply, {Text: "2"}, reply, {Text: "3"}},
	})
	for i, want := range []int{1, 1, 2} {
		if i == 2 {
			ag.SetVersion("2.0.0")
		}
		if _, res, err := e.send("echo"); err != nil || res.Status != harness.TurnCompleted {
			t.Fatalf("turn %d: %+v, %v", i, res, err)
		}
		if n := len(p.requests()); n != want {
			t.Errorf("after turn %d: %d prompts, want %d", i, n, want)
		}
	}
}

// The call bound ends a slow task: tasks/cancel reaches the agent, the
// invocation is unknown with the task ID as its handle, and nothing
// hangs.
func TestA2ASlowCallBounded(t *testing.T) {
	ag := startA2A(t, a2atest.Options{Streaming: true})
	e := newEnv(t, envOpts{
		agents:   []tool.A2AAgent{{Namespace: "helper", Card: ag.CardURL, Timeout: 500 * time.Millisecond}},
		selected: []string{"helper.slow"},
		replies:  []modeltest.Reply{{ToolCalls: []model.ToolCall{call("c1", "helper__slow", `{"text":"x"}`)}}, {Text: "never"}},
	})
	var s *harness.Session
	within(t, hangGuard, "the bounded turn", func() { s, _, _ = e.send("slow") })
	invs := e.invocations(s.ID())
	if len(invs) != 1 || invs[0].Status != "unknown" || invs[0].ErrorCode != "limit_exceeded" || !strings.Contains(invs[0].Error, "was sent tasks/cancel; the agent says it is canceled") {
		t.Fatalf("invocations %+v", invs)
	}
	h, _ := e.rt.Journal().Handle(context.Background(), invs[0].ID)
	select {
	case id := <-ag.Canceled():
		if id != h {
			t.Errorf("the agent canceled %s; the journal's handle is %s", id, h)
		}
	case <-time.After(hangGuard):
		t.Fatal("the agent never got tasks/cancel")
	}
}

// A skill namespace that is native already fails startup naming both.
func TestA2ANamespaceCollision(t *testing.T) {
	reg := tool.NewRegistry()
	if err := reg.Register(&testTool{name: "helper.echo"}); err != nil {
		t.Fatal(err)
	}
	err := reg.RegisterA2A(tool.A2AAgent{Namespace: "helper", Card: "http://127.0.0.1:1/.well-known/agent-card.json"})
	if err == nil || !strings.Contains(err.Error(), `native tool "helper.echo"`) || !strings.Contains(err.Error(), `A2A agent "helper"`) {
		t.Fatalf("RegisterA2A = %v", err)
	}
	if _, err := harness.Open(context.Background(), reg, harness.Options{DBPath: t.TempDir() + "/j.db"}); err == nil || !strings.Contains(err.Error(), `native tool "helper.echo"`) {
		t.Fatalf("Open = %v; want the startup to fail naming both", err)
	}
}

// An agent's question (input-required) is asked with the elicitation
// dialog: the person's answer goes to the same task as its next message,
// the question is journaled without the answer, and in bypass mode it is
// never asked (the call ends with the question as an error result).
func TestA2AQuestionAsked(t *testing.T) {
	ag := startA2A(t, a2atest.Options{Streaming: true})
	el := &scriptedElicitor{answers: []func(context.Context, elicit.Question) (elicit.Answer, error){answer(elicit.Accept, map[string]any{"answer": "Paris"})}}
	reply := modeltest.Reply{ToolCalls: []model.ToolCall{call("c1", "helper__ask", `{"text":"weather?"}`)}}
	for _, mode := range []consent.Mode{consent.Ask, consent.Bypass} {
		e := newEnv(t, envOpts{
			agents:   []tool.A2AAgent{{Namespace: "helper", Card: ag.CardURL}},
			selected: []string{"helper.ask"},
			mode:     mode,
			prompter: &agentPrompter{d: consent.AllowOnce},
			replies:  []modeltest.Reply{reply, {Text: "ok"}},
		})
		e.so.Elicitor = el
		s, res, err := e.send("weather")
		if err != nil || res.Status != harness.TurnCompleted {
			t.Fatalf("%s: %+v, %v", mode, res, err)
		}
		inv := e.invocations(s.ID())[0]
		els, err := e.rt.Journal().Elicitations(context.Background(), inv.ID)
		if err != nil || len(els) != 1 {
			t.Fatalf("%s: elicitations %+v, %v", mode, els, err)
		}
		if mode == consent.Ask {
			if inv.Status != "succeeded" || !strings.Contains(string(inv.Result), "answer: Paris") || els[0].Action != "accept" || els[0].Namespace != "helper" {
				t.Errorf("asked: invocation %+v, elicitation %+v", inv, els[0])
			}
			if q := el.questions(); len(q) != 1 || q[0].Message != a2atest.Question {
				t.Errorf("questions %+v", q)
			}
			if strings.Contains(fmt.Sprint(els[0]), "Paris") {
				t.Errorf("the journal kept the answer: %+v", els[0])
			}
		} else if inv.Status != "failed" || inv.ErrorCode != a2a.CodeInputRequired || els[0].Source != journal.ElicitByBypass || len(el.questions()) != 1 {
			t.Errorf("bypass: invocation %+v, elicitation %+v", inv, els[0])
		}
	}
}

// tools.json version 1 names a whole agent: every skill of its card.
func TestA2AWholeAgent(t *testing.T) {
	ag := startA2A(t, a2atest.Options{Streaming: true})
	e := newEnv(t, envOpts{agents: []tool.A2AAgent{{Namespace: "helper", Card: ag.CardURL}}, replies: []modeltest.Reply{{Text: "hi"}}})
	if err := os.WriteFile(filepath.Join(e.bundles, "tester", "coworker", "tools.json"), []byte(`{"version":1,"mcp":["helper"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, res, err := e.send("hi"); err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("%+v %v", res, err)
	}
	offered := e.model.Requests()[0].ToolNames()
	if strings.Join(offered, ",") != "helper__ask,helper__echo,helper__fail,helper__slow" {
		t.Errorf("offered %v", offered)
	}
}

// A session that used an agent resumes while its card is the same, and
// is refused, naming the skill, once the card changed (docs/identity.md).
func TestA2AResumeAndChangedCard(t *testing.T) {
	ag := startA2A(t, a2atest.Options{Streaming: true})
	agents := []tool.A2AAgent{{Namespace: "helper", Card: ag.CardURL}}
	e := newEnv(t, envOpts{agents: agents, selected: []string{"helper.echo"},
		replies: []modeltest.Reply{{ToolCalls: []model.ToolCall{call("c1", "helper__echo", `{"text":"x"}`)}}, {Text: "done"}}})
	s, res, err := e.send("echo")
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("%+v %v", res, err)
	}
	reopen := func() *harness.Runtime {
		reg := tool.NewRegistry()
		if err := reg.RegisterA2A(agents[0]); err != nil {
			t.Fatal(err)
		}
		rt, err := harness.Open(context.Background(), reg, harness.Options{Coworkers: e.bundles, Journal: e.rt.Journal()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rt.Close() })
		return rt
	}
	so := harness.SessionOptions{Model: e.provider, Approve: consent.Bypass}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	rs, err := reopen().ResumeSession(context.Background(), s.ID(), so)
	if err != nil {
		t.Fatalf("resume with the same card: %v", err)
	}
	rs.Close()
	ag.SetVersion("9.9.9")
	_, err = reopen().ResumeSession(context.Background(), s.ID(), so)
	var ice *harness.IdentityChangedError
	if !errors.As(err, &ice) || !strings.Contains(err.Error(), "helper.echo") {
		t.Fatalf("resume after the card changed = %v; want an IdentityChangedError naming helper.echo", err)
	}
	t.Log(err)
}
