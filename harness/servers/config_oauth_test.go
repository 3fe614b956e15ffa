package servers

import (
	"slices"
	"strings"
	"testing"
)

// TestConfigOAuthField: servers.json "oauth" is read into the server and
// written back by MarshalServersFile; each bad form is an error at its
// file:line:col naming the fix, and only that entry is broken.
func TestConfigOAuthField(t *testing.T) {
	dir := t.TempDir()
	path := writeConfig(t, dir, "servers.json", `{"servers": {
  "good": {"transport": "streamable_http", "url": "https://mcp.example.com/mcp", "oauth": {"client_id": "ow-123", "scopes": ["read", "write"]}},
  "local": {"transport": "stdio", "command": "x", "oauth": {}},
  "notobj": {"transport": "streamable_http", "url": "https://a.example/mcp", "oauth": "ow"},
  "emptyid": {"transport": "streamable_http", "url": "https://a.example/mcp", "oauth": {"client_id": ""}},
  "spaced": {"transport": "streamable_http", "url": "https://a.example/mcp", "oauth": {"scopes": ["read write"]}},
  "extra": {"transport": "streamable_http", "url": "https://a.example/mcp", "oauth": {"client_secret": "s"}}
}}`)
	cfg, err := ReadConfig(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := entryNamed(t, cfg, "good")
	if g.Err != nil || g.Server.OAuth == nil || g.Server.OAuth.ClientID != "ow-123" || !slices.Equal(g.Server.OAuth.Scopes, []string{"read", "write"}) {
		t.Fatalf("good = %+v, %v", g.Server.OAuth, g.Err)
	}
	for name, want := range map[string]string{
		"local":   path + `:3:`,
		"notobj":  path + `:4:`,
		"emptyid": path + `:5:`,
		"spaced":  path + `:6:`,
		"extra":   path + `:7:`,
	} {
		e := entryNamed(t, cfg, name)
		if e.Err == nil || !strings.HasPrefix(e.Err.Error(), want) || !strings.Contains(e.Err.Error(), "oauth") {
			t.Errorf("%s: err = %v, want one at %s about oauth", name, e.Err, want)
		}
	}
	out, err := MarshalServersFile([]ConfigEntry{g})
	if err != nil || !strings.Contains(string(out), `"oauth": {`) || !strings.Contains(string(out), `"client_id": "ow-123"`) {
		t.Fatalf("written = %s, %v", out, err)
	}
}
