package harness_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/mcp/mcptest"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// addAudienceTool adds "shown", whose result holds a text block and an
// image for the user only, a text for the assistant only and a text for
// both.
func addAudienceTool(s *sdk.Server) {
	user := &sdk.Annotations{Audience: []sdk.Role{"user"}}
	sdk.AddTool(s, &sdk.Tool{Name: "shown", Description: "shows the person a chart", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{
				&sdk.TextContent{Text: "Chart shown."},
				&sdk.TextContent{Text: "PERSONAL-NOTE for the person only", Annotations: user},
				&sdk.ImageContent{MIMEType: "image/png", Data: mcptest.PNG, Annotations: user},
				&sdk.TextContent{Text: "Model hint: the chart covers Q3.", Annotations: &sdk.Annotations{Audience: []sdk.Role{"assistant"}}},
				&sdk.TextContent{Text: "Both may read this.", Annotations: &sdk.Annotations{Audience: []sdk.Role{"user", "assistant"}}},
			}}, nil, nil
		})
}

// Content a server marks `audience: ["user"]` never reaches the model, in
// either API: not its text, not its image; the model reads a line saying
// there was such a block. The journal and the tool.finished event keep
// every block, each with its audience, for the person
// (docs/mcp.md#audience).
func TestUserOnlyContentNeverReachesTheModel(t *testing.T) {
	for _, anthropic := range []bool{false, true} {
		t.Run(fmt.Sprintf("anthropic=%v", anthropic), func(t *testing.T) {
			e := newEnv(t, envOpts{anthropic: anthropic,
				servers:  []tool.MCPServer{sdkServer(t, "charts", "charts", "", addAudienceTool)},
				selected: []string{"charts.shown"},
				replies: []modeltest.Reply{
					{ToolCalls: []model.ToolCall{call("c1", "charts__shown", `{}`)}},
					{Text: "done"},
				}})
			s, res, err := e.send("show me")
			if err != nil || res.Status != harness.TurnCompleted {
				t.Fatalf("turn = %+v, %v; want completed", res, err)
			}
			reqs := e.model.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d model requests, want 2", len(reqs))
			}
			for i, r := range reqs {
				if strings.Contains(string(r.Body), "PERSONAL-NOTE") {
					t.Errorf("model request %d holds the user-only text:\n%s", i, r.Body)
				}
				for _, m := range r.Messages {
					if len(m.Images) > 0 {
						t.Errorf("model request %d sends %d images; the only image is for the user", i, len(m.Images))
					}
				}
			}
			tr := reqs[1].ToolResults()
			if len(tr) != 1 {
				t.Fatalf("the model got %d tool results, want 1", len(tr))
			}
			want := "Chart shown.\n[text content for the user only, not shown to you]\n[image content for the user only, not shown to you]\nModel hint: the chart covers Q3.\nBoth may read this."
			if tr[0].Text != want || len(tr[0].Images) != 0 {
				t.Errorf("the model got %q with %d images; want %q and none", tr[0].Text, len(tr[0].Images), want)
			}

			invs := e.invocations(s.ID())
			if len(invs) != 1 || invs[0].Status != harness.StatusSucceeded {
				t.Fatalf("invocations = %+v; want one succeeded", invs)
			}
			mustHave(t, "journaled result", string(invs[0].Result),
				`{"type":"text","text":"PERSONAL-NOTE for the person only","audience":"user"}`,
				`{"type":"image","mime_type":"image/png","bytes":`, `,"audience":"user"}`,
				`{"type":"text","text":"Model hint: the chart covers Q3.","audience":"assistant"}`,
				`{"type":"text","text":"Both may read this."}`, `"images":[{"mime_type":"image/png"`)
			finished := e.eventsOf(harness.EventToolFinished)
			if len(finished) != 1 || len(finished[0].Content) != 5 || finished[0].Content[1].Audience != tool.AudienceUser ||
				finished[0].Content[2].Audience != tool.AudienceUser || len(finished[0].Images) != 1 {
				t.Errorf("tool.finished = %+v; want the 5 blocks, the 2nd and 3rd for the user, and the image for the app", finished)
			}
		})
	}
}
