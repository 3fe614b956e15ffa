package mcptest

import (
	"context"
	"encoding/json"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// SampleServer is a server whose tool asks the host's model for a
// completion (docs/mcp.md#sampling), for the app's end-to-end test
// (scripts/app-e2e.sh): "summarize" with {"text": "..."} sends one
// sampling request (system prompt "Summarize in one sentence.", the user
// message "Summarize: TEXT", at most 200 tokens) and returns
// "summary by MODEL: ANSWER", or "not summarized: ..." when the answer
// holds no text. The request travels as a multi round-trip input request
// (MCP 2026-07-28).
func SampleServer() *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: "sample-server", Version: "1.0.0"}, nil)
	schema := json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)
	srv.AddTool(&sdk.Tool{Name: "summarize", Description: "Summarizes a text with your model.", InputSchema: schema,
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			r, ok := req.Params.InputResponses["s"]
			if !ok {
				var in struct{ Text string }
				_ = json.Unmarshal(req.Params.Arguments, &in)
				return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{"s": &sdk.CreateMessageWithToolsParams{
					MaxTokens: 200, SystemPrompt: "Summarize in one sentence.",
					Messages: []*sdk.SamplingMessageV2{{Role: "user", Content: []sdk.Content{&sdk.TextContent{Text: "Summarize: " + in.Text}}}},
				}}}, nil
			}
			raw, _ := json.Marshal(r)
			var ans struct {
				Model   string          `json:"model"`
				Content json.RawMessage `json:"content"`
			}
			_ = json.Unmarshal(raw, &ans)
			var blocks []struct{ Type, Text string }
			if json.Unmarshal(ans.Content, &blocks) != nil { // one block, not a list
				var b struct{ Type, Text string }
				_ = json.Unmarshal(ans.Content, &b)
				blocks = append(blocks, b)
			}
			for _, b := range blocks {
				if b.Type == "text" && b.Text != "" {
					return text(fmt.Sprintf("summary by %s: %s", ans.Model, b.Text)), nil
				}
			}
			return text("not summarized: " + string(raw)), nil
		})
	return srv
}

// ServeSample serves SampleServer on stdin and stdout until ctx ends or stdin closes.
func ServeSample(ctx context.Context) error {
	return SampleServer().Run(ctx, &sdk.StdioTransport{})
}
