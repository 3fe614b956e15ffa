package mcptest

import (
	"context"
	"encoding/json"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// AskServer is a server whose tools ask the person questions
// (docs/mcp.md#elicitation), for the app's end-to-end test
// (scripts/app-e2e.sh): "signup" asks a form (name, required, at least 2
// characters; plan, an enum with a default) and returns
// "signed up NAME on PLAN", or "not signed up: ACTION"; "signin" asks to
// open https://login.example.com/ (URL mode) and returns the action. The
// questions travel as multi round-trip input requests (MCP 2026-07-28).
func AskServer() *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: "ask-server", Version: "1.0.0"}, nil)
	form := map[string]any{"type": "object", "required": []string{"name"}, "properties": map[string]any{
		"name": map[string]any{"type": "string", "title": "Your name", "minLength": 2},
		"plan": map[string]any{"type": "string", "title": "Plan", "enum": []string{"free", "pro"}, "enumNames": []string{"Free", "Pro"}, "default": "free"},
	}}
	ro := &sdk.ToolAnnotations{ReadOnlyHint: true}
	srv.AddTool(&sdk.Tool{Name: "signup", Description: "Signs you up; asks your name.", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: ro},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			r, ok := req.Params.InputResponses["q"]
			if !ok {
				return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{"q": &sdk.ElicitParams{Message: "Sign up for the example service.", RequestedSchema: form}}}, nil
			}
			var ans struct {
				Action  string
				Content struct{ Name, Plan string }
			}
			raw, _ := json.Marshal(r)
			_ = json.Unmarshal(raw, &ans)
			if ans.Action != "accept" {
				return text("not signed up: " + ans.Action), nil
			}
			return text(fmt.Sprintf("signed up %s on %s", ans.Content.Name, ans.Content.Plan)), nil
		})
	srv.AddTool(&sdk.Tool{Name: "signin", Description: "Signs you in on a web page.", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: ro},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			r, ok := req.Params.InputResponses["u"]
			if !ok {
				return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{"u": &sdk.ElicitParams{Mode: "url", Message: "Sign in to the example service.",
					URL: "https://login.example.com/authorize?client=openworker", ElicitationID: "signin-1"}}}, nil
			}
			raw, _ := json.Marshal(r)
			return text("signin answer " + string(raw)), nil
		})
	return srv
}

func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

// ServeAsk serves AskServer on stdin and stdout until ctx ends or stdin closes.
func ServeAsk(ctx context.Context) error {
	return AskServer().Run(ctx, &sdk.StdioTransport{})
}
