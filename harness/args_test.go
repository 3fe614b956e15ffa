package harness_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// seenPrompter records what the person was shown.
type seenPrompter struct {
	mu   sync.Mutex
	args []string
}

func (p *seenPrompter) Prompt(_ context.Context, r consent.Request) (consent.Decision, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.args = append(p.args, string(r.Arguments))
	return consent.AllowOnce, nil
}

// TestArgumentsAreNormalizedBeforeConsent proves the person, the journal and
// the tool see one normalized form: a raw carriage return between tokens (which
// could hide text on a terminal) is gone, keys are sorted, and duplicate keys
// (which a validator and a tool could read differently) are refused.
func TestArgumentsAreNormalizedBeforeConsent(t *testing.T) {
	var got []string
	echo := &testTool{name: "test.echo", risk: tool.ReadOnly, fn: func(_ context.Context, _ *tool.Call, args json.RawMessage) (tool.Output, error) {
		got = append(got, string(args))
		return tool.Output{Text: "ok"}, nil
	}}
	p := &seenPrompter{}
	e := newEnv(t, envOpts{
		tools: []tool.Tool{echo}, selected: []string{"test.echo"}, mode: consent.Ask, prompter: p,
		replies: []modeltest.Reply{
			{ToolCalls: []model.ToolCall{
				call("c1", "test__echo", "{  \"text\":\"rm -rf ~\u2028\"\r\n}"),
				call("c2", "test__echo", `{"text":"a","text":"b"}`),
			}},
			{Text: "done"},
		},
	})
	s, res, err := e.send("x")
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("Send = %+v, %v", res, err)
	}
	want := `{"text":"rm -rf ~\u2028"}` // U+2028 (a line break on some terminals) is escaped too
	if len(p.args) != 1 || p.args[0] != want || len(got) != 1 || got[0] != want {
		t.Fatalf("prompted %q, tool got %q; want both %q", p.args, got, want)
	}
	invs := e.invocations(s.ID())
	if len(invs) != 2 || string(invs[0].Arguments) != want {
		t.Fatalf("journaled %+v", invs)
	}
	if invs[1].Status != "refused" || !strings.Contains(invs[1].Error, `duplicate key "text"`) {
		t.Fatalf("duplicate keys: %+v, want refused naming the duplicate", invs[1])
	}
}

func TestTerminalControlsAreEscaped(t *testing.T) {
	echo := &testTool{name: "test.echo", risk: tool.ReadOnly}
	p := &seenPrompter{}
	e := newEnv(t, envOpts{
		tools: []tool.Tool{echo}, selected: []string{"test.echo"}, mode: consent.Ask, prompter: p,
		replies: []modeltest.Reply{
			{ToolCalls: []model.ToolCall{call("c1", "test__echo", "{\"text\":\"a\u009b2Kb\u202eevil\u202c\u007f\"}")}},
			{Text: "done"},
		},
	})
	if _, _, err := e.send("x"); err != nil {
		t.Fatal(err)
	}
	want := `{"text":"a\u009b2Kb\u202eevil\u202c\u007f"}`
	if len(p.args) != 1 || p.args[0] != want {
		t.Fatalf("prompted %q, want %q", p.args, want)
	}
}
