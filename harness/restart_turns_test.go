//go:build unix

package harness_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/internal/npmtest"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// TestTurnsAfterStreamableHTTPRestarts: server-everything over streamable
// HTTP is an MCP provider of one session, and before each of 10 turns it
// restarts on the same port, so the provider's Mcp-Session-Id is stale
// (server-everything answers it with 400). Each turn's echo call still
// runs, through a new session (docs/mcp.md#stale-sessions; issue 10,
// "Real parts in the tests"): 10 of 10 turns complete, the model gets
// each turn's own echo, and the journal holds 10 succeeded invocations.
func TestTurnsAfterStreamableHTTPRestarts(t *testing.T) {
	srv := npmtest.StartEverything(t, "streamableHttp")
	const turns = 10
	message := func(i int) string { return fmt.Sprintf("turn %d, after restart %d", i+1, i+1) }
	var replies []modeltest.Reply
	for i := range turns {
		args := mustJSON(map[string]string{"message": message(i)})
		replies = append(replies,
			modeltest.Reply{ToolCalls: []model.ToolCall{call(fmt.Sprintf("echo%d", i+1), "everything__echo", args)}},
			modeltest.Reply{Text: fmt.Sprintf("turn %d done", i+1)})
	}
	logs := &lockedBuffer{}
	e := newEnv(t, envOpts{
		servers:  []tool.MCPServer{{Namespace: "everything", Transport: tool.TransportStreamableHTTP, URL: srv.URL("/mcp")}},
		selected: []string{"everything.echo"},
		replies:  replies,
		logger:   slog.New(slog.NewTextHandler(logs, nil)),
	})
	s := e.open() // starts the provider: a session of the first server

	completed := 0
	for i := range turns {
		srv.Restart()
		ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
		res, err := s.Send(ctx, fmt.Sprintf("Echo turn %d.", i+1), nil)
		cancel()
		if err != nil || res.Status != harness.TurnCompleted || res.Text != fmt.Sprintf("turn %d done", i+1) {
			t.Errorf("turn %d after a restart = %+v, %v; want completed with the model's answer", i+1, res, err)
			continue
		}
		completed++
	}
	if completed != turns {
		t.Errorf("%d of %d turns after a restart completed", completed, turns)
	}

	// The model request after each turn's call carries that call's echo.
	reqs := e.model.Requests()
	if len(reqs) != 2*turns {
		t.Fatalf("the model got %d requests, want %d (a call and an answer a turn)", len(reqs), 2*turns)
	}
	carried := 0
	for i := range turns {
		got := reqs[2*i+1].LastMessage().ToolResults
		want := modeltest.RecordedToolResult{ToolCallID: fmt.Sprintf("echo%d", i+1), Text: "Echo: " + message(i)}
		if len(got) != 1 || got[0].ToolCallID != want.ToolCallID || got[0].Text != want.Text || got[0].IsError {
			t.Errorf("turn %d: the model got %+v after the call, want %+v", i+1, got, want)
			continue
		}
		carried++
	}
	if carried != turns {
		t.Errorf("%d of %d turns gave the model their echo", carried, turns)
	}

	invs := e.invocations(s.ID())
	succeeded := 0
	for i, inv := range invs {
		if inv.Tool == "everything.echo" && inv.Status == harness.StatusSucceeded && i < turns &&
			strings.Contains(string(inv.Result), "Echo: "+message(i)) {
			succeeded++
		} else {
			t.Errorf("invocation %d = %s %s (%s: %s) %s; want everything.echo succeeded with turn %d's echo",
				i+1, inv.Tool, inv.Status, inv.ErrorCode, inv.Error, inv.Result, i+1)
		}
	}
	if len(invs) != turns || succeeded != turns {
		t.Errorf("journal: %d invocations, %d succeeded; want %d, all succeeded", len(invs), succeeded, turns)
	}

	// Each restart cost one new session: opened by the provider, or, when
	// the SDK's event stream gave up first, by the runtime starting the
	// provider anew; plus the first start.
	reopened, started := strings.Count(logs.String(), "opened a new session"), strings.Count(logs.String(), "mcp provider started")
	t.Logf("new sessions: %d opened by the provider, %d provider starts", reopened, started)
	if reopened+started != turns+1 {
		t.Errorf("%d reopened + %d started sessions, want %d", reopened, started, turns+1)
	}
}
