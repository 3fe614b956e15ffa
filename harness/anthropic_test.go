package harness_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// The same turn through Anthropic Messages: tool calls run, results and
// is_error results reach the model, the journal records the calls.
func TestAnthropicEndToEnd(t *testing.T) {
	echo := &testTool{name: "test.echo", risk: tool.ReadOnly}
	find := &testTool{name: "test.find", risk: tool.ReadOnly, fn: func(context.Context, *tool.Call, json.RawMessage) (tool.Output, error) {
		return tool.Output{}, tool.Errorf("not_found", "no lamp named kitchen")
	}}
	e := newEnv(t, envOpts{
		anthropic: true, tools: []tool.Tool{echo, find}, selected: []string{"test.echo", "test.find"},
		replies: []modeltest.Reply{
			{Text: "Let me check.", ToolCalls: []model.ToolCall{call("", "test__echo", `{"text":"hi"}`), call("", "test__find", `{}`)}},
			{Text: "The echo said hi; the kitchen lamp does not exist."},
		},
	})
	s, res, err := e.send("check")
	if err != nil || res.Status != harness.TurnCompleted || res.Text != "The echo said hi; the kitchen lamp does not exist." {
		t.Fatalf("Send = %+v, %v", res, err)
	}
	reqs := e.model.Requests()
	if len(reqs) != 2 || reqs[0].Kind != modeltest.Anthropic || !strings.Contains(reqs[0].System, "You are a test coworker") {
		t.Fatalf("requests = %+v; want 2 Anthropic requests with the manifest as system", reqs)
	}
	if got := strings.Join(reqs[0].ToolNames(), ","); got != "test__echo,test__find" {
		t.Fatalf("tools offered = %s", got)
	}
	tr := reqs[1].ToolResults()
	if len(tr) != 2 || tr[0].IsError || !strings.Contains(tr[0].Text, `"echo":"hi"`) || !tr[1].IsError || !strings.Contains(tr[1].Text, "no lamp named kitchen") {
		t.Fatalf("tool results = %+v; want the echo and an is_error result", tr)
	}
	invs := e.invocations(s.ID())
	if len(invs) != 2 || invs[0].Status != "succeeded" || invs[1].Status != "failed" || invs[1].ErrorCode != "not_found" {
		t.Fatalf("invocations = %+v", invs)
	}
	if len(e.eventsOf(harness.EventText)) == 0 {
		t.Fatal("no assistant.delta events: the reply was not streamed")
	}
}

// docs/registry.md, docs/turns.md: every alias is checked at session open against the
// provider's tool-name rules; an alias of 65-80 bytes is a valid name but
// fails NewSession with a clear error, never an HTTP 400 mid-turn.
func TestLongAliasFailsSessionOpen(t *testing.T) {
	name := "long." + strings.Repeat("x", 59) // alias long__xxx… is 65 bytes
	for _, anthropic := range []bool{false, true} {
		long := &testTool{name: name, risk: tool.ReadOnly}
		e := newEnv(t, envOpts{anthropic: anthropic, tools: []tool.Tool{long}, selected: []string{name}})
		_, err := e.rt.NewSession(context.Background(), "tester", e.so)
		if err == nil || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "64") {
			t.Fatalf("anthropic=%v: NewSession = %v; want an error naming the tool and the 64-byte rule", anthropic, err)
		}
		if n := len(e.model.Requests()); n != 0 {
			t.Fatalf("the model got %d requests; the session must fail before any", n)
		}
	}
}
