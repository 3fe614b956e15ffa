package servers

import (
	"strings"
	"testing"
)

// TestConfigTasks: servers.json "tasks": true is read into the server's
// Tasks and written back; a value that is not a boolean is an error
// naming the file, the line and the fix.
func TestConfigTasks(t *testing.T) {
	dir := t.TempDir()
	path := writeConfig(t, dir, "servers.json", `{"servers": {
  "reports": {"transport": "streamable_http", "url": "http://127.0.0.1:9/mcp", "tasks": true},
  "plain": {"transport": "stdio", "command": "x"},
  "quoted": {"transport": "stdio", "command": "x", "tasks": "yes"}
}}`)
	cfg, err := ReadConfig(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if e := entryNamed(t, cfg, "reports"); e.Err != nil || !e.Server.Tasks {
		t.Fatalf("reports = %+v", e)
	}
	if e := entryNamed(t, cfg, "plain"); e.Err != nil || e.Server.Tasks {
		t.Fatalf("plain = %+v", e)
	}
	q := entryNamed(t, cfg, "quoted")
	if q.Err == nil || !strings.Contains(q.Err.Error(), `servers.json:4:`) || !strings.Contains(q.Err.Error(), `write "tasks": true`) {
		t.Fatalf("quoted err = %v", q.Err)
	}
	out, err := MarshalServersFile([]ConfigEntry{entryNamed(t, cfg, "reports"), entryNamed(t, cfg, "plain")})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(out), `"tasks": true`) != 1 {
		t.Fatalf("written:\n%s", out)
	}
}
