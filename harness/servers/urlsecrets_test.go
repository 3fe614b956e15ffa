package servers

import (
	"slices"
	"testing"
)

// A key in a remote server's URL path (/mcp/s/<key>/mcp, as Zapier
// gives it) is one of the server's Secrets once the entry is read, so
// start errors, results and the journal never carry it; an ordinary
// path adds none (docs/mcp.md#secrets). An A2A agent's card URL too.
func TestURLPathKeyIsSecret(t *testing.T) {
	const key = "zapPathKeyAbCdEf"
	p := writeConfig(t, t.TempDir(), "servers.json", `{"servers": {
		"zap": {"transport": "streamable_http", "url": "http://127.0.0.1:8931/mcp/s/`+key+`/mcp"},
		"long": {"transport": "streamable_http", "url": "https://mcp.example.test/api/k7Qp2Xv9LmZ4r8KsT/mcp"},
		"plain": {"transport": "streamable_http", "url": "https://mcp.example.test/api/mcp/sse"},
		"agent": {"transport": "a2a", "card": "https://agents.example.test/token/agentKey1/.well-known/agent-card.json"}}}`)
	cfg, err := ReadConfig(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if e := entryNamed(t, cfg, "zap"); e.Err != nil || !slices.Contains(e.Server.Secrets, key) {
		t.Errorf("zap: secrets = %q, err %v", e.Server.Secrets, e.Err)
	}
	if e := entryNamed(t, cfg, "long"); e.Err != nil || !slices.Contains(e.Server.Secrets, "k7Qp2Xv9LmZ4r8KsT") {
		t.Errorf("long: secrets = %q, err %v", e.Server.Secrets, e.Err)
	}
	if e := entryNamed(t, cfg, "agent"); e.Err != nil || !slices.Contains(e.Server.Secrets, "agentKey1") { // an A2A agent's redactor takes them
		t.Errorf("agent: secrets = %q, err %v", e.Server.Secrets, e.Err)
	}
	if e := entryNamed(t, cfg, "plain"); e.Err != nil || len(e.Server.Secrets) != 0 {
		t.Errorf("plain: secrets = %q, err %v", e.Server.Secrets, e.Err)
	}
}
