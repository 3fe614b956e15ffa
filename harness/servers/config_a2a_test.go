package servers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/tool"
)

// A2A agents in servers.json (docs/a2a.md#servers-json): "transport":
// "a2a" with "card", read like streamable HTTP; mistakes are errors at the
// file, line and column with the fix, and only their entry is disabled.
func TestConfigA2AEntries(t *testing.T) {
	fakeEnv(t, map[string]string{"HELPER_TOKEN": "t0ken"})
	p := filepath.Join(t.TempDir(), "servers.json")
	body := `{
  "servers": {
    "helper": {"transport": "a2a", "card": "http://127.0.0.1:9000/.well-known/agent-card.json", "headers": {"Authorization": "Bearer ${HELPER_TOKEN}"}, "timeout": 30},
    "remote": {"transport": "a2a", "card": "https://agents.example.com/.well-known/agent-card.json"},
    "nocard": {"transport": "a2a"},
    "withurl": {"transport": "a2a", "url": "https://agents.example.com/a2a"},
    "lan": {"transport": "a2a", "card": "http://192.168.1.10/.well-known/agent-card.json"},
    "mixed": {"transport": "streamable_http", "url": "https://x.example.com/mcp", "card": "https://x.example.com/card"}
  }
}`
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := ReadConfig(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkEntries(t, cfg, []want{
		{name: "helper", server: tool.MCPServer{Namespace: "helper", Transport: "a2a", URL: "http://127.0.0.1:9000/.well-known/agent-card.json",
			Headers: map[string]string{"Authorization": "Bearer t0ken"}, Timeout: 30 * time.Second}, secrets: []string{"t0ken", "Bearer t0ken"}},
		{name: "remote", server: tool.MCPServer{Namespace: "remote", Transport: "a2a", URL: "https://agents.example.com/.well-known/agent-card.json"}},
		{name: "nocard", err: `5:5: server "nocard" has no "card"`},
		{name: "withurl", err: `6:5: server "withurl" has no "card"; an A2A agent is reached through its agent card: write "card"`},
		{name: "lan", err: `7:41: "192.168.1.10" is not this computer`},
		{name: "mixed", err: `8:83: server "mixed" has "card", which belongs to A2A agents`},
	})

	// Registered, an entry is an agent of the registry, not an MCP provider.
	reg := tool.NewRegistry()
	if _, err := RegisterServersFile(reg, p, nil); err == nil || !strings.Contains(err.Error(), "nocard") {
		t.Fatalf("RegisterServersFile: %v", err)
	}
	a, ok := reg.Agent("helper")
	if !ok || a.Card != "http://127.0.0.1:9000/.well-known/agent-card.json" || a.Headers["Authorization"] != "Bearer t0ken" || a.Timeout != 30*time.Second || !strings.HasSuffix(a.Source, "servers.json:3") {
		t.Fatalf("agent %+v, %v", a, ok)
	}
	if _, ok := reg.Server("helper"); ok {
		t.Error("the agent is also an MCP provider")
	}
	if b, ok := reg.BrokenMCP("lan"); !ok || !strings.Contains(b.Err.Error(), "is not this computer") {
		t.Errorf("broken lan: %+v %v", b, ok)
	}
}
