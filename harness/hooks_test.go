package harness_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// factTool is a testTool with a ModelContext hook.
type factTool struct {
	*testTool
	fact  func(n int32) json.RawMessage
	asked atomic.Int32
}

func (f *factTool) ModelContext(string) json.RawMessage { return f.fact(f.asked.Add(1)) }

// finisher is a testTool with a TurnFinished hook (and Revoke).
type finisher struct {
	*testTool
}

func (f finisher) TurnFinished(sessionID string, completed bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.finished = append(f.finished, completed)
}

func (t *testTool) hookLog() (revoked int, finished []bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.revoked), append([]bool(nil), t.finished...)
}

// jsonString returns a JSON string value of exactly n bytes.
func jsonString(n int, c string) json.RawMessage {
	return json.RawMessage(`"` + strings.Repeat(c, n-2) + `"`)
}

// docs/turns.md: model_context facts are refreshed on every provider attempt,
// only for selected tools, bounded to 4 KB per tool and 16 KB in total,
// and never journaled as history. The 50 ms budget is widened so that no
// fact here is dropped for time on a loaded machine;
// TestModelContextBudget checks the budget itself on synctest's clock.
func TestModelContextFacts(t *testing.T) {
	t.Cleanup(harness.SetModelContextBudget(time.Hour))
	live := &factTool{testTool: &testTool{name: "fact.live", risk: tool.ReadOnly}, fact: func(n int32) json.RawMessage {
		return json.RawMessage(fmt.Sprintf(`{"attempt_fact":%d}`, n))
	}}
	unselected := &factTool{testTool: &testTool{name: "fact.hidden"}, fact: func(int32) json.RawMessage { return json.RawMessage(`"HIDDEN-FACT"`) }}
	at := &factTool{testTool: &testTool{name: "fact.at"}, fact: func(int32) json.RawMessage { return jsonString(4096, "a") }}
	over := &factTool{testTool: &testTool{name: "fact.over"}, fact: func(int32) json.RawMessage { return jsonString(4097, "o") }}
	b := &factTool{testTool: &testTool{name: "fact.b"}, fact: func(int32) json.RawMessage { return jsonString(4096, "b") }}
	c := &factTool{testTool: &testTool{name: "fact.c"}, fact: func(int32) json.RawMessage { return jsonString(4096-len(`{"attempt_fact":1}`), "c") }}
	d := &factTool{testTool: &testTool{name: "fact.d"}, fact: func(int32) json.RawMessage { return jsonString(4096, "d") }}
	one := &factTool{testTool: &testTool{name: "fact.e"}, fact: func(int32) json.RawMessage { return json.RawMessage(`7`) }}
	e := newEnv(t, envOpts{
		tools: []tool.Tool{live, unselected, at, over, b, c, d, one},
		// In order: live (18 B) + at + b + c (4 KB - 18 B) + d fill 16 KB
		// exactly; the 1-byte fact of fact.e overflows.
		selected: []string{"fact.live", "fact.at", "fact.over", "fact.b", "fact.c", "fact.d", "fact.e"},
		replies: []modeltest.Reply{
			{ToolCalls: []model.ToolCall{call("c1", "fact__live", `{"text":"x"}`)}},
			{Text: "done"},
		},
	})
	s, res, err := e.send("go")
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("Send = %+v, %v", res, err)
	}
	reqs := e.model.Requests()
	if len(reqs) != 2 {
		t.Fatalf("model got %d requests, want 2", len(reqs))
	}
	for i, r := range reqs {
		if !strings.Contains(r.System, fmt.Sprintf(`{"attempt_fact":%d}`, i+1)) {
			t.Errorf("attempt %d system prompt lacks the fresh fact %d:\n%.300s", i+1, i+1, r.System)
		}
		for _, want := range []string{"fact__at: " + string(jsonString(4096, "a")), string(jsonString(4096, "b")), string(c.fact(0)), string(d.fact(0))} {
			if !strings.Contains(r.System, want) {
				t.Errorf("attempt %d system prompt lacks a fact within the bounds (%.40s…)", i+1, want)
			}
		}
		for _, bad := range []string{"HIDDEN-FACT", "ooooo", "fact__e"} {
			if strings.Contains(r.System, bad) {
				t.Errorf("attempt %d system prompt holds %q, which must be dropped", i+1, bad)
			}
		}
	}
	if unselected.asked.Load() != 0 {
		t.Errorf("ModelContext of an unselected tool was called %d times", unselected.asked.Load())
	}
	dropped := map[string]int{}
	for _, w := range e.warnings(s.ID()) {
		if w.Code == "model_context_dropped" {
			for _, name := range []string{"fact.over", "fact.d", "fact.e", "fact.at", "fact.b", "fact.c", "fact.live"} {
				if strings.Contains(w.Message, name+" ") {
					dropped[name]++
				}
			}
		}
	}
	want := map[string]int{"fact.over": 2, "fact.e": 2}
	if fmt.Sprint(dropped) != fmt.Sprint(want) {
		t.Errorf("dropped-fact warnings per tool = %v, want %v (one per attempt)", dropped, want)
	}
	for _, m := range e.messages(s.ID()) {
		if strings.Contains(string(m.Content), "attempt_fact") || strings.Contains(string(m.Content), "aaaa") {
			t.Fatalf("a fact was journaled as a message: %.200s", m.Content)
		}
	}
}

