package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/tool"
)

// sseFixture is a go-sdk server on 127.0.0.1 over the legacy HTTP+SSE
// transport (MCP 2024-11-05) that demands a bearer token on every request.
type sseFixture struct {
	srv      *httptest.Server
	url      string
	rejected atomic.Int32
}

const sseToken = "Bearer sse-s3cret-token"

func newSSEFixture(t *testing.T) *sseFixture {
	f := &sseFixture{}
	s := sdk.NewServer(&sdk.Implementation{Name: "legacy", Version: "0.9.0"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "whoami", Description: "says which token it was given"},
		func(_ context.Context, req *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "you sent " + sseToken}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "progress", Description: "reports progress count times"},
		func(ctx context.Context, req *sdk.CallToolRequest, in progressIn) (*sdk.CallToolResult, progressOut, error) {
			for i := 1; i <= in.Count; i++ {
				req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(),
					Message: fmt.Sprintf("step %d", i), Progress: float64(i), Total: float64(in.Count)})
			}
			return nil, progressOut{Steps: in.Count}, nil
		})
	h := sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return s }, nil)
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != sseToken {
			f.rejected.Add(1)
			http.Error(w, "missing credentials", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(f.srv.Close)
	f.url = f.srv.URL + "/sse"
	return f
}

func (f *sseFixture) server(headers map[string]string) tool.MCPServer {
	return tool.MCPServer{Namespace: "legacy", Transport: tool.TransportSSE, URL: f.url, Headers: headers, Secrets: []string{sseToken}}
}

// TransportSSE: the headers go with the stream's GET and every POST, the
// catalog, calls and progress work after the start (the stream outlives
// the start's context), and the header's value is redacted from results.
func TestSSE(t *testing.T) {
	f := newSSEFixture(t)
	if err := tool.NewRegistry().RegisterMCP(f.server(nil)); err != nil {
		t.Fatalf("the registry refuses an SSE provider: %v", err)
	}
	if err := tool.NewRegistry().RegisterMCP(tool.MCPServer{Namespace: "legacy", Transport: tool.TransportSSE}); err == nil || !strings.Contains(err.Error(), `needs a "url"`) {
		t.Errorf("an SSE provider without a URL: %v, want an error asking for the url", err)
	}
	ctx := context.Background()
	p, err := Connect(ctx, f.server(map[string]string{"Authorization": sseToken}), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	tools, err := p.ListTools(ctx)
	if err != nil || len(tools) != 2 || p.ServerVersion() != "0.9.0" {
		t.Fatalf("catalog = %v, version %q, %v", tools, p.ServerVersion(), err)
	}
	out, err := p.CallTool(ctx, "whoami", nil, nil)
	if err != nil || out.Text != "you sent [redacted]" {
		t.Errorf("whoami = %q, %v; want the token redacted", out.Text, err)
	}
	var events []string
	c := tool.NewCall("s", "t", "c", "", tool.Limits{}, func(msg string, data json.RawMessage) { events = append(events, msg+" "+string(data)) })
	out, err = p.CallTool(ctx, "progress", json.RawMessage(`{"count":3}`), c.Progress)
	if err != nil || string(out.Structured) != `{"steps":3}` {
		t.Fatalf("progress = %s, %v", out.Structured, err)
	}
	if want := `step 1 {"progress":1,"total":3}|step 2 {"progress":2,"total":3}|step 3 {"progress":3,"total":3}`; strings.Join(events, "|") != want {
		t.Errorf("progress events = %q, want %s", events, want)
	}
	if n := f.rejected.Load(); n != 0 {
		t.Errorf("%d requests went out without the header", n)
	}

	// A broken stream ends the provider; the Manager starts a new one on
	// the next use.
	f.srv.CloseClientConnections()
	select {
	case <-p.done:
	case <-time.After(hangGuard):
		t.Fatal("the provider outlived its broken stream")
	}
	if p.Alive() {
		t.Error("Alive after the stream broke")
	}
}

// Errors of an SSE provider read like those of streamable HTTP: the
// namespace, the URL without credentials or query, what failed.
func TestSSEErrors(t *testing.T) {
	f := newSSEFixture(t)
	_, err := Connect(context.Background(), f.server(nil), &Options{StartTimeout: hangGuard})
	if err == nil {
		t.Fatal("Connect succeeded without the token")
	}
	mustContain(t, "error", err.Error(), `mcp provider "legacy" at `+f.url+" did not start", "Unauthorized")

	srv := tool.MCPServer{Namespace: "gone", Transport: tool.TransportSSE, URL: "http://user:pw@127.0.0.1:1/sse?token=s3cret"}
	_, err = Connect(context.Background(), srv, &Options{StartTimeout: hangGuard})
	if err == nil {
		t.Fatal("Connect to a closed port succeeded")
	}
	mustContain(t, "error", err.Error(), `mcp provider "gone" at http://127.0.0.1:1/sse did not start`)
	if strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "pw@") {
		t.Errorf("error leaks URL credentials: %v", err)
	}
}
