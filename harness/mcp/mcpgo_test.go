package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"

	"github.com/openworker/desktop/harness/internal/npmtest"
	"github.com/openworker/desktop/harness/tool"
)

// mcpGoServer is a streamable HTTP server built with
// github.com/mark3labs/mcp-go, in this process on 127.0.0.1, restartable
// on the same port. It is stateful and serves the session-oriented
// protocol revisions only (as deployments that keep per-session state do,
// and as every mcp-go before the stateless 2026-07-28 revision did): it
// knows its sessions and answers any other Mcp-Session-Id with 404.
// Keep-alives are off: a restart in this process is instant, so a pooled
// connection to the old server could otherwise be reused before the
// client sees it close (a real restart takes far longer than that).
type mcpGoServer struct {
	t     *testing.T
	port  int
	srv   *http.Server
	fails atomic.Int32 // runs of the failing handler
}

func startMCPGoServer(t *testing.T) *mcpGoServer {
	s := &mcpGoServer{t: t, port: npmtest.FreePort(t)}
	s.start()
	t.Cleanup(func() { s.srv.Close() })
	return s
}

func (s *mcpGoServer) url() string { return fmt.Sprintf("http://127.0.0.1:%d/mcp", s.port) }

func (s *mcpGoServer) start() {
	s.t.Helper()
	ms := mcpgoserver.NewMCPServer("mcpgo-fixture", "1.0.0", mcpgoserver.WithToolCapabilities(true))
	ms.AddTool(mcpgo.NewTool("echo", mcpgo.WithDescription("echoes its message"), mcpgo.WithString("message", mcpgo.Required())),
		func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText("echo: " + req.GetString("message", "")), nil
		})
	ms.AddTool(mcpgo.NewTool("lookup", mcpgo.WithDescription("fails the ordinary mcp-go way")),
		func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			s.fails.Add(1)
			return nil, errors.New("the backend refused: quota exceeded")
		})
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(s.port))
	if err != nil {
		s.t.Fatal(err)
	}
	s.srv = &http.Server{Handler: mcpgoserver.NewStreamableHTTPServer(ms, mcpgoserver.WithStateful(true),
		mcpgoserver.WithStreamableHTTPProtocolVersions(mcpgo.ProtocolVersion20251125, mcpgo.ProtocolVersion20250618, mcpgo.ProtocolVersion20250326))}
	s.srv.SetKeepAlivesEnabled(false)
	go s.srv.Serve(l)
}

// restart drops every session: a new server on the same port.
func (s *mcpGoServer) restart() {
	s.srv.Close()
	s.start()
}

// An mcp-go server restarted 10 times between uses: it answers the old
// session with 404, and each first listing or call succeeds on a new
// session. Concurrent first uses share one new session.
func TestStaleSessionMCPGo(t *testing.T) {
	s := startMCPGoServer(t)
	logs := &logRecorder{}
	m := NewManager(&Options{Logger: slog.New(logs)})
	defer m.Close()
	srv := tool.MCPServer{Namespace: "gosrv", Transport: tool.TransportStreamableHTTP, URL: s.url()}
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
		s.restart()
		err := firstUse(ctx, m, srv, i, func(tools []RemoteTool) bool { return len(tools) == 2 }, "echo: ")
		if err != nil {
			t.Errorf("restart %d: first use failed: %v", i+1, err)
			continue
		}
		ok++
	}
	if ok != restarts {
		t.Errorf("%d of %d first uses after a restart succeeded", ok, restarts)
	}
	if n := logs.count("opened a new session"); n != restarts {
		t.Errorf("%d new sessions for %d restarts", n, restarts)
	}

	s.restart()
	var wg sync.WaitGroup
	errs := make([]error, 5)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = p.ListTools(ctx)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Errorf("concurrent listings after a restart: %v", err)
	}
	if n := logs.count("opened a new session"); n != restarts+1 {
		t.Errorf("5 concurrent listings opened %d new sessions, want 1", n-restarts)
	}
}

// mcp-go's `return nil, err` in a tool handler is a JSON-RPC error answer:
// a failed invocation (a *tool.ToolError the model sees as an error
// result), run once, and the provider goes on serving.
func TestMCPGoHandlerError(t *testing.T) {
	s := startMCPGoServer(t)
	p, err := Connect(context.Background(), tool.MCPServer{Namespace: "gosrv", Transport: tool.TransportStreamableHTTP, URL: s.url()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	_, err = p.CallTool(context.Background(), "lookup", nil, nil)
	var te *tool.ToolError
	if !errors.As(err, &te) || te.Code != "mcp_error" || !strings.Contains(te.Message, "the backend refused: quota exceeded") {
		t.Fatalf("CallTool(lookup) = %v, want a *tool.ToolError mcp_error with the handler's message", err)
	}
	if n := s.fails.Load(); n != 1 {
		t.Errorf("the handler ran %d times, want once", n)
	}
	if out, err := p.CallTool(context.Background(), "echo", json.RawMessage(`{"message":"still here"}`), nil); err != nil || out.Text != "echo: still here" || !p.Alive() {
		t.Errorf("after the error: echo = %q, %v, alive %v", out.Text, err, p.Alive())
	}
}

// firstUse is the first use of srv's provider after restart i: a
// listing (even i), which catalogOK judges, or an echo call (odd i) whose
// answer must be echoPrefix and the message.
func firstUse(ctx context.Context, m *Manager, srv tool.MCPServer, i int, catalogOK func([]RemoteTool) bool, echoPrefix string) error {
	p, err := m.Provider(ctx, srv)
	if err != nil {
		return err
	}
	if i%2 == 0 {
		tools, err := p.ListTools(ctx)
		if err == nil && !catalogOK(tools) {
			err = fmt.Errorf("catalog %v", tools)
		}
		return err
	}
	msg := "after restart " + strconv.Itoa(i)
	out, err := p.CallTool(ctx, "echo", json.RawMessage(`{"message":"`+msg+`"}`), nil)
	if err == nil && out.Text != echoPrefix+msg {
		err = fmt.Errorf("echo = %q", out.Text)
	}
	return err
}
