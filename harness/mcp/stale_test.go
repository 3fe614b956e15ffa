package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/tool"
)

// sessionFixture is a go-sdk streamable HTTP server on 127.0.0.1 behind a
// handler that misbehaves on purpose for the requests of one method,
// after the session is set up: it refuses them with a status and body, or
// runs them and then drops the connection before any answer.
type sessionFixture struct {
	url   string
	runs  atomic.Int32 // runs of the "count" tool
	posts atomic.Int32 // POSTs of the misbehaving method

	method atomic.Value // string: the method to misbehave on ("" none)
	status int          // refuse with this status...
	body   string       // ...and body; status 0 means run, then drop
}

func newSessionFixture(t *testing.T, status int, body string) *sessionFixture {
	f := &sessionFixture{status: status, body: body}
	f.method.Store("")
	s := sdk.NewServer(&sdk.Implementation{Name: "sessions", Version: "1.0.0"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "count", Description: "counts its runs"},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			f.runs.Add(1)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "counted"}}}, nil, nil
		})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m := f.method.Load().(string)
		if r.Method != http.MethodPost || m == "" || r.Header.Get(sessionHeader) == "" {
			h.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			Method string `json:"method"`
		}
		if json.Unmarshal(body, &msg) != nil || msg.Method != m {
			h.ServeHTTP(w, r)
			return
		}
		f.posts.Add(1)
		if f.status != 0 {
			http.Error(w, f.body, f.status)
			return
		}
		h.ServeHTTP(httptest.NewRecorder(), r) // it runs; the answer is lost
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	t.Cleanup(srv.Close)
	f.url = srv.URL + "/mcp"
	return f
}

func (f *sessionFixture) connect(t *testing.T) *Provider {
	t.Helper()
	p, err := Connect(context.Background(), tool.MCPServer{Namespace: "sessions", Transport: tool.TransportStreamableHTTP, URL: f.url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// A server that refuses every session's requests (a new session too) is
// an error that says the server restarted or dropped the session, after
// exactly one new session; a call refused so never ran: a tool error the
// model sees, and the turn goes on.
func TestStaleSessionTwice(t *testing.T) {
	f := newSessionFixture(t, http.StatusNotFound, "session not found")
	p := f.connect(t)

	f.method.Store("tools/list")
	_, err := p.ListTools(context.Background())
	if err == nil {
		t.Fatal("ListTools succeeded")
	}
	t.Logf("error: %v", err)
	mustContain(t, "error", err.Error(), `mcp provider "sessions": tools/list: the server restarted or dropped the session: it refused the session (HTTP 404), and a new session too (HTTP 404)`)
	if n := f.posts.Load(); n != 2 {
		t.Errorf("tools/list was sent %d times, want twice (once per session)", n)
	}

	f.posts.Store(0)
	f.method.Store("tools/call")
	_, err = p.CallTool(context.Background(), "count", nil, nil)
	var te *tool.ToolError
	if !errors.As(err, &te) || te.Code != "mcp_session_lost" {
		t.Fatalf("CallTool = %v, want a *tool.ToolError mcp_session_lost", err)
	}
	mustContain(t, "message", te.Message, "the server restarted or dropped the session", "HTTP 404", "the call did not run")
	// At most once per session: the session the listing left behind is
	// stale, so the call may go out on new sessions only.
	if n, posts := f.runs.Load(), f.posts.Load(); n != 0 || posts < 1 || posts > 2 {
		t.Errorf("count ran %d times over %d POSTs, want 0 runs and 1 or 2 POSTs", n, posts)
	}
	f.method.Store("")
	if out, err := p.CallTool(context.Background(), "count", nil, nil); err != nil || out.Text != "counted" {
		t.Errorf("once the server takes the session again: %q, %v", out.Text, err)
	}
}

// A call that may have run is never sent again: here the server ran it
// and the connection dropped before its answer.
func TestStaleSessionNoReplayOfACallThatRan(t *testing.T) {
	f := newSessionFixture(t, 0, "")
	p := f.connect(t)
	f.method.Store("tools/call")
	_, err := p.CallTool(context.Background(), "count", nil, nil)
	var te *tool.ToolError
	if err == nil || errors.As(err, &te) {
		t.Fatalf("CallTool = %v, want a plain error (the outcome is unknown)", err)
	}
	if n := f.runs.Load(); n != 1 || f.posts.Load() != 1 {
		t.Errorf("count ran %d times over %d POSTs, want exactly once", n, f.posts.Load())
	}
}

// A 400 that is not about the session is not a stale session: no new
// session, the request is not sent again.
func TestStaleSessionOther400(t *testing.T) {
	f := newSessionFixture(t, http.StatusBadRequest, "Bad Request: malformed arguments")
	p := f.connect(t)
	f.method.Store("tools/call")
	_, err := p.CallTool(context.Background(), "count", nil, nil)
	if err == nil || strings.Contains(err.Error(), "restarted") {
		t.Fatalf("CallTool = %v, want the server's refusal, not a stale session", err)
	}
	if f.posts.Load() != 1 || f.runs.Load() != 0 {
		t.Errorf("%d POSTs and %d runs, want 1 and 0", f.posts.Load(), f.runs.Load())
	}
}

// The SDK sends a call's POST with the call's context, so its attempt
// sees the answer: what the no-replay rule rests on.
func TestAttemptSeesThePOST(t *testing.T) {
	f := newSessionFixture(t, 0, "")
	p := f.connect(t)
	a := &attempt{}
	if _, err := p.conn.Load().cs.CallTool(withAttempt(context.Background(), a), &sdk.CallToolParams{Name: "count", Arguments: map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	if a.other != 1 || a.stale != 0 || a.refused(p.conn.Load()) != 0 {
		t.Errorf("attempt = %d other, stale %d; want the one POST seen", a.other, a.stale)
	}
}
