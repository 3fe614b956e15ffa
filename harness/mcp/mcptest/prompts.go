package mcptest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// PromptsServer offers prompts (docs/mcp.md#prompts) and one tool, "ping":
//   - "brief": argument "topic" (required) and "tone" (optional); a user
//     message "Write a brief about <topic>." (plus " Tone: <tone>." when
//     given);
//   - "review": no arguments; a user message, an assistant message and a
//     user message with an image (PNG);
//   - "huge": no arguments; 70 KiB of text, past the 64 KiB bound;
//   - "broken": no arguments; the server's error answer;
//   - extra "filler-NNN" prompts (no arguments), to pass the listing bound.
func PromptsServer(filler int) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "prompts", Version: "1.0.0"}, nil)
	text := func(role sdk.Role, t string) *sdk.PromptMessage {
		return &sdk.PromptMessage{Role: role, Content: &sdk.TextContent{Text: t}}
	}
	s.AddPrompt(&sdk.Prompt{Name: "brief", Title: "Brief", Description: "Write a brief about a topic",
		Arguments: []*sdk.PromptArgument{{Name: "topic", Description: "what the brief is about", Required: true}, {Name: "tone", Description: "formal or casual"}}},
		func(_ context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			t := "Write a brief about " + req.Params.Arguments["topic"] + "."
			if tone := req.Params.Arguments["tone"]; tone != "" {
				t += " Tone: " + tone + "."
			}
			return &sdk.GetPromptResult{Description: "a brief", Messages: []*sdk.PromptMessage{text("user", t)}}, nil
		})
	s.AddPrompt(&sdk.Prompt{Name: "review", Description: "Review a screenshot"},
		func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{
				text("user", "Here is the screen."),
				text("assistant", "I see a login form."),
				{Role: "user", Content: &sdk.ImageContent{MIMEType: "image/png", Data: PNG}},
			}}, nil
		})
	s.AddPrompt(&sdk.Prompt{Name: "huge", Description: "Too long"},
		func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{text("user", strings.Repeat("x", 70<<10))}}, nil
		})
	s.AddPrompt(&sdk.Prompt{Name: "broken", Description: "Always fails"},
		func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return nil, fmt.Errorf("the template store is down")
		})
	for i := range filler {
		s.AddPrompt(&sdk.Prompt{Name: fmt.Sprintf("filler-%03d", i)},
			func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
				return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{text("user", "filler")}}, nil
			})
	}
	sdk.AddTool(s, &sdk.Tool{Name: "ping", Description: "answers pong"},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, struct{}, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "pong"}}}, struct{}{}, nil
		})
	return s
}

// ServePrompts serves PromptsServer(filler) over streamable HTTP on
// 127.0.0.1 and returns its MCP URL; close stops it.
func ServePrompts(filler int) (url string, close func()) {
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return PromptsServer(filler) }, nil)
	srv := httptest.NewServer(h)
	return srv.URL + "/mcp", srv.Close
}
