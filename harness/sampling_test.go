package harness_test

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/openworker/desktop/harness/journal"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// samplerServer is a go-sdk MCP server over streamable HTTP on 127.0.0.1
// whose tools send sampling requests (multi round-trip input requests):
// sample_tools offers the model a tool; sample_loop asks again on every
// round; sample_once asks once and reports the answer.
func samplerServer(t *testing.T) tool.MCPServer {
	t.Helper()
	srv := sdk.NewServer(&sdk.Implementation{Name: "sampler-server", Version: "1.0.0"}, nil)
	msg := func(text string) []*sdk.SamplingMessageV2 {
		return []*sdk.SamplingMessageV2{{Role: "user", Content: []sdk.Content{&sdk.TextContent{Text: text}}}}
	}
	add := func(name string, reqs func() sdk.InputRequestMap, always bool) {
		srv.AddTool(&sdk.Tool{Name: name, Description: "samples", InputSchema: json.RawMessage(`{"type":"object"}`),
			Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
			func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				if len(req.Params.InputResponses) == 0 || always {
					return &sdk.CallToolResult{InputRequests: reqs()}, nil
				}
				raw, _ := json.Marshal(req.Params.InputResponses)
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "sampled: " + string(raw)}}}, nil
			})
	}
	add("sample_tools", func() sdk.InputRequestMap {
		return sdk.InputRequestMap{"s": &sdk.CreateMessageWithToolsParams{MaxTokens: 100, Messages: msg("Use the weather tool."),
			Tools: []*sdk.Tool{{Name: "weather", InputSchema: json.RawMessage(`{"type":"object"}`)}}}}
	}, false)
	n := 0
	add("sample_loop", func() sdk.InputRequestMap {
		n++
		return sdk.InputRequestMap{"s": &sdk.CreateMessageWithToolsParams{MaxTokens: 1_000_000, Messages: msg(fmt.Sprintf("Round %d.", n))}}
	}, true)
	add("sample_once", func() sdk.InputRequestMap {
		return sdk.InputRequestMap{"s": &sdk.CreateMessageWithToolsParams{MaxTokens: 1_000_000, SystemPrompt: "Be brief.", Messages: msg("Say hello.")}}
	}, false)
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	return tool.MCPServer{Namespace: "sampler", Transport: tool.TransportStreamableHTTP, URL: hs.URL}
}

func samplerEnv(t *testing.T, pr consent.Prompter, tool_ string, replies ...modeltest.Reply) *env {
	t.Helper()
	all := append([]modeltest.Reply{{ToolCalls: []model.ToolCall{call("c1", "sampler__"+tool_, `{}`)}}}, replies...)
	return newEnv(t, envOpts{servers: []tool.MCPServer{samplerServer(t)}, selected: []string{"sampler." + tool_},
		policy: "sampling: [sampler]\n", mode: consent.Ask, prompter: pr, replies: all})
}

// TestSamplingCapped: over MCP 2026-07-28 (the request travels with the
// call) the answer reaches the server; a maxTokens beyond the cap is
// capped at harness.MaxSamplingTokens, in the prompt and the model request.
func TestSamplingCapped(t *testing.T) {
	pr := &samplingPrompter{sampling: consent.AllowOnce}
	e := samplerEnv(t, pr, "sample_once", modeltest.Reply{Text: "Hello."}, modeltest.Reply{Text: "done"})
	s, res, err := e.send("Sample")
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("Send = %+v, %v", res, err)
	}
	calls, sampled := samplingRows(e.invocations(s.ID()))
	if len(calls) != 1 || !strings.Contains(string(calls[0].Result), `Hello.`) || len(sampled) != 1 || sampled[0].Status != harness.StatusSucceeded {
		t.Fatalf("calls %+v\nsampled %+v", calls, sampled)
	}
	ps := pr.prompts()
	if len(ps) != 1 || ps[0].Sampling.MaxTokens != harness.MaxSamplingTokens || ps[0].Sampling.AskedMaxTokens != 1_000_000 || ps[0].Sampling.SystemPrompt != "Be brief." {
		t.Errorf("prompt = %+v", ps)
	}
	if reqs := e.model.Requests(); len(reqs) != 3 || reqs[1].MaxTokens != harness.MaxSamplingTokens || len(reqs[1].Tools) != 0 {
		t.Errorf("model requests = %+v", reqs)
	}
}

