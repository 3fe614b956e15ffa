package servers

import (
	"fmt"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/tool"
)

// TestConfigSandboxField: servers.json "sandbox" is read into the server
// ("default" and the object form, ports sorted) and written back by
// MarshalServersFile; each bad form is an error at its file:line:col
// naming the fix, and only that entry is broken.
func TestConfigSandboxField(t *testing.T) {
	dir := t.TempDir()
	path := writeConfig(t, dir, "servers.json", `{"servers": {
  "preset": {"transport": "stdio", "command": "x", "sandbox": "default"},
  "custom": {"transport": "stdio", "command": "x", "sandbox": {"read": ["${system}", "${home}/.npm"], "write": ["${workspace}"], "network": ["8080", "*:443", "localhost:8080"]}},
  "remote": {"transport": "streamable_http", "url": "https://mcp.example.com/mcp", "sandbox": "default"},
  "named": {"transport": "stdio", "command": "x", "sandbox": "strict"},
  "badvar": {"transport": "stdio", "command": "x", "sandbox": {"read": ["${workspaces}"]}},
  "relative": {"transport": "stdio", "command": "x", "sandbox": {"write": ["data"]}},
  "host": {"transport": "stdio", "command": "x", "sandbox": {"network": ["api.example.com:443"]}},
  "port": {"transport": "stdio", "command": "x", "sandbox": {"network": ["*:70000"]}},
  "extra": {"transport": "stdio", "command": "x", "sandbox": {"exec": []}},
  "empty": {"transport": "stdio", "command": "x", "sandbox": {"network": []}},
  "kind": {"transport": "stdio", "command": "x", "sandbox": true}
}}`)
	cfg, err := ReadConfig(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := entryNamed(t, cfg, "preset")
	if p.Err != nil || p.Server.Sandbox == nil || p.Server.Sandbox.Canonical() != tool.DefaultSandbox().Canonical() {
		t.Fatalf("preset = %+v, %v", p.Server.Sandbox, p.Err)
	}
	c := entryNamed(t, cfg, "custom")
	if c.Err != nil || c.Server.Sandbox == nil {
		t.Fatalf("custom = %v", c.Err)
	}
	if got, want := c.Server.Sandbox.Words(), "sandboxed: reads system files and ~/.npm; writes only in the workspace; network only to TCP ports 443 and 8080 on any host and port 8080 on this computer"; got != want {
		t.Errorf("custom words = %q\nwant %q", got, want)
	}
	for name, want := range map[string]string{
		"remote":   path + `:4:`,
		"named":    path + `:5:`,
		"badvar":   path + `:6:`,
		"relative": path + `:7:`,
		"host":     path + `:8:`,
		"port":     path + `:9:`,
		"extra":    path + `:10:`,
		"empty":    path + `:11:`,
		"kind":     path + `:12:`,
	} {
		e := entryNamed(t, cfg, name)
		if e.Err == nil || !strings.HasPrefix(e.Err.Error(), want) || !strings.Contains(e.Err.Error(), "sandbox") {
			t.Errorf("%s: err = %v, want one at %s about sandbox", name, e.Err, want)
		}
	}
	out, err := MarshalServersFile([]ConfigEntry{p, c})
	if err != nil || !strings.Contains(string(out), `"sandbox": "default"`) || !strings.Contains(string(out), `"network": [`) {
		t.Fatalf("written = %s, %v", out, err)
	}
	again := writeConfig(t, dir, "again.json", string(out))
	cfg2, err := ReadConfig(again, nil)
	if err != nil || cfg2.Err() != nil {
		t.Fatalf("read back: %v %v\n%s", err, cfg2.Err(), out)
	}
	if got := entryNamed(t, cfg2, "custom").Server.Sandbox.Canonical(); got != c.Server.Sandbox.Canonical() {
		t.Errorf("read back custom = %s; want %s", got, c.Server.Sandbox.Canonical())
	}
}

// TestConfigSandboxMalformed: every other malformed "sandbox" is an error
// of its entry at its file:line:col that names the fix; none crashes and
// the good entry beside them still reads.
func TestConfigSandboxMalformed(t *testing.T) {
	bad := []string{
		`null`, `1`, `[]`, `""`, `"Default"`,
		`{"read": "/etc"}`, `{"read": [1]}`, `{"read": [null]}`, `{"read": [["/etc"]]}`, `{"write": {}}`,
		`{"read": ["${system}/lib"]}`, `{"read": ["${home"]}`, `{"read": ["${"]}`, `{"read": ["$HOME/x"]}`, `{"read": [""]}`,
		`{"network": "LOOPBACK"}`, `{"network": ""}`, `{"network": 443}`, `{"network": [443]}`, `{"network": {"mode": "any"}}`,
		`{"network": ["*:0"]}`, `{"network": ["*:-1"]}`, `{"network": ["*:"]}`, `{"network": ["*:443 "]}`, `{"network": ["http://h:443"]}`,
		`{"network": ["10.0.0.1:443"]}`, `{"network": null}`, `{"Read": []}`,
	}
	var b strings.Builder
	b.WriteString("{\"servers\": {\n  \"good\": {\"transport\": \"stdio\", \"command\": \"x\", \"sandbox\": \"default\"}")
	for i, v := range bad {
		fmt.Fprintf(&b, ",\n  \"bad%d\": {\"transport\": \"stdio\", \"command\": \"x\", \"sandbox\": %s}", i, v)
	}
	b.WriteString("\n}}")
	path := writeConfig(t, t.TempDir(), "servers.json", b.String())
	cfg, err := ReadConfig(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if e := entryNamed(t, cfg, "good"); e.Err != nil {
		t.Fatalf("good: %v", e.Err)
	}
	for i, v := range bad {
		e := entryNamed(t, cfg, fmt.Sprintf("bad%d", i))
		want := fmt.Sprintf("%s:%d:", path, i+3)
		if e.Err == nil || !strings.HasPrefix(e.Err.Error(), want) || !strings.Contains(e.Err.Error(), "sandbox") {
			t.Errorf("%s: err = %v; want one at %s about the sandbox", v, e.Err, want)
		}
	}
}
