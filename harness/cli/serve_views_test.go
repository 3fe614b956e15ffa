package cli_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/mcp/mcptest"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// TestServeStdioAppViews drives MCP Apps over the real `serve --stdio`
// (docs/mcp-apps.md#the-cli-and-the-protocol, docs/stdio-protocol.md#app-views)
// with a real MCP server with views on 127.0.0.1 (mcptest.ServeUI):
// tool.finished carries ui_resource; ui_resource.read answers the page
// whose digest and size it names; view.call asks consent naming the view
// and is journaled with the view's origin; a tool the coworker did not
// select is refused as a result, not an error.
func TestServeStdioAppViews(t *testing.T) {
	url, stop := mcptest.ServeUI()
	t.Cleanup(stop)
	dir := t.TempDir()
	coworkers, servers, db := filepath.Join(dir, "coworkers"), filepath.Join(dir, "servers.json"), filepath.Join(dir, "journal.db")
	write(t, servers, `{"servers": {"kit": {"transport": "streamable_http", "url": "`+url+`"}}}`)
	cw := filepath.Join(coworkers, "viewer", "coworker")
	if err := os.MkdirAll(cw, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(cw, "manifest.md"), "---\nid: viewer\nname: Viewer\nversion: 1.0.0\n---\nShow the counter.\n")
	write(t, filepath.Join(cw, "tools.json"), `{"version": 3, "tools": ["kit.show", "kit.bump"]}`)
	m := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "kit__show", Arguments: `{}`}}},
		modeltest.Reply{Text: "The counter is above."})
	c, _ := startServeWith(t, binEnv(t), nil, nil, "--coworkers", coworkers, "--servers", servers, "--db", db,
		"--base-url", m.URL, "--model", "test", "--approve", "ask")

	open := c.until(nil, response(c.send("session.open", map[string]any{"coworker": "viewer"})))
	sid, _ := field(open, "result", "session_id").(string)
	if sid == "" {
		t.Fatalf("session.open = %v", open)
	}
	turn := c.send("turn.send", map[string]any{"session_id": sid, "text": "Show me the counter"})
	appr := c.until(nil, eventType("approval.required"))
	c.send("approval.respond", map[string]any{"approval_id": field(appr, "event", "approval_id"), "decision": "allow_once"})
	fin := c.until(nil, eventType("tool.finished"))
	sum := sha256.Sum256([]byte(mcptest.UIPage))
	digest := "sha256:" + hex.EncodeToString(sum[:])
	inv, _ := field(fin, "event", "invocation_id").(string)
	if field(fin, "event", "status") != "succeeded" || field(fin, "event", "ui_resource", "uri") != "ui://kit/view.html" ||
		field(fin, "event", "ui_resource", "digest") != digest || field(fin, "event", "ui_resource", "size") != float64(len(mcptest.UIPage)) || inv == "" {
		t.Fatalf("tool.finished = %v", fin)
	}
	if res := c.until(nil, response(turn)); field(res, "result", "status") != "completed" {
		t.Fatalf("turn.send = %v", res)
	}

	page := c.until(nil, response(c.send("ui_resource.read", map[string]any{"session_id": sid, "invocation_id": inv})))
	if field(page, "result", "html") != mcptest.UIPage || field(page, "result", "digest") != digest ||
		field(page, "result", "mime_type") != mcptest.AppMIME || len(field(page, "result", "csp", "connect").([]any)) != 2 {
		t.Fatalf("ui_resource.read = %v", page)
	}
	if bad := c.until(nil, response(c.send("ui_resource.read", map[string]any{"session_id": sid, "invocation_id": "inv_nope"}))); field(bad, "error", "code") != "bad_request" {
		t.Errorf("ui_resource.read of an unknown invocation = %v", bad)
	}

	// The view's Bump: consent names the view; the result comes back to the
	// front end with the journaled invocation.
	call := c.send("view.call", map[string]any{"session_id": sid, "invocation_id": inv, "name": "bump", "arguments": map[string]any{}})
	appr = c.until(nil, eventType("approval.required"))
	if field(appr, "event", "request", "origin") != "the app view of kit.show" || field(appr, "event", "request", "tool") != "kit.bump" {
		t.Fatalf("the view call's approval.required = %v", appr)
	}
	c.send("approval.respond", map[string]any{"approval_id": field(appr, "event", "approval_id"), "decision": "allow_once"})
	res := c.until(nil, response(call))
	bumped, _ := field(res, "result", "invocation_id").(string)
	if field(res, "result", "status") != "succeeded" || fmt.Sprint(field(res, "result", "output", "structured")) != "map[count:1]" || bumped == "" {
		t.Fatalf("view.call = %v", res)
	}
	uns := c.until(nil, response(c.send("view.call", map[string]any{"session_id": sid, "invocation_id": inv, "name": "peek"})))
	if field(uns, "result", "status") != "refused" || field(uns, "result", "code") != "not_selected" {
		t.Errorf("view.call of an unselected tool = %v", uns)
	}
	c.until(nil, response(c.send("session.close", map[string]any{"session_id": sid})))

	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	d, err := j.Detail(context.Background(), sid)
	if err != nil {
		t.Fatal(err)
	}
	origins := map[string]string{}
	for _, r := range d.Invocations {
		origins[r.ID] = r.Origin
		if r.ID == inv && (r.UIURI != "ui://kit/view.html" || r.UIDigest != digest) {
			t.Errorf("show's row: %+v", r)
		}
	}
	if origins[bumped] != "view:"+inv || len(d.Invocations) != 3 {
		t.Errorf("journal: %d invocations, origins %v; want bump's origin view:%s", len(d.Invocations), origins, inv)
	}
	if strings.Contains(fmt.Sprint(d.Messages), "count") {
		t.Errorf("a view call's result reached the model's history: %v", d.Messages)
	}
}