// TestSamplingWithToolsRefused: a request offering tools is refused with
// a clear error before anyone is asked, and journaled.
func TestSamplingWithToolsRefused(t *testing.T) {
	pr := &samplingPrompter{sampling: consent.AllowOnce}
	e := samplerEnv(t, pr, "sample_tools", modeltest.Reply{Text: "done"})
	s, _, err := e.send("Sample")
	if err != nil {
		t.Fatal(err)
	}
	calls, sampled := samplingRows(e.invocations(s.ID()))
	if len(calls) != 1 || calls[0].Status == harness.StatusSucceeded || !strings.Contains(calls[0].Error, "sampling requests with tools are not supported") {
		t.Errorf("the call = %+v", calls)
	}
	if len(sampled) != 1 || sampled[0].ErrorCode != "tools_refused" || len(pr.prompts()) != 0 {
		t.Errorf("sampling rows = %+v; %d prompts", sampled, len(pr.prompts()))
	}
	if n := len(e.model.Requests()); n != 2 {
		t.Errorf("the model got %d requests, want 2", n)
	}
}

// TestSamplingLoopBounded: a server that asks on every round gets
// harness.MaxSamplingPerCall answers, then a refusal that ends the call.
func TestSamplingLoopBounded(t *testing.T) {
	pr := &samplingPrompter{sampling: consent.AllowOnce}
	var replies []modeltest.Reply
	for i := range harness.MaxSamplingPerCall {
		replies = append(replies, modeltest.Reply{Text: fmt.Sprintf("answer %d", i+1)})
	}
	replies = append(replies, modeltest.Reply{Text: "done"})
	e := samplerEnv(t, pr, "sample_loop", replies...)
	s, _, err := e.send("Sample")
	if err != nil {
		t.Fatal(err)
	}
	calls, sampled := samplingRows(e.invocations(s.ID()))
	if len(calls) != 1 || calls[0].Status == harness.StatusSucceeded {
		t.Errorf("the call = %+v", calls)
	}
	if len(sampled) != harness.MaxSamplingPerCall+1 || sampled[len(sampled)-1].ErrorCode != "limit_exceeded" {
		t.Fatalf("%d sampling rows, want %d, the last refused", len(sampled), harness.MaxSamplingPerCall+1)
	}
	for _, r := range sampled[:harness.MaxSamplingPerCall] {
		if r.Status != harness.StatusSucceeded || r.CallID != calls[0].ID {
			t.Errorf("sampling row %+v", r)
		}
	}
	if n := len(pr.prompts()); n != harness.MaxSamplingPerCall {
		t.Errorf("%d prompts, want %d", n, harness.MaxSamplingPerCall)
	}
}

// samplingPrompter allows every tool call and answers sampling prompts
// with sampling; it keeps the sampling prompts.
type samplingPrompter struct {
	sampling consent.Decision
	mu       sync.Mutex
	asked    []consent.Request
}

func (p *samplingPrompter) Prompt(_ context.Context, r consent.Request) (consent.Decision, error) {
	if r.Sampling == nil {
		return consent.AllowOnce, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asked = append(p.asked, r)
	return p.sampling, nil
}

func (p *samplingPrompter) prompts() []consent.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]consent.Request(nil), p.asked...)
}

// samplingRows splits a session's invocations into the calls and the
// sampling requests (tool harness.SamplingTool).
func samplingRows(invs []journal.Invocation) (calls, sampled []journal.Invocation) {
	for _, inv := range invs {
		if inv.Tool == harness.SamplingTool {
			sampled = append(sampled, inv)
		} else {
			calls = append(calls, inv)
		}
	}
	return calls, sampled
}

func approvalOf(as []journal.Approval, inv string) *journal.Approval {
	for i := range as {
		if as[i].InvocationID == inv {
			return &as[i]
		}
	}
	return nil
}

// TestSamplingNotAllowed: a server that sends a sampling request although
// the coworker's manifest does not list it under "sampling" (so the
// capability was not advertised) gets a refusal; no one is asked, the
// model is not called for it, and the call fails clearly.
func TestSamplingNotAllowed(t *testing.T) {
	pr := &samplingPrompter{sampling: consent.AllowOnce}
	e := newEnv(t, envOpts{servers: []tool.MCPServer{samplerServer(t)}, selected: []string{"sampler.sample_once"},
		mode: consent.Ask, prompter: pr, replies: []modeltest.Reply{
			{ToolCalls: []model.ToolCall{call("c1", "sampler__sample_once", `{}`)}}, {Text: "done"}}})
	s, _, err := e.send("Sample")
	if err != nil {
		t.Fatal(err)
	}
	calls, sampled := samplingRows(e.invocations(s.ID()))
	if len(calls) != 1 || calls[0].Status == harness.StatusSucceeded || calls[0].ErrorCode != "sampling_not_allowed" ||
		!strings.Contains(calls[0].Error, `list sampler under "sampling" in the coworker's manifest`) {
		t.Fatalf("the call = %+v", calls)
	}
	if len(sampled) != 0 {
		t.Errorf("sampling rows %+v: go-sdk refuses the request before the harness sees it", sampled)
	}
	if n := len(pr.prompts()); n != 0 {
		t.Errorf("%d sampling prompts, want 0", n)
	}
	if n := len(e.model.Requests()); n != 2 {
		t.Errorf("the model got %d requests, want 2 (none for sampling)", n)
	}
}
