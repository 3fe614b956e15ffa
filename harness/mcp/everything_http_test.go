//go:build unix

package mcp

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/internal/npmtest"
	"github.com/openworker/desktop/harness/tool"
)

// server-everything over streamable HTTP, restarted 10 times between
// uses on the same port: it answers the old Mcp-Session-Id with 400, and
// each first listing or call after a restart still succeeds, through a new
// session. Even restarts use the provider at once (the request is
// refused: a new session, the request again); odd ones wait until the
// client's event stream has come back to the new server (the SDK then
// closes the stale session, and the next request opens a new one first).
func TestStaleSessionServerEverything(t *testing.T) {
	s := npmtest.StartEverything(t, "streamableHttp")
	logs := &logRecorder{}
	m := NewManager(&Options{Logger: slog.New(logs), StartTimeout: 60 * time.Second})
	defer m.Close()
	srv := tool.MCPServer{Namespace: "everything", Transport: tool.TransportStreamableHTTP, URL: s.URL("/mcp")}
	ctx := context.Background()
	p, err := m.Provider(ctx, srv)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.ListTools(ctx); err != nil {
		t.Fatal(err)
	}
	const restarts = 10
	ok := 0
	for i := range restarts {
		s.Restart()
		if i%2 == 1 {
			s.WaitLine("Received MCP GET request")
		}
		err := firstUse(ctx, m, srv, i, func(tools []RemoteTool) bool { return len(tools) > 0 }, "Echo: ")
		if err != nil {
			t.Errorf("restart %d: first use failed: %v", i+1, err)
			continue
		}
		ok++
	}
	if ok != restarts {
		t.Errorf("%d of %d first uses after a restart succeeded", ok, restarts)
	}
	// Each restart cost one new session: opened by the provider, or, when
	// the event stream gave up first, by the Manager starting it anew.
	reopened, started := logs.count("opened a new session"), logs.count("mcp provider started")
	t.Logf("new sessions: %d by the provider, %d starts", reopened, started)
	if reopened+started != restarts+1 {
		t.Errorf("%d reopened + %d started sessions, want %d", reopened, started, restarts+1)
	}
}

// server-everything's legacy HTTP+SSE mode (MCP 2024-11-05) through the
// SDK's SSE client: catalog, a call and progress, long after the start
// (whose context ended) — the event stream outlives it.
func TestSSEServerEverything(t *testing.T) {
	s := npmtest.StartEverything(t, "sse")
	ctx := context.Background()
	p, err := Connect(ctx, tool.MCPServer{Namespace: "everything", Transport: tool.TransportSSE, URL: s.URL("/sse")}, &Options{StartTimeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	tools, err := p.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, rt := range tools {
		found = found || rt.Name == "echo"
	}
	if !found {
		t.Fatalf("catalog of %d tools lacks echo", len(tools))
	}
	out, err := p.CallTool(ctx, "echo", json.RawMessage(`{"message":"over sse"}`), nil)
	if err != nil || out.Text != "Echo: over sse" {
		t.Errorf("echo = %q, %v", out.Text, err)
	}
	var events []string
	c := tool.NewCall("s", "t", "c", "", tool.Limits{}, func(msg string, data json.RawMessage) { events = append(events, string(data)) })
	out, err = p.CallTool(ctx, "trigger-long-running-operation", json.RawMessage(`{"duration":1,"steps":2}`), c.Progress)
	if err != nil || !strings.Contains(out.Text, "Long running operation completed") {
		t.Fatalf("long operation = %q, %v", out.Text, err)
	}
	if strings.Join(events, "|") != `{"progress":1,"total":2}|{"progress":2,"total":2}` {
		t.Errorf("progress = %q", events)
	}
}
