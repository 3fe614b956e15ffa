package servers

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestConfigStartupTimeout: servers.json "startup_timeout" is seconds,
// read into the server's StartTimeout and written back; zero is ignored
// and too long capped, each with a notice; a string is an error naming
// the fix; another client's format does not read the key.
func TestConfigStartupTimeout(t *testing.T) {
	dir := t.TempDir()
	path := writeConfig(t, dir, "servers.json", `{"servers": {
  "slow": {"transport": "stdio", "command": "npx", "args": ["-y", "pkg"], "startup_timeout": 150},
  "zero": {"transport": "stdio", "command": "x", "startup_timeout": 0},
  "huge": {"transport": "stdio", "command": "x", "startup_timeout": 100000},
  "quoted": {"transport": "stdio", "command": "x", "startup_timeout": "90"}
}}`)
	cfg, err := ReadConfig(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if e := entryNamed(t, cfg, "slow"); e.Err != nil || e.Server.StartTimeout != 150*time.Second {
		t.Fatalf("slow = %v, %v", e.Server.StartTimeout, e.Err)
	}
	if e := entryNamed(t, cfg, "zero"); e.Err != nil || e.Server.StartTimeout != 0 || !strings.Contains(strings.Join(e.Notices, "\n"), `:3: "startup_timeout" 0 of server "zero" is ignored: it must be a positive number of seconds`) {
		t.Fatalf("zero = %v, %v, %q", e.Server.StartTimeout, e.Err, e.Notices)
	}
	if e := entryNamed(t, cfg, "huge"); e.Err != nil || e.Server.StartTimeout != MaxStartTimeout || !strings.Contains(strings.Join(e.Notices, "\n"), `:4: "startup_timeout" 100000 of server "huge" is over OpenWorker's bound of 10m0s per start`) {
		t.Fatalf("huge = %v, %v, %q", e.Server.StartTimeout, e.Err, e.Notices)
	}
	q := entryNamed(t, cfg, "quoted")
	if q.Err == nil || !strings.Contains(q.Err.Error(), `servers.json:5:`) || !strings.Contains(q.Err.Error(), `"startup_timeout": 90 (seconds)`) {
		t.Fatalf("quoted err = %v", q.Err)
	}
	out, err := MarshalServersFile([]ConfigEntry{entryNamed(t, cfg, "slow")})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"startup_timeout": 150`) {
		t.Fatalf("written:\n%s", out)
	}

	vs := writeConfig(t, dir, "mcp.json", `{"servers": {"a": {"type": "stdio", "command": "x", "startup_timeout": 150}}}`)
	cfg, err = ReadConfig(vs, &ConfigOptions{Format: FormatVSCode})
	if err != nil {
		t.Fatal(err)
	}
	if e := entryNamed(t, cfg, "a"); e.Err != nil || e.Server.StartTimeout != 0 || !strings.Contains(strings.Join(e.Notices, "\n"), `unknown key "startup_timeout"`) {
		t.Fatalf("vscode a = %v, %v, %q", e.Server.StartTimeout, e.Err, e.Notices)
	}
}

// TestUnsubstitutedHeaderNotice: a ${NAME} left in a header of a file
// whose format does not substitute that form is noted (it would be sent
// as written), with the fix for that format; one the format substitutes
// is not.
func TestUnsubstitutedHeaderNotice(t *testing.T) {
	fakeEnv(t, map[string]string{"API_TOKEN": "t0k"})
	dir := t.TempDir()
	cd := writeConfig(t, dir, "claude_desktop_config.json", `{"mcpServers": {
  "api": {"url": "https://api.example.com/mcp",
    "headers": {"Authorization": "Bearer ${API_TOKEN}", "X-Plain": "v"}}
}}`)
	cfg, err := ReadConfig(cd, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := entryNamed(t, cfg, "api")
	want := `:3: header "Authorization" of server "api" holds ${API_TOKEN}, which the Claude Desktop format does not substitute: it would be sent as written; write the value itself, or import the server into OpenWorker's servers.json, where ${API_TOKEN} is read from the environment`
	if e.Err != nil || len(e.Notices) != 1 || !strings.Contains(e.Notices[0], want) {
		t.Fatalf("notices %q, err %v", e.Notices, e.Err)
	}
	cur := writeConfig(t, dir, filepath.Join(".cursor", "mcp.json"), `{"mcpServers": {"api": {"url": "https://api.example.com/mcp", "headers": {"A": "${API_TOKEN}", "B": "${env:API_TOKEN}"}}}}`)
	if cfg, err = ReadConfig(cur, nil); err != nil {
		t.Fatal(err)
	}
	e = entryNamed(t, cfg, "api")
	if e.Err != nil || len(e.Notices) != 1 || !strings.Contains(e.Notices[0], `header "A" of server "api" holds ${API_TOKEN}, which the Cursor format does not substitute: it would be sent as written; write ${env:API_TOKEN} to read it from the environment`) || e.Server.Headers["B"] != "t0k" {
		t.Fatalf("cursor: notices %q, err %v, headers %v", e.Notices, e.Err, e.Server.Headers)
	}
	cc := writeConfig(t, dir, ".mcp.json", `{"mcpServers": {"api": {"type": "http", "url": "https://api.example.com/mcp", "headers": {"A": "${API_TOKEN}"}}}}`)
	if cfg, err = ReadConfig(cc, nil); err != nil {
		t.Fatal(err)
	}
	if e = entryNamed(t, cfg, "api"); e.Err != nil || len(e.Notices) != 0 || e.Server.Headers["A"] != "t0k" {
		t.Fatalf("claude code: notices %q, err %v", e.Notices, e.Err)
	}
}

// TestClineStyleTimeoutOutsideClinePath: an mcpServers file that is not
// named cline_mcp_settings.json but has Cline's keys reads "timeout" in
// seconds, as Cline does, with a notice; named as mcpServers it stays
// milliseconds; a file without Cline's keys stays milliseconds.
func TestClineStyleTimeoutOutsideClinePath(t *testing.T) {
	dir := t.TempDir()
	p := writeConfig(t, dir, "my-settings.json", `{"mcpServers": {
  "sleep": {"command": "node", "args": ["s.js"], "timeout": 60, "autoApprove": []}
}}`)
	cfg, err := ReadConfig(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := entryNamed(t, cfg, "sleep")
	if cfg.Format != FormatMCPServers || e.Err != nil || e.Server.Timeout != 60*time.Second ||
		!strings.Contains(strings.Join(e.Notices, "\n"), `:2: "timeout" 60 of server "sleep" is read in seconds, as Cline counts it: this file is not named cline_mcp_settings.json, but it has Cline's "autoApprove"`) {
		t.Fatalf("format %s, timeout %v, err %v, notices %q", cfg.Format, e.Server.Timeout, e.Err, e.Notices)
	}
	if cfg, err = ReadConfig(p, &ConfigOptions{Format: FormatMCPServers}); err != nil {
		t.Fatal(err)
	}
	if e = entryNamed(t, cfg, "sleep"); e.Server.Timeout != 0 { // 60 ms: under 1 s, ignored with a notice
		t.Errorf("named mcpServers: timeout %v", e.Server.Timeout)
	}
	plain := writeConfig(t, dir, "other.json", `{"mcpServers": {"a": {"command": "node", "timeout": 30000}}}`)
	if cfg, err = ReadConfig(plain, nil); err != nil {
		t.Fatal(err)
	}
	if e = entryNamed(t, cfg, "a"); e.Server.Timeout != 30*time.Second || strings.Contains(strings.Join(e.Notices, "\n"), "Cline") {
		t.Errorf("plain: timeout %v, notices %q", e.Server.Timeout, e.Notices)
	}
}
