//go:build unix

package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/internal/npmtest"
	"github.com/openworker/desktop/harness/tool"
)

// everythingServer is @modelcontextprotocol/server-everything over stdio
// (harness/internal/npmtest: it skips, or fails in CI, without node or the
// installed server), with one env entry from servers.json.
func everythingServer(t *testing.T) tool.MCPServer {
	t.Helper()
	node, entry := npmtest.Server(t, "server-everything")
	return tool.MCPServer{Namespace: "everything", Program: node, Args: []string{entry, "stdio"},
		Env: map[string]string{"OW_FROM_SERVERS_JSON": "kept"}}
}

func TestNPMServerEverything(t *testing.T) {
	srv := everythingServer(t)
	ctx := context.Background()
	p, err := Connect(ctx, srv, &Options{StartTimeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	t.Logf("server-everything %s, pid %d", p.ServerVersion(), p.stdio.pid())

	tools, err := p.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]RemoteTool{}
	for _, rt := range tools {
		byName[rt.Name] = rt
	}
	for _, name := range []string{"echo", "get-sum", "get-tiny-image", "get-structured-content", "trigger-long-running-operation", "get-env"} {
		if _, ok := byName[name]; !ok {
			t.Fatalf("catalog lacks %q; it has %d tools", name, len(tools))
		}
	}
	echo := byName["echo"].Descriptor("everything")
	if echo.Name != "everything.echo" || echo.Risk != tool.ReadOnly || echo.Version != p.ServerVersion() || !strings.Contains(string(echo.InputSchema), `"message"`) {
		t.Errorf("Descriptor(echo) = %+v", echo)
	}

	out, err := p.CallTool(ctx, "echo", json.RawMessage(`{"message":"hello from openworker"}`), nil)
	if err != nil || out.Text != "Echo: hello from openworker" {
		t.Errorf("echo = %q, %v; want \"Echo: hello from openworker\"", out.Text, err)
	}
	out, err = p.CallTool(ctx, "get-sum", json.RawMessage(`{"a":19,"b":23}`), nil)
	if err != nil || !strings.Contains(out.Text, "is 42") {
		t.Errorf("get-sum = %q, %v; want the sum 42", out.Text, err)
	}

	out, err = p.CallTool(ctx, "get-structured-content", json.RawMessage(`{"location":"Chicago"}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	var weather struct {
		Temperature float64 `json:"temperature"`
		Conditions  string  `json:"conditions"`
	}
	if err := json.Unmarshal(out.Structured, &weather); err != nil || weather.Temperature != 36 || out.Text != "" {
		t.Errorf("get-structured-content = %s / %q, want Chicago's 36 degrees and no duplicate text", out.Structured, out.Text)
	}

	out, err = p.CallTool(ctx, "get-tiny-image", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Images) != 1 || out.Images[0].MIMEType != "image/png" || !bytes.HasPrefix(out.Images[0].Data, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("get-tiny-image images = %d, want one decoded PNG", len(out.Images))
	}
	if strings.Contains(out.Text, "iVBOR") || !strings.Contains(out.Text, "The image above is the MCP logo.") {
		t.Errorf("get-tiny-image text = %q, want the two captions and no base64", out.Text)
	}

	out, err = p.CallTool(ctx, "get-env", nil, nil)
	if err != nil || !strings.Contains(out.Text, `"OW_FROM_SERVERS_JSON": "kept"`) {
		t.Errorf("get-env lacks the servers.json env (err %v)", err)
	}

	// Progress: 4 steps over 1 s, each forwarded before the result.
	var (
		mu     sync.Mutex
		events []string
	)
	c := tool.NewCall("s", "t", "c", "", tool.Limits{}, func(msg string, data json.RawMessage) {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, string(data))
	})
	out, err = p.CallTool(ctx, "trigger-long-running-operation", json.RawMessage(`{"duration":1,"steps":4}`), c.Progress)
	if err != nil || !strings.Contains(out.Text, "Long running operation completed") {
		t.Fatalf("trigger-long-running-operation = %q, %v", out.Text, err)
	}
	mu.Lock()
	want := `{"progress":1,"total":4}|{"progress":2,"total":4}|{"progress":3,"total":4}|{"progress":4,"total":4}`
	if got := strings.Join(events, "|"); got != want {
		t.Errorf("progress = %s, want %s", got, want)
	}
	mu.Unlock()

	// Cancellation reaches a real server: the call returns at once and the
	// session stays usable.
	cctx, cancel := context.WithCancel(ctx)
	time.AfterFunc(300*time.Millisecond, cancel)
	// 120 s if not cancelled: far over hangGuard.
	within(t, hangGuard, "cancelled long operation", func() {
		_, err = p.CallTool(cctx, "trigger-long-running-operation", json.RawMessage(`{"duration":120,"steps":3}`), nil)
	})
	if err == nil || cctx.Err() == nil {
		t.Errorf("cancelled call = %v", err)
	}
	if out, err := p.CallTool(ctx, "echo", json.RawMessage(`{"message":"still here"}`), nil); err != nil || out.Text != "Echo: still here" {
		t.Errorf("echo after a cancel = %q, %v", out.Text, err)
	}

	pid := p.stdio.pid()
	within(t, hangGuard, "Close", func() { p.Close() })
	if !processGone(pid) {
		t.Errorf("node pid %d runs after Close", pid)
	}
}
