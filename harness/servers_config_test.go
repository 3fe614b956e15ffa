package harness_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/servers"
	"github.com/openworker/desktop/harness/tool"
)

// claudeDesktopFile writes a Claude Desktop config (with extra keys) whose
// "dev" server is the device server (this test binary) and whose dotted
// "awslabs.broken" server has no command.
func claudeDesktopFile(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dev, _ := json.Marshal(map[string]any{"command": exe, "env": map[string]string{serveDeviceEnv: "1"}, "autoApprove": []string{"battery_status_get"}})
	body := "{\n  \"preferences\": {\"x\": 1},\n  \"mcpServers\": {\n    \"dev\": " + string(dev) + ",\n    \"awslabs.broken\": {\"args\": [\"x\"]}\n  }\n}\n"
	p := filepath.Join(t.TempDir(), "claude_desktop_config.json")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func checkWith(t *testing.T, reg *tool.Registry, bundles string) *harness.CheckReport {
	t.Helper()
	rt, err := harness.Open(context.Background(), reg, harness.Options{Coworkers: bundles, RememberFailedStarts: true})
	if err != nil {
		t.Fatalf("Open = %v; a broken servers entry must not stop the runtime", err)
	}
	t.Cleanup(func() { rt.Close() })
	rep, err := rt.Check(context.Background(), bundles, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestBrokenServersEntryDisablesOnlyItsProvider: one bad entry of a
// client's config file disables only its provider: the bundle that uses it
// fails with the entry's file:line:col and fix, the bundle of the good
// provider (a real stdio server) and the native-only bundle resolve, and
// the report names the bad entry.
func TestBrokenServersEntryDisablesOnlyItsProvider(t *testing.T) {
	path := claudeDesktopFile(t)
	reg := tool.NewRegistry()
	if err := reg.Register(&testTool{name: "local.echo"}); err != nil {
		t.Fatal(err)
	}
	cfg, err := servers.RegisterServersFile(reg, path, nil)
	if err == nil || cfg == nil || !strings.Contains(err.Error(), path+":5:5: server \"awslabs.broken\" has neither \"command\" nor \"url\"") {
		t.Fatalf("RegisterServersFile = %v", err)
	}
	bundles := filepath.Join(t.TempDir(), "coworkers")
	writeBundle(t, bundles, "dev", []string{"dev.battery_status_get"}, "")
	writeBundle(t, bundles, "aws", []string{"awslabs_broken.anything"}, "")
	writeBundle(t, bundles, "native", []string{"local.echo"}, "")
	rep := checkWith(t, reg, bundles)
	var ok []string
	for _, c := range rep.OK {
		ok = append(ok, c.ID)
	}
	if strings.Join(ok, ",") != "dev,native" {
		t.Errorf("resolved %v (broken %+v); want dev and native", ok, rep.Broken)
	}
	if len(rep.Broken) != 1 || rep.Broken[0].ID != "aws" ||
		!strings.Contains(rep.Broken[0].Message, `its MCP provider "awslabs_broken" is disabled: its entry in the servers file is broken: `+path+`:5:5:`) ||
		!strings.Contains(rep.Broken[0].Fix, "fix the entry of MCP provider \"awslabs_broken\" at "+path+":5") {
		t.Errorf("broken = %+v", rep.Broken)
	}
	if len(rep.BrokenServers) != 1 || rep.BrokenServers[0].Namespace != "awslabs_broken" || rep.BrokenServers[0].File != path ||
		rep.BrokenServers[0].Line != 5 || rep.BrokenServers[0].Col != 5 || !strings.Contains(rep.BrokenServers[0].Fix, `add "command"`) {
		t.Errorf("broken servers = %+v", rep.BrokenServers)
	}
}

// TestMalformedServersFileKeepsOtherBundles: a servers file that cannot be
// read at all disables its providers only: a native-only bundle resolves,
// a bundle naming one of its providers says the file could not be read.
func TestMalformedServersFileKeepsOtherBundles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "servers.json")
	os.WriteFile(path, []byte("{\"servers\": {\n  \"dev\": {\"transport\": \"stdio\" \"command\": \"x\"}}}"), 0o644)
	reg := tool.NewRegistry()
	if err := reg.Register(&testTool{name: "local.echo"}); err != nil {
		t.Fatal(err)
	}
	if cfg, err := servers.RegisterServersFile(reg, path, nil); cfg != nil || err == nil {
		t.Fatalf("RegisterServersFile = %v, %v", cfg, err)
	}
	bundles := filepath.Join(t.TempDir(), "coworkers")
	writeBundle(t, bundles, "dev", []string{"dev.battery_status_get"}, "")
	writeBundle(t, bundles, "native", []string{"local.echo"}, "")
	rep := checkWith(t, reg, bundles)
	if len(rep.OK) != 1 || rep.OK[0].ID != "native" {
		t.Errorf("ok = %+v", rep.OK)
	}
	if len(rep.Broken) != 1 || !strings.Contains(rep.Broken[0].Message, "the servers file could not be read, so none of its providers are: "+path+":2:") {
		t.Errorf("broken = %+v", rep.Broken)
	}
	if len(rep.BrokenServers) != 1 || rep.BrokenServers[0].Namespace != "" || rep.BrokenServers[0].Line != 2 {
		t.Errorf("broken servers = %+v", rep.BrokenServers)
	}
}

// TestServersEditWithBrokenEntryKeepsSessions: a new generation whose
// servers file has a broken entry keeps the working provider for an open
// session and new sessions, and loses nothing journaled.
func TestServersEditWithBrokenEntryKeepsSessions(t *testing.T) {
	reply := modeltest.Reply{ToolCalls: []model.ToolCall{call("c1", "dev__battery_status_get", `{}`)}}
	e := newEnv(t, envOpts{selected: []string{"dev.battery_status_get"}, replies: []modeltest.Reply{reply, {Text: "one"}, reply, {Text: "two"}}})
	path := claudeDesktopFile(t)
	cfg, err := servers.ReadConfig(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	servers, broken := cfg.Servers()
	if err := e.rt.SetServers(servers, broken...); err != nil {
		t.Fatal(err)
	}
	s := e.open()
	if res, err := s.Send(context.Background(), "battery?", nil); err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("turn 1 = %+v, %v", res, err)
	}
	// An edit that breaks nothing new: the same file read again.
	if err := e.rt.SetServers(servers, broken...); err != nil {
		t.Fatal(err)
	}
	if res, err := s.Send(context.Background(), "again?", nil); err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("turn 2 = %+v, %v", res, err)
	}
	invs := e.invocations(s.ID())
	if len(invs) != 2 || invs[0].Status != harness.StatusSucceeded || invs[1].Status != harness.StatusSucceeded {
		t.Errorf("invocations = %+v; want both succeeded and kept", invs)
	}
}