// docs/turns.md: a ModelContext hook is waited for 50 ms at most; one that
// blocks is dropped with a warning and the facts of the other tools are
// kept. The facts run in a synctest bubble: its clock advances only when
// every goroutine of the bubble is blocked, so the budget is exact
// whatever the machine's load.
func TestModelContextBudget(t *testing.T) {
	var release chan struct{} // made in the bubble: a hook blocked on it is durably blocked
	slow := &factTool{testTool: &testTool{name: "fact.slow"}, fact: func(int32) json.RawMessage {
		<-release
		return json.RawMessage(`"SLOW-FACT"`)
	}}
	before := &factTool{testTool: &testTool{name: "fact.before"}, fact: func(int32) json.RawMessage { return json.RawMessage(`"BEFORE-FACT"`) }}
	after := &factTool{testTool: &testTool{name: "fact.after"}, fact: func(int32) json.RawMessage { return json.RawMessage(`"AFTER-FACT"`) }}
	e := newEnv(t, envOpts{tools: []tool.Tool{before, slow, after}, selected: []string{"fact.before", "fact.slow", "fact.after"}})
	ctx := context.Background()
	s, err := e.rt.NewSession(ctx, "tester", e.so)
	if err != nil {
		t.Fatal(err)
	}
	facts, err := harness.FactsOf(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	synctest.Test(t, func(t *testing.T) {
		release = make(chan struct{})
		defer close(release)
		start := time.Now()
		got := facts(ctx)
		if took := time.Since(start); took != 50*time.Millisecond {
			t.Errorf("facts took %v of the bubble's clock, want exactly the 50ms budget of the one blocking hook", took)
		}
		for _, want := range []string{`- fact__before: "BEFORE-FACT"`, `- fact__after: "AFTER-FACT"`} {
			if !strings.Contains(got, want) {
				t.Errorf("facts = %q, want it to hold %q", got, want)
			}
		}
		if strings.Contains(got, "SLOW") || strings.Contains(got, "fact__slow") {
			t.Errorf("facts = %q, want the blocking hook dropped", got)
		}
	})
	if n := slow.asked.Load(); n != 1 {
		t.Errorf("the blocking hook was asked %d times, want 1", n)
	}
	var dropped []string
	for _, w := range e.warnings(s.ID()) {
		if w.Code == "model_context_dropped" {
			dropped = append(dropped, w.Message)
		}
	}
	if want := "model_context of fact.slow took longer than 50ms; dropped"; len(dropped) != 1 || dropped[0] != want {
		t.Errorf("dropped-fact warnings = %q, want [%q]", dropped, want)
	}
}

// docs/turns.md: TurnFinished ends every turn with completed true or false; a
// tool without it gets Revoke; cancellation and close call Revoke
// directly, hook or not.
func TestTurnFinishedAndRevoke(t *testing.T) {
	fin := finisher{&testTool{name: "hook.fin", risk: tool.ReadOnly}}
	plain := &testTool{name: "hook.plain", risk: tool.ReadOnly}
	started := make(chan struct{}, 1)
	slow := &testTool{name: "hook.slow", risk: tool.ReadOnly, fn: func(ctx context.Context, _ *tool.Call, _ json.RawMessage) (tool.Output, error) {
		started <- struct{}{}
		<-ctx.Done()
		return tool.Output{}, ctx.Err()
	}}
	e := newEnv(t, envOpts{
		tools: []tool.Tool{fin, plain, slow}, selected: []string{"hook.fin", "hook.plain", "hook.slow"}, maxCalls: 1,
		replies: []modeltest.Reply{
			{Text: "turn 1 completes"},
			// turn 2 stops over the budget of 1 call
			{ToolCalls: []model.ToolCall{call("a", "hook__plain", `{}`), call("b", "hook__plain", `{}`)}},
			// turn 3 is cancelled while hook.slow runs
			{ToolCalls: []model.ToolCall{call("c", "hook__slow", `{}`)}},
		},
	})
	s := e.open()
	if res, err := s.Send(context.Background(), "one", nil); err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("turn 1 = %+v, %v", res, err)
	}
	r, f := fin.hookLog()
	if fmt.Sprint(f) != "[true]" || r != 0 {
		t.Fatalf("after a completed turn: TurnFinished %v, Revoke %d; want [true] and no Revoke", f, r)
	}
	if r, _ := plain.hookLog(); r != 1 {
		t.Fatalf("a tool without TurnFinished got %d Revokes after the turn, want 1", r)
	}
	if res, err := s.Send(context.Background(), "two", nil); err != nil || res.Status != harness.TurnStopped {
		t.Fatalf("turn 2 = %+v, %v; want stopped", res, err)
	}
	if r, f := fin.hookLog(); fmt.Sprint(f) != "[true false]" || r != 0 {
		t.Fatalf("after a stopped turn: TurnFinished %v, Revoke %d; want [true false]", f, r)
	}
	go func() {
		<-started
		s.Cancel()
	}()
	if res, err := s.Send(context.Background(), "three", nil); err != nil || res.Status != harness.TurnCancelled {
		t.Fatalf("turn 3 = %+v, %v; want cancelled", res, err)
	}
	if r, f := fin.hookLog(); len(f) != 2 || r != 1 {
		t.Fatalf("after a cancelled turn: TurnFinished %v, Revoke %d; want Revoke called directly, no TurnFinished", f, r)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if r, f := fin.hookLog(); len(f) != 2 || r != 2 {
		t.Fatalf("after Close: TurnFinished %v, Revoke %d; want a second Revoke", f, r)
	}
}
