package app

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/mcp/mcptest"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// The UI gets each block of an MCP result for the tool card: tool.finished
// carries the blocks, the structured JSON and the images as data: URLs;
// the chat's history (SessionDetail) carries the same blocks from the
// journal, with image sizes but no pixels.
func TestToolCardGetsTheResultBlocks(t *testing.T) {
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return mcptest.ResultsServer() }, nil)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	servers := filepath.Join(t.TempDir(), "servers.json")
	cfg, _ := json.Marshal(map[string]any{"servers": map[string]any{"results": map[string]any{"transport": "streamable_http", "url": srv.URL}}})
	if err := os.WriteFile(servers, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t, envOpts{cfg: config{Servers: servers, Approve: "bypass"}, replies: []modeltest.Reply{
		{ToolCalls: []model.ToolCall{{ID: "c1", Name: "results__blocks", Arguments: `{}`}, {ID: "c2", Name: "results__structured_only", Arguments: `{}`}}},
		{Text: "shown"},
	}})
	writeBundle(t, e.bundles, "res", "results.blocks", "results.structured_only")
	chat, err := e.app.Chats.OpenChat("res")
	if err != nil {
		t.Fatal(err)
	}
	if res, err := e.app.Chats.Send(chat.SessionID, "show me"); err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	sent := map[string]string{} // alias → the tool.finished payload as JSON, as Wails sends it
	for _, p := range e.rec.all(EventHarness) {
		if ev := p.(ChatEvent); ev.Type == harness.EventToolFinished {
			b, err := json.Marshal(ev)
			if err != nil {
				t.Fatal(err)
			}
			sent[ev.Alias] = string(b)
		}
	}
	blocks := sent["results__blocks"]
	for _, want := range []string{
		`"content":[{"type":"text","text":"Here is everything:"},{"type":"image","mime_type":"image/png","bytes":`,
		`{"type":"audio","mime_type":"audio/wav","bytes":44}`,
		`{"type":"resource_link","uri":"file:///srv/report.pdf","name":"report.pdf","title":"Q3 \u003creport\u003e","description":"the quarterly report","mime_type":"application/pdf","bytes":2048}`,
		`{"type":"resource","text":"line 1 of notes.txt\n\u003ci\u003eline 2\u003c/i\u003e","uri":"file:///srv/notes.txt","mime_type":"text/plain"}`,
		`{"type":"resource","uri":"file:///srv/data.bin","mime_type":"application/octet-stream","bytes":300}`,
		`"image_urls":[{"mime_type":"image/png","url":"data:image/png;base64,` + base64.StdEncoding.EncodeToString(mcptest.PNG) + `"}]`,
	} {
		if !strings.Contains(blocks, want) {
			t.Errorf("tool.finished of blocks = %s\nwant it to contain %s", blocks, want)
		}
	}
	if s := sent["results__structured_only"]; !strings.Contains(s, `"structured":{"html":"\u003cb\u003ebold\u003c/b\u003e \u0026 \"quoted\""}`) || strings.Contains(s, `"content"`) {
		t.Errorf("tool.finished of structured_only = %s; want the structured value and no blocks", s)
	}

	d, err := e.app.Activity.SessionDetail(chat.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Invocations) != 2 {
		t.Fatalf("%d invocations, want 2", len(d.Invocations))
	}
	var res struct {
		Content []struct{ Type, URI, Name string } `json:"content"`
		Images  []struct{ Bytes int }              `json:"images"`
	}
	if err := json.Unmarshal(d.Invocations[0].Result, &res); err != nil || len(res.Content) != 6 || res.Content[3].Name != "report.pdf" ||
		len(res.Images) != 1 || res.Images[0].Bytes != len(mcptest.PNG) {
		t.Errorf("journaled result for the history = %s (%v)", d.Invocations[0].Result, err)
	}
}
