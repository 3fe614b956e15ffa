//go:build unix

package app

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// TestToolCardGetsLiveProgress: server-everything's
// trigger-long-running-operation, run through the app, reaches the UI as
// tool.started, then one tool.progress per step with data
// {"progress":i,"total":N} for i = 1..N, in order, on the same invocation,
// then tool.finished (docs/app.md#long-content). The server sends no
// message, so the events have no text: the tool card makes the line from
// the data (frontend/src/lib/progress.ts).
func TestToolCardGetsLiveProgress(t *testing.T) {
	node, entry := everythingServer(t)
	const steps = 4
	servers := filepath.Join(t.TempDir(), "servers.json")
	cfg, _ := json.Marshal(map[string]any{"servers": map[string]any{"everything": map[string]any{
		"transport": "stdio", "command": node, "args": []string{entry, "stdio"}}}})
	if err := os.WriteFile(servers, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t, envOpts{cfg: config{Servers: servers}, replies: []modeltest.Reply{
		{ToolCalls: []model.ToolCall{{ID: "c1", Name: "everything__trigger-long-running-operation", Arguments: fmt.Sprintf(`{"duration":1,"steps":%d}`, steps)}}},
		{Text: "done"},
	}})
	writeBundle(t, e.bundles, "waiter", "everything.trigger-long-running-operation")
	chat, err := e.app.Chats.OpenChat("waiter")
	if err != nil {
		t.Fatal(err)
	}
	done := sendAsync(e.app, chat.SessionID, "run the long operation")
	allowNext(t, e)
	if res := waitResult(t, done); res.Status != harness.TurnCompleted {
		t.Fatalf("turn = %+v", res)
	}

	var got []string // the call's tool events as the UI gets them
	inv := ""
	for _, p := range e.rec.all(EventHarness) {
		ev := p.(ChatEvent)
		switch ev.Type {
		case harness.EventToolStarted, harness.EventToolProgress, harness.EventToolFinished:
		default:
			continue
		}
		if inv == "" {
			inv = ev.Invocation
		}
		if ev.Invocation != inv || ev.Tool != "everything.trigger-long-running-operation" {
			t.Errorf("event %s of invocation %q, tool %q; want %q, everything.trigger-long-running-operation", ev.Type, ev.Invocation, ev.Tool, inv)
		}
		s := string(ev.Type)
		if ev.Type == harness.EventToolProgress {
			// As Wails sends it to the UI.
			b, err := json.Marshal(ev)
			if err != nil {
				t.Fatal(err)
			}
			var sent struct {
				Text *string         `json:"text"`
				Data json.RawMessage `json:"data"`
			}
			if err := json.Unmarshal(b, &sent); err != nil {
				t.Fatal(err)
			}
			if sent.Text != nil {
				t.Errorf("progress text = %q; server-everything sends none", *sent.Text)
			}
			s += " " + string(sent.Data)
		}
		got = append(got, s)
	}
	want := []string{string(harness.EventToolStarted)}
	for i := 1; i <= steps; i++ {
		want = append(want, fmt.Sprintf(`%s {"progress":%d,"total":%d}`, harness.EventToolProgress, i, steps))
	}
	want = append(want, string(harness.EventToolFinished))
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tool events =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if inv == "" {
		t.Fatal("no tool events")
	}
}

// everythingServer returns node and server-everything's entry, installed
// by harness/mcp/testdata/npm/install.sh (harness/internal/npmtest is
// internal to harness/, so the app's test finds it the same way itself).
func everythingServer(t *testing.T) (node, entry string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping the npm server-everything test")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH; install Node.js 18+ to run the server-everything test")
	}
	entry, _ = filepath.Abs(filepath.Join("..", "harness", "mcp", "testdata", "npm", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"))
	if _, err := os.Stat(entry); err != nil {
		t.Skip("server-everything is not installed: run bash harness/mcp/testdata/npm/install.sh")
	}
	return node, entry
}
