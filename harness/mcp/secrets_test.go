package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/mcp/mcptest"
	"github.com/openworker/desktop/harness/servers"
	"github.com/openworker/desktop/harness/tool"
)

// testSecret is what the secret server echoes; its halves are what the
// echo tool's two text blocks hold.
const testSecret = "owtok-7Qp2Xv9LmZ4r8KsT"

// leaks reports which of the secret and its halves s holds.
func leaks(s string) []string {
	var found []string
	half := len(testSecret) / 2
	for _, p := range []string{testSecret, testSecret[:half], testSecret[half:]} {
		if strings.Contains(s, p) {
			found = append(found, p)
		}
	}
	return found
}

// A real server (mcptest.SecretServer, a child process) echoes a secret it
// got through a servers.json ${MY_TOKEN} into everything it supplies: the
// provider gives none of it back, not in serverInfo and instructions, the
// catalog (names, titles, descriptions, schemas, annotations, version),
// progress, results split across two text blocks, structured content, or
// the stderr tail (docs/mcp.md#secrets). The outputSchema check still
// follows the server's own schema, whose const is the secret.
func TestProviderRedactsEverythingTheServerSupplies(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "servers.json")
	entry, _ := json.Marshal(map[string]any{"servers": map[string]any{"echo": map[string]any{"transport": "stdio", "command": exe,
		"env": map[string]string{serverEnv: "secret", mcptest.SecretEnv: "${MY_TOKEN}", "GORACE": "atexit_sleep_ms=0"}}}})
	if err := os.WriteFile(file, entry, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := servers.ReadConfig(file, &servers.ConfigOptions{LookupEnv: func(k string) (string, bool) {
		if k == "MY_TOKEN" {
			return testSecret, true
		}
		return "", false
	}})
	if err != nil {
		t.Fatal(err)
	}
	list, broken := cfg.Servers()
	if len(list) != 1 || len(broken) != 0 {
		t.Fatalf("servers = %+v, broken = %+v", list, broken)
	}
	p, err := Connect(context.Background(), list[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })

	info := p.ServerInfo()
	want := ServerInfo{Name: "echo-[redacted]", Title: "Echo [redacted]", Version: "1.0.0+[redacted]", Description: "a server holding [redacted]",
		WebsiteURL: "https://example.test/?token=[redacted]", Instructions: "Always send the token [redacted] along."}
	if info != want || p.ServerVersion() != want.Version {
		t.Errorf("ServerInfo = %+v (version %q), want %+v", info, p.ServerVersion(), want)
	}

	tools, err := p.ListTools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	listed, _ := json.Marshal(tools)
	if l := leaks(string(listed)); l != nil {
		t.Errorf("the catalog holds %q: %s", l, listed)
	}
	var names []string
	for _, rt := range tools {
		names = append(names, rt.Name)
		if !json.Valid(rt.InputSchema) || rt.OutputSchema != nil && !json.Valid(rt.OutputSchema) {
			t.Errorf("%s: schemas are not JSON after redaction: %s %s", rt.Name, rt.InputSchema, rt.OutputSchema)
		}
		if d := rt.Descriptor("echo"); d.Version != "1.0.0+[redacted]" {
			t.Errorf("descriptor version = %q", d.Version)
		}
	}
	if strings.Join(names, " ") != "echo echo_structured get_[redacted]" {
		t.Errorf("names = %q", names)
	}

	var progress []string
	out, err := p.CallTool(context.Background(), "echo", nil, func(msg string, data json.RawMessage) error {
		progress = append(progress, msg+" "+string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "the token is [redacted]\n[redacted], keep it safe" {
		t.Errorf("the model would read %q", out.Text)
	}
	if len(out.Content) != 2 || out.Content[0].Text != "the token is [redacted]" || out.Content[1].Text != "[redacted], keep it safe" {
		t.Errorf("blocks = %+v", out.Content)
	}
	if len(progress) != 1 || progress[0] != `echoing [redacted] {"progress":1,"total":1}` {
		t.Errorf("progress = %q", progress)
	}

	out, err = p.CallTool(context.Background(), "echo_structured", nil, nil)
	if err != nil {
		t.Fatalf("echo_structured = %v; the check must follow the server's outputSchema (const: the secret)", err)
	}
	if string(out.Structured) != `{"token":"[redacted]"}` {
		t.Errorf("Structured = %s", out.Structured)
	}
	if tail := p.StderrTail(); !strings.Contains(tail, "echo called") || leaks(tail) != nil {
		t.Errorf("stderr tail = %q", tail)
	}
}

// A server that refuses tools/list with its secret in the message: the
// listing's error names the refusal, not the secret.
func TestListToolsErrorRedacted(t *testing.T) {
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server {
		s := mcptest.SecretServer(testSecret)
		s.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
			return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
				if method == "tools/list" {
					return nil, errors.New("no tools for token " + testSecret)
				}
				return next(ctx, method, req)
			}
		})
		return s
	}, nil)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	p, err := Connect(context.Background(), tool.MCPServer{Namespace: "echo", Transport: tool.TransportStreamableHTTP, URL: srv.URL,
		Secrets: []string{testSecret}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	_, err = p.ListTools(context.Background())
	if err == nil || leaks(err.Error()) != nil || !strings.Contains(err.Error(), "no tools for token [redacted]") {
		t.Fatalf("ListTools = %v; want the server's refusal, redacted", err)
	}
}
