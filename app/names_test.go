package app

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/tool"
)

// TestCoworkersCardShowsToolsLeftOut: a whole-provider bundle (version 1)
// whose provider, a streamable HTTP server on 127.0.0.1, lists a 70-byte
// tool name is listed with the good tool (on this computer) and a warning
// naming the tool left out and the rule; a chat with it offers the good
// tool only, and the journal keeps the warning (what Activity shows).
func TestCoworkersCardShowsToolsLeftOut(t *testing.T) {
	long := "read_" + strings.Repeat("very_", 11) + "long_names" // 70 bytes; alias 77
	srv := sdk.NewServer(&sdk.Implementation{Name: "names", Version: "1.0.0"}, nil)
	for _, name := range []string{"ok_tool", long} {
		sdk.AddTool(srv, &sdk.Tool{Name: name, Description: "answers"},
			func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil, nil
			})
	}
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	servers := filepath.Join(t.TempDir(), "servers.json")
	if err := os.WriteFile(servers, []byte(`{"servers": {"names": {"transport": "streamable_http", "url": "`+hs.URL+`"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t, envOpts{cfg: config{Servers: servers}})
	writeTools(t, e.bundles, "whole", `{"version": 1, "mcp": ["names"]}`)

	l, err := e.app.Coworkers.Coworkers()
	if err != nil {
		t.Fatal(err)
	}
	var whole *CoworkerInfo
	for i := range l.Coworkers {
		if l.Coworkers[i].ID == "whole" {
			whole = &l.Coworkers[i]
		}
	}
	if whole == nil {
		t.Fatalf("whole is not listed: %+v", l)
	}
	if len(whole.Tools) != 1 || whole.Tools[0] != (ResolvedToolInfo{Name: "names.ok_tool", Provider: "mcp:names", Placement: tool.PlacementLocal}) {
		t.Errorf("tools = %+v; want names.ok_tool on this computer", whole.Tools)
	}
	if len(whole.LeftOut) != 1 || whole.LeftOut[0].Tool != "names."+long ||
		!strings.Contains(whole.LeftOut[0].Message, "^[a-zA-Z0-9_-]{1,64}$") || !strings.Contains(whole.LeftOut[0].Message, "tools.json:1:24") {
		t.Errorf("left out = %+v; want the 70-byte tool with the rule and its place in tools.json", whole.LeftOut)
	}
	if other := l.Coworkers[0]; other.ID == "helper" && other.LeftOut == nil {
		t.Errorf("helper left_out is null; the UI gets [] for none")
	}

	chat, err := e.app.Chats.OpenChat("whole")
	if err != nil {
		t.Fatal(err)
	}
	if len(chat.Tools) != 1 || chat.Tools[0].Name != "names.ok_tool" {
		t.Errorf("chat tools = %+v; want names.ok_tool only", chat.Tools)
	}
	d, err := e.app.Activity.SessionDetail(chat.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Warnings) != 1 || d.Warnings[0].Code != harness.CodeToolLeftOut || d.Warnings[0].Message != whole.LeftOut[0].Message {
		t.Errorf("journaled warnings = %+v; want the card's warning", d.Warnings)
	}
}
