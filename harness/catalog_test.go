package harness_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// docs/mcp.md, docs/consent.md: catalogs are rediscovered at turn preparation; a changed
// description or schema is a new descriptor that never inherits an
// approval, so the person is asked again and a catalog_changed warning is
// journaled; a tool the provider no longer lists is refused before I/O.
func TestCatalogChangeAsksAgain(t *testing.T) {
	var calls atomic.Int32
	srv := sdk.NewServer(&sdk.Implementation{Name: "lights", Version: "1.0.0"}, nil)
	setTool := func(desc, schema string) {
		srv.AddTool(&sdk.Tool{Name: "switch", Description: desc, InputSchema: json.RawMessage(schema)},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				calls.Add(1)
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "switched"}}}, nil
			})
	}
	setTool("switches the lamp", `{"type":"object"}`)
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(hs.Close)

	p := &fixedPrompter{d: consent.AllowSession}
	sw := func(id string) modeltest.Reply {
		return modeltest.Reply{ToolCalls: []model.ToolCall{call(id, "lights__switch", `{}`)}}
	}
	e := newEnv(t, envOpts{
		servers:  []tool.MCPServer{{Namespace: "lights", Transport: tool.TransportStreamableHTTP, URL: hs.URL}},
		selected: []string{"lights.switch"}, mode: consent.Ask, prompter: p,
		replies: []modeltest.Reply{
			sw("t1a"), sw("t1b"), {Text: "turn 1"},
			sw("t2"), {Text: "turn 2"},
			sw("t3"), {Text: "turn 3"},
			sw("t4"), {Text: "turn 4"},
		},
	})
	s := e.open()
	send := func(prompt string) *harness.TurnResult {
		t.Helper()
		res, err := s.Send(context.Background(), prompt, e.sink)
		if err != nil || res.Status != harness.TurnCompleted {
			t.Fatalf("%s: Send = %+v, %v", prompt, res, err)
		}
		return res
	}
	catalogWarnings := func() int {
		n := 0
		for _, w := range e.warnings(s.ID()) {
			if w.Code == "catalog_changed" && strings.Contains(w.Message, "lights.switch") {
				n++
			}
		}
		return n
	}

	send("turn 1")
	if p.count.Load() != 1 || calls.Load() != 2 {
		t.Fatalf("turn 1: prompts=%d calls=%d; want 1 prompt (then the session grant) and 2 calls", p.count.Load(), calls.Load())
	}
	if catalogWarnings() != 0 {
		t.Fatal("turn 1 warned of a catalog change")
	}

	setTool("switches the lamp and the heater", `{"type":"object"}`)
	send("turn 2")
	if p.count.Load() != 2 || calls.Load() != 3 {
		t.Fatalf("turn 2 (new description): prompts=%d calls=%d; want a new prompt", p.count.Load(), calls.Load())
	}
	if catalogWarnings() != 1 {
		t.Fatalf("warnings = %+v; want one catalog_changed", e.warnings(s.ID()))
	}
	if got := e.model.Requests()[3].Tools[0].Description; got != "switches the lamp and the heater" {
		t.Fatalf("the model was offered description %q; want the new one", got)
	}

	setTool("switches the lamp and the heater", `{"type":"object","properties":{"on":{"type":"boolean"}}}`)
	send("turn 3")
	if p.count.Load() != 3 || calls.Load() != 4 || catalogWarnings() != 2 {
		t.Fatalf("turn 3 (new schema): prompts=%d calls=%d warnings=%d; want a new prompt and a second warning", p.count.Load(), calls.Load(), catalogWarnings())
	}

	srv.RemoveTools("switch")
	send("turn 4")
	if calls.Load() != 4 || p.count.Load() != 3 {
		t.Fatalf("turn 4: calls=%d prompts=%d; a removed tool must be refused before consent and I/O", calls.Load(), p.count.Load())
	}
	invs := e.invocations(s.ID())
	last := invs[len(invs)-1]
	if last.Status != "refused" || last.ErrorCode != "descriptor_missing" {
		t.Fatalf("last invocation = %+v; want refused descriptor_missing", last)
	}
	var missing bool
	for _, w := range e.warnings(s.ID()) {
		missing = missing || w.Code == "tool_missing"
	}
	if !missing {
		t.Fatal("no tool_missing warning journaled")
	}
}
