package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/tool"
)

var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR fake but bytes")

type progressIn struct {
	Count int `json:"count"`
	// DelayMS spaces the notifications.
	DelayMS int `json:"delay_ms,omitempty"`
}

type progressOut struct {
	Steps int `json:"steps"`
}

// httpFixture is a streamable HTTP MCP server on 127.0.0.1 that demands two
// headers and records what its handlers saw.
type httpFixture struct {
	url          string
	rejected     atomic.Int32 // requests without the headers
	waitStarted  chan struct{}
	waitCanceled chan struct{}
	progCanceled chan struct{}
}

func newHTTPFixture(t *testing.T) *httpFixture {
	f := &httpFixture{waitStarted: make(chan struct{}, 1), waitCanceled: make(chan struct{}, 1), progCanceled: make(chan struct{}, 1)}
	s := sdk.NewServer(&sdk.Implementation{Name: "lights", Version: "2.1.0"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "progress", Description: "reports progress count times",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *sdk.CallToolRequest, in progressIn) (*sdk.CallToolResult, progressOut, error) {
			token := req.Params.GetProgressToken()
			for i := 1; i <= in.Count; i++ {
				if token != nil {
					req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{
						ProgressToken: token, Message: fmt.Sprintf("step %d", i), Progress: float64(i), Total: float64(in.Count)})
				}
				select {
				case <-ctx.Done():
					f.progCanceled <- struct{}{}
					return nil, progressOut{}, ctx.Err()
				case <-time.After(time.Duration(in.DelayMS) * time.Millisecond):
				}
			}
			return nil, progressOut{Steps: in.Count}, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "wait", Description: "blocks until cancelled"},
		func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			select {
			case f.waitStarted <- struct{}{}:
			default:
			}
			select {
			case <-ctx.Done():
				f.waitCanceled <- struct{}{}
			case <-time.After(time.Minute):
			}
			return nil, nil, ctx.Err()
		})
	sdk.AddTool(s, &sdk.Tool{Name: "fail", Description: "always fails"},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return nil, nil, errors.New("quota exceeded for lamp 7")
		})
	s.AddTool(&sdk.Tool{Name: "scene.mixed", Description: "returns every kind of content", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{
				StructuredContent: map[string]any{"lamps": 3},
				Content: []sdk.Content{
					&sdk.TextContent{Text: "three lamps on"},
					&sdk.ImageContent{MIMEType: "image/png", Data: pngBytes},
					&sdk.AudioContent{MIMEType: "audio/wav", Data: []byte("RIFF")},
					&sdk.ResourceLink{URI: "file:///scenes/evening.json", Name: "evening"},
				},
			}, nil
		})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" || r.Header.Get("X-Tenant") != "acme" {
			f.rejected.Add(1)
			http.Error(w, "missing credentials", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	f.url = srv.URL + "/mcp"
	return f
}

func (f *httpFixture) server(headers map[string]string) tool.MCPServer {
	return tool.MCPServer{Namespace: "lights", Transport: tool.TransportStreamableHTTP, URL: f.url, Headers: headers}
}

var goodHeaders = map[string]string{"Authorization": "Bearer s3cret", "X-Tenant": "acme"}

