package harness_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// recordingPrompter allows every call once and keeps each request.
type recordingPrompter struct {
	mu   sync.Mutex
	reqs []consent.Request
}

func (p *recordingPrompter) Prompt(_ context.Context, r consent.Request) (consent.Decision, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reqs = append(p.reqs, r)
	return consent.AllowOnce, nil
}

// TestPlacementOnThisComputer: a native tool, a stdio provider and a
// streamable HTTP provider on 127.0.0.1 all run "on this computer": the
// resolved tools, every consent prompt and every journaled invocation
// (run or refused) say so.
func TestPlacementOnThisComputer(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "lights", Version: "1.0.0"}, nil)
	srv.AddTool(&sdk.Tool{Name: "switch", Description: "switches the lamp",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"on":{"type":"boolean"}},"additionalProperties":false}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "switched"}}}, nil
		})
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(hs.Close)

	p := &recordingPrompter{}
	e := newEnv(t, envOpts{
		tools:    []tool.Tool{&testTool{name: "test.echo", risk: tool.ReadOnly}},
		servers:  []tool.MCPServer{namesMCP(t), {Namespace: "lights", Transport: tool.TransportStreamableHTTP, URL: hs.URL}},
		selected: []string{"test.echo", "names.ok_tool", "lights.switch"},
		mode:     consent.Ask, prompter: p,
		replies: []modeltest.Reply{
			{ToolCalls: []model.ToolCall{
				call("c1", "test__echo", `{"text":"hi"}`),
				call("c2", "names__ok_tool", `{}`),
				call("c3", "lights__switch", `{"on":true}`),
				call("c4", "lights__switch", `{"dim":3}`), // refused: invalid arguments
			}},
			{Text: "done"},
		},
	})
	s, res, err := e.send("go")
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("Send = %+v, %v", res, err)
	}
	for _, rt := range s.Tools() {
		if rt.Placement != tool.PlacementLocal {
			t.Errorf("resolved %s placement = %q; want %q", rt.Name, rt.Placement, tool.PlacementLocal)
		}
	}
	var prompted []string
	for _, r := range p.reqs {
		prompted = append(prompted, r.Tool)
		if r.Placement != tool.PlacementLocal {
			t.Errorf("prompt for %s placement = %q; want %q", r.Tool, r.Placement, tool.PlacementLocal)
		}
	}
	sort.Strings(prompted)
	if len(prompted) != 3 {
		t.Errorf("prompts = %v; want one per valid call", prompted)
	}
	invs := e.invocations(s.ID())
	if len(invs) != 4 {
		t.Fatalf("invocations = %+v; want 4", invs)
	}
	for _, inv := range invs {
		if inv.Placement != tool.PlacementLocal {
			t.Errorf("journaled %s (%s) placement = %q; want %q", inv.Tool, inv.Status, inv.Placement, tool.PlacementLocal)
		}
	}
	if rep, err := e.rt.Journal().Verify(context.Background()); err != nil || !rep.OK {
		t.Errorf("Verify = %+v, %v", rep, err)
	}
}