// TestProviderTimeoutBoundsCalls: an MCP provider's own timeout (a config
// file's "timeout", tool.MCPServer.Timeout) bounds its calls when it is
// smaller than Limits.CallTimeout, and the journal says whose bound it was.
func TestProviderTimeoutBoundsCalls(t *testing.T) {
	counter := filepath.Join(t.TempDir(), "calls.txt")
	srv := selfMCP(t, "bad", counter)
	srv.Timeout, srv.Source = 300*time.Millisecond, "servers.json:7"
	e := newEnv(t, envOpts{servers: []tool.MCPServer{srv}, selected: []string{"bad.sleep_ro"},
		limits:  tool.Limits{CallTimeout: 30 * time.Second},
		replies: []modeltest.Reply{{ToolCalls: []model.ToolCall{call("c1", "bad__sleep_ro", `{}`)}}, {Text: "finished"}}})
	var s *harness.Session
	var res *harness.TurnResult
	within(t, 20*time.Second, "a call bounded by 300 ms", func() {
		var err error
		if s, res, err = e.send("go"); err != nil {
			t.Fatal(err)
		}
	})
	invs := e.invocations(s.ID())
	if res.Status != harness.TurnStopped || len(invs) != 1 || invs[0].Status != harness.StatusFailed || invs[0].ErrorCode != "limit_exceeded" ||
		!strings.Contains(invs[0].Error, `the call took longer than 300ms (the timeout of MCP provider "bad" at servers.json:7)`) {
		t.Errorf("turn %+v, invocations %+v", res, invs)
	}
}

// TestClaudeCodeSSEEntryRuns: a Claude Code .mcp.json entry of "type": "sse"
// (with ${VAR:-default} in its header and a timeout in milliseconds)
// reaches a real SSE server on 127.0.0.1 and its tool runs in a turn.
func TestClaudeCodeSSEEntryRuns(t *testing.T) {
	counter := filepath.Join(t.TempDir(), "calls.txt")
	s := misbehavingServer(counter)
	srv := httptest.NewServer(sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return s }, nil))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	path := filepath.Join(dir, ".mcp.json")
	os.WriteFile(path, []byte(`{"mcpServers": {"legacy.events": {"type": "sse", "url": "`+srv.URL+`",
  "headers": {"X-Token": "${OW_TEST_UNSET_TOKEN:-fallback-token}"}, "timeout": 20000}}}`), 0o644)
	cfg, err := servers.ReadConfig(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	servers, broken := cfg.Servers()
	if len(servers) != 1 || len(broken) != 0 || servers[0].Namespace != "legacy_events" || servers[0].Transport != tool.TransportSSE ||
		servers[0].Timeout != 20*time.Second || servers[0].Headers["X-Token"] != "fallback-token" {
		t.Fatalf("servers = %+v, broken %+v", servers, broken)
	}
	e := newEnv(t, envOpts{servers: servers, selected: []string{"legacy_events.result_ro"},
		replies: []modeltest.Reply{{ToolCalls: []model.ToolCall{call("c1", "legacy_events__result_ro", `{"count":3}`)}}, {Text: "done"}}})
	sess, res, err := e.send("go")
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	if invs := e.invocations(sess.ID()); len(invs) != 1 || invs[0].Status != harness.StatusSucceeded {
		t.Errorf("invocations = %+v", invs)
	}
}
