package harness_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// Bad model output becomes an error result with a clear journaled reason;
// nothing outside the selection runs and nothing crashes.
func TestBadToolCallsFromTheModel(t *testing.T) {
	echo := &testTool{name: "test.echo", risk: tool.ReadOnly}
	hidden := &testTool{name: "test.hidden", risk: tool.NonIdempotentWrite}
	e := newEnv(t, envOpts{
		tools: []tool.Tool{echo, hidden}, selected: []string{"test.echo"},
		replies: []modeltest.Reply{
			{ToolCalls: []model.ToolCall{
				call("c1", "test__echo", `{"text": "unterminated`),
				call("c2", "test__hidden", `{}`),
				call("c3", "test.hidden", `{}`),
				call("c4", "TEST__ECHO", `{}`),
				call("c5", "test__echo", `{"text": 42}`),
				call("c6", "test__echo", `{"text":"`+strings.Repeat("x", 101)+`"}`),
				call("c7", "test__echo", `null`),
				call("c8", "", `{}`), // an empty name: refused and journaled like the others (issue 40)
			}},
			{Text: "sorry"},
		},
	})
	s, res, err := e.send("misbehave")
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("Send = %+v, %v; want completed (refusals go back to the model)", res, err)
	}
	if echo.calls.Load() != 0 || hidden.calls.Load() != 0 {
		t.Fatalf("echo ran %d, hidden ran %d; want nothing run", echo.calls.Load(), hidden.calls.Load())
	}
	want := []struct{ code, says string }{
		{"invalid_arguments", "not valid JSON"},
		{"not_selected", `no tool "test__hidden"`},
		{"not_selected", `no tool "test.hidden"`},
		{"not_selected", `no tool "TEST__ECHO"`},
		{"invalid_arguments", "do not match the input schema of test__echo"},
		{"invalid_arguments", "do not match the input schema of test__echo"},
		{"invalid_arguments", "must be a JSON object"},
		{"not_selected", "the tool call has no name"},
	}
	invs := e.invocations(s.ID())
	if len(invs) != len(want) {
		t.Fatalf("got %d invocations, want %d", len(invs), len(want))
	}
	results := e.model.Requests()[1].ToolResults()
	for i, w := range want {
		if invs[i].Status != "refused" || invs[i].ErrorCode != w.code || !strings.Contains(invs[i].Error, w.says) {
			t.Errorf("invocation %d = %s/%s %q; want refused/%s saying %q", i, invs[i].Status, invs[i].ErrorCode, invs[i].Error, w.code, w.says)
		}
		if !strings.Contains(results[i].Text, w.code) {
			t.Errorf("tool result %d sent to the model = %q; want the %s reason", i, results[i].Text, w.code)
		}
	}
}

// 10,000 tool calls in one reply: at most MaxCalls run, one over_budget
// refusal is journaled, the turn stops (within sendWithin's hang guard),
// and memory stays bounded.
func TestTenThousandToolCalls(t *testing.T) {
	t.Run("selected", func(t *testing.T) { tenThousand(t, "test__echo") })
	// Refusals count against the budget too, so a model cannot make the
	// turn journal 10,000 refusals.
	t.Run("unknown alias", func(t *testing.T) { tenThousand(t, "no__such_tool") })
}

func tenThousand(t *testing.T, alias string) {
	echo := &testTool{name: "test.echo", risk: tool.ReadOnly}
	calls := make([]model.ToolCall, 10000)
	for i := range calls {
		calls[i] = call(fmt.Sprintf("c%d", i), alias, `{}`)
	}
	e := newEnv(t, envOpts{
		tools: []tool.Tool{echo}, selected: []string{"test.echo"},
		replies: []modeltest.Reply{{ToolCalls: calls, Chunk: 4096}, {Text: "never"}},
	})
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	// A hang guard, not a measure of speed (bench_test.go measures): the
	// turn took 33 s under -race on a loaded 2-core machine.
	s, res, err := e.sendWithin("flood", 5*time.Minute)
	took := time.Since(start)
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("10,000 calls: %v, %d MB allocated", took, (after.TotalAlloc-before.TotalAlloc)>>20)
	if res.Status != harness.TurnStopped || !strings.Contains(res.Reason, "budget of 64 tool calls") {
		t.Fatalf("result = %+v; want stopped over the budget", res)
	}
	wantRuns := int32(harness.DefaultMaxCalls)
	if alias != "test__echo" {
		wantRuns = 0
	}
	if n := echo.calls.Load(); n != wantRuns {
		t.Fatalf("tool ran %d times, want %d", n, wantRuns)
	}
	invs := e.invocations(s.ID())
	over := 0
	for _, inv := range invs {
		if inv.ErrorCode == "over_budget" {
			over++
		}
	}
	if over != 1 || len(invs) != harness.DefaultMaxCalls+1 || invs[len(invs)-1].ErrorCode != "over_budget" {
		t.Fatalf("%d invocations with %d over_budget refusals; want %d runs and 1 refusal", len(invs), over, harness.DefaultMaxCalls)
	}
	if n := len(e.model.Requests()); n != 1 {
		t.Fatalf("model got %d requests; the stopped turn must not ask again", n)
	}
	// user + assistant + one result per kept call: the journal stays small.
	if n := len(e.messages(s.ID())); n != 2+harness.DefaultMaxCalls+1 {
		t.Fatalf("journaled %d messages; want %d", n, 2+harness.DefaultMaxCalls+1)
	}
	var dropped bool
	for _, w := range e.warnings(s.ID()) {
		dropped = dropped || (w.Code == "tool_calls_dropped" && strings.Contains(w.Message, "10000 tool calls") && strings.Contains(w.Message, "last 9935"))
	}
	if !dropped {
		t.Fatalf("warnings = %+v; want tool_calls_dropped naming 10000 and 9935", e.warnings(s.ID()))
	}
	if heap := after.HeapAlloc >> 20; heap > 512 {
		t.Fatalf("heap after the turn is %d MB", heap)
	}
}