func connectHTTP(t *testing.T, f *httpFixture) *Provider {
	t.Helper()
	p, err := Connect(context.Background(), f.server(goodHeaders), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func TestHTTPHeaders(t *testing.T) {
	f := newHTTPFixture(t)
	_, err := Connect(context.Background(), f.server(map[string]string{"X-Tenant": "acme"}), &Options{StartTimeout: hangGuard})
	if err == nil {
		t.Fatal("Connect succeeded without the Authorization header")
	}
	mustContain(t, "error", err.Error(), `mcp provider "lights" at `+f.url+" did not start")
	if f.rejected.Load() == 0 {
		t.Error("the server rejected nothing")
	}
	f.rejected.Store(0)

	p := connectHTTP(t, f)
	tools, err := p.ListTools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]RemoteTool{}
	for _, rt := range tools {
		names[rt.Name] = rt
	}
	if len(names) != 4 || names["scene.mixed"].Name == "" {
		t.Fatalf("catalog = %v, want progress, wait, fail, scene.mixed", tools)
	}
	if d := names["progress"].Descriptor("lights"); d.Risk != tool.ReadOnly || d.Version != "2.1.0" || d.Name != "lights.progress" {
		t.Errorf("Descriptor(progress) = %+v, want read_only, version 2.1.0", d)
	}
	// No annotations: the cautious default, whatever the server might claim.
	if d := names["scene.mixed"].Descriptor("lights"); d.Risk != tool.NonIdempotentWrite || d.Name != "lights.scene.mixed" {
		t.Errorf("Descriptor(scene.mixed) = %+v, want non_idempotent_write", d)
	}
	if n := f.rejected.Load(); n != 0 {
		t.Errorf("%d requests went out without the headers", n)
	}
}

func TestHTTPProgressForwarded(t *testing.T) {
	p := connectHTTP(t, newHTTPFixture(t))
	var (
		mu     sync.Mutex
		events []string
	)
	c := tool.NewCall("s", "t", "c", "", tool.Limits{}, func(msg string, data json.RawMessage) {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, msg+" "+string(data))
	})
	out, err := p.CallTool(context.Background(), "progress", json.RawMessage(`{"count":5}`), c.Progress)
	if err != nil {
		t.Fatal(err)
	}
	if string(out.Structured) != `{"steps":5}` || out.Text != "" {
		t.Errorf("output = %s / %q, want structured {\"steps\":5} and no duplicate text", out.Structured, out.Text)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{}
	for i := 1; i <= 5; i++ {
		want = append(want, fmt.Sprintf(`step %d {"progress":%d,"total":5}`, i, i))
	}
	if strings.Join(events, "|") != strings.Join(want, "|") {
		t.Errorf("progress = %q, want %q", events, want)
	}
}

// A progress limit breach cancels the call; the server sees the
// cancellation and the error wraps tool.ErrLimit.
func TestHTTPProgressLimitCancels(t *testing.T) {
	f := newHTTPFixture(t)
	p := connectHTTP(t, f)
	c := tool.NewCall("s", "t", "c", "", tool.Limits{ProgressEvents: 2}, nil)
	var err error
	// 1000 steps 100 ms apart: a call not cancelled would outlast hangGuard.
	within(t, hangGuard, "CallTool over the progress limit", func() {
		_, err = p.CallTool(context.Background(), "progress", json.RawMessage(`{"count":1000,"delay_ms":100}`), c.Progress)
	})
	if !errors.Is(err, tool.ErrLimit) {
		t.Fatalf("CallTool = %v, want an error wrapping tool.ErrLimit", err)
	}
	select {
	case <-f.progCanceled:
	case <-time.After(hangGuard):
		t.Error("the server's handler did not see the cancellation")
	}
}

func TestHTTPCancel(t *testing.T) {
	f := newHTTPFixture(t)
	p := connectHTTP(t, f)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { // cancel once the handler runs, not after a guessed delay
		select {
		case <-f.waitStarted:
		case <-ctx.Done():
		}
		cancel()
	}()
	var err error
	within(t, hangGuard, "cancelled CallTool", func() { _, err = p.CallTool(ctx, "wait", nil, nil) })
	cancel()
	if !errors.Is(err, context.Canceled) {
		t.Errorf("CallTool = %v, want context.Canceled", err)
	}
	select {
	case <-f.waitCanceled:
	case <-time.After(hangGuard):
		t.Error("the server's handler did not see the cancellation")
	}
	// The session survives a cancelled call.
	if _, err := p.CallTool(context.Background(), "progress", json.RawMessage(`{"count":1}`), nil); err != nil {
		t.Errorf("call after a cancelled one: %v", err)
	}
}

func TestHTTPToolErrorAndContent(t *testing.T) {
	p := connectHTTP(t, newHTTPFixture(t))
	_, err := p.CallTool(context.Background(), "fail", nil, nil)
	var te *tool.ToolError
	if !errors.As(err, &te) || te.Code != "mcp_error" || !strings.Contains(te.Message, "quota exceeded for lamp 7") {
		t.Errorf("CallTool(fail) = %v, want *tool.ToolError mcp_error with the server's text", err)
	}

	out, err := p.CallTool(context.Background(), "scene.mixed", json.RawMessage(` {} `), nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(out.Structured) != `{"lamps":3}` {
		t.Errorf("structured = %s", out.Structured)
	}
	mustContain(t, "text", out.Text, "three lamps on\n", "[audio audio/wav, 4 bytes, not shown]", `[resource link file:///scenes/evening.json "evening"]`)
	if len(out.Images) != 1 || out.Images[0].MIMEType != "image/png" || !bytes.Equal(out.Images[0].Data, pngBytes) {
		t.Errorf("images = %+v, want the PNG bytes", out.Images)
	}
	if strings.Contains(out.Text, "iVBOR") {
		t.Error("base64 image data leaked into Text")
	}

	if _, err := p.CallTool(context.Background(), "progress", json.RawMessage(`[1,2]`), nil); err == nil || !strings.Contains(err.Error(), "must be a JSON object") {
		t.Errorf("CallTool with array args = %v, want a clear error", err)
	}
}

func TestHTTPServerDown(t *testing.T) {
	srv := tool.MCPServer{Namespace: "gone", Transport: tool.TransportStreamableHTTP, URL: "http://user:pw@127.0.0.1:1/mcp?token=s3cret"}
	_, err := Connect(context.Background(), srv, &Options{StartTimeout: hangGuard})
	if err == nil {
		t.Fatal("Connect to a closed port succeeded")
	}
	mustContain(t, "error", err.Error(), `mcp provider "gone" at http://127.0.0.1:1/mcp did not start`)
	if strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "pw@") {
		t.Errorf("error leaks URL credentials: %v", err)
	}
}
