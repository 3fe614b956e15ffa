package app

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// TestSamplingPrompt: a go-sdk server on 127.0.0.1 whose tool asks the
// model for a completion; the app shows the sampling request as a consent
// prompt (the messages, the system prompt, the model), refuses "for this
// session" as an answer, and after "once" the scripted model's answer
// reaches the server and so the chat.
func TestSamplingPrompt(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "asker", Version: "1.0.0"}, nil)
	srv.AddTool(&sdk.Tool{Name: "ask_model", Description: "asks the model", InputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			if len(req.Params.InputResponses) == 0 {
				return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{"s": &sdk.CreateMessageWithToolsParams{MaxTokens: 200, SystemPrompt: "Be brief.",
					Messages: []*sdk.SamplingMessageV2{{Role: "user", Content: []sdk.Content{&sdk.TextContent{Text: "Name the capital of France."}}}}}}}, nil
			}
			raw, _ := json.Marshal(req.Params.InputResponses["s"])
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "the model said: " + string(raw)}}}, nil
		})
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	reg := tool.NewRegistry()
	if err := reg.RegisterMCP(tool.MCPServer{Namespace: "asker", Transport: tool.TransportStreamableHTTP, URL: hs.URL}); err != nil {
		t.Fatal(err)
	}
	bundles := t.TempDir()
	writeBundle(t, bundles, "kit", "asker.ask_model")
	mpath := filepath.Join(bundles, "kit", "coworker", "manifest.md")
	raw, _ := os.ReadFile(mpath)
	os.WriteFile(mpath, []byte(strings.Replace(string(raw), "version: 1.0.0\n", "version: 1.0.0\nsampling: [asker]\n", 1)), 0o644)
	m := modeltest.NewOpenAI(t, modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "asker__ask_model", Arguments: `{}`}}},
		modeltest.Reply{Text: "Paris."}, modeltest.Reply{Text: "It is Paris."})
	rec := newRecorder()
	cfg := config{ConfigDir: t.TempDir(), Coworkers: bundles, BaseURL: m.URL, Model: "scripted", Getenv: func(string) string { return "" }}
	ctx, cancel := context.WithCancel(context.Background())
	a, err := newApp(ctx, reg, cfg, deps{Emitter: rec, Keychain: &memKeychain{keys: map[string]string{}}, Notifier: &countNotifier{}})
	if err != nil {
		t.Fatal(err)
	}
	a.startup()
	t.Cleanup(func() { a.shutdown(); cancel() })

	chat, err := a.Chats.OpenChat("kit")
	if err != nil {
		t.Fatal(err)
	}
	done := sendAsync(a, chat.SessionID, "Ask the server")
	p := rec.waitFor(t, EventApprovalRequest, nil).(PendingApproval)
	if p.Request.Sampling != nil || p.Request.Tool != "asker.ask_model" {
		t.Fatalf("first prompt = %+v; want the call", p.Request)
	}
	if err := a.Asks.RespondApproval(p.ID, "allow_once"); err != nil {
		t.Fatal(err)
	}
	sp := rec.waitFor(t, EventApprovalRequest, func(v any) bool { return v.(PendingApproval).Request.Sampling != nil }).(PendingApproval)
	sr := sp.Request.Sampling
	if sp.Request.Tool != "asker.ask_model" || sr.Namespace != "asker" || sr.SystemPrompt != "Be brief." || len(sr.Messages) != 1 ||
		sr.Messages[0].Text != "Name the capital of France." || sr.MaxTokens != 200 || !strings.Contains(sr.Model, "model scripted") {
		t.Fatalf("sampling prompt = %+v / %+v", sp.Request, sr)
	}
	if err := a.Asks.RespondApproval(sp.ID, "allow_session"); err == nil || !strings.Contains(err.Error(), "use allow_once or deny") {
		t.Errorf("allow_session on a sampling prompt = %v; want it refused", err)
	}
	if err := a.Asks.RespondApproval(sp.ID, "allow_once"); err != nil {
		t.Fatal(err)
	}
	res := waitResult(t, done)
	if res.Status != harness.TurnCompleted || res.Text != "It is Paris." {
		t.Fatalf("turn = %+v", res)
	}
	reqs := m.Requests()
	if len(reqs) != 3 || len(reqs[1].Tools) != 0 || !strings.Contains(reqs[2].LastMessage().Text, "Paris.") {
		t.Errorf("model requests: %d; sampling tools %d; the tool result %+v", len(reqs), len(reqs[1].Tools), reqs[len(reqs)-1].LastMessage())
	}
}
