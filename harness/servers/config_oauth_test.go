package servers

import (
	"context"
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

// TestConfigOAuthClientSecret (docs/servers.md#oauth): "client_secret"
// references the secret (an environment variable or an input), is
// substituted into the server and kept among its Secrets, and is written
// back as the reference; a literal secret, text around a reference, a
// secret without a client id, an unknown grant type and client
// credentials without a secret are errors of their entry at their place.
func TestConfigOAuthClientSecret(t *testing.T) {
	dir := t.TempDir()
	path := writeConfig(t, dir, "servers.json", `{
  "inputs": [{"type": "promptString", "id": "crm-secret", "description": "CRM client secret", "password": true}],
  "servers": {
  "env": {"transport": "streamable_http", "url": "https://mcp.example.com/mcp", "oauth": {"client_id": "ow", "client_secret": "${CRM_SECRET}"}},
  "input": {"transport": "streamable_http", "url": "https://mcp.example.com/mcp", "oauth": {"client_id": "ow", "client_secret": "${input:crm-secret}", "grant_type": "client_credentials"}},
  "literal": {"transport": "streamable_http", "url": "https://a.example/mcp", "oauth": {"client_id": "ow", "client_secret": "hunter2"}},
  "mixed": {"transport": "streamable_http", "url": "https://a.example/mcp", "oauth": {"client_id": "ow", "client_secret": "pre-${CRM_SECRET}"}},
  "noid": {"transport": "streamable_http", "url": "https://a.example/mcp", "oauth": {"client_secret": "${CRM_SECRET}"}},
  "grant": {"transport": "streamable_http", "url": "https://a.example/mcp", "oauth": {"client_id": "ow", "grant_type": "password"}},
  "m2m": {"transport": "streamable_http", "url": "https://a.example/mcp", "oauth": {"client_id": "ow", "grant_type": "client_credentials"}},
  "unset": {"transport": "streamable_http", "url": "https://a.example/mcp", "oauth": {"client_id": "ow", "client_secret": "${NOT_SET_HERE}"}}
}}`)
	env := map[string]string{"CRM_SECRET": "from-the-env"}
	cfg, err := ReadConfig(path, &ConfigOptions{
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Inputs:    func(_ context.Context, id, _ string, _ bool) (string, error) { return "from-the-input", nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	e := entryNamed(t, cfg, "env")
	if e.Err != nil || e.Server.OAuth.ClientSecret != "from-the-env" || !slices.Contains(e.Server.Secrets, "from-the-env") {
		t.Fatalf("env = %+v, secrets %q, %v", e.Server.OAuth, e.Server.Secrets, e.Err)
	}
	in := entryNamed(t, cfg, "input")
	if in.Err != nil || in.Server.OAuth.ClientSecret != "from-the-input" || in.Server.OAuth.GrantType != "client_credentials" || !slices.Contains(in.Server.Secrets, "from-the-input") {
		t.Fatalf("input = %+v, %v", in.Server.OAuth, in.Err)
	}
	for name, want := range map[string]string{
		"literal": path + `:6:`, "mixed": path + `:7:`, "noid": path + `:8:`, "grant": path + `:9:`, "m2m": path + `:10:`, "unset": path + `:11:`,
	} {
		e := entryNamed(t, cfg, name)
		if e.Err == nil || !strings.HasPrefix(e.Err.Error(), want) || strings.Contains(e.Err.Error(), "hunter2") {
			t.Errorf("%s: err = %v, want one at %s that does not repeat the secret", name, e.Err, want)
		}
	}
	out, err := MarshalServersFile([]ConfigEntry{e, in})
	if err != nil || !strings.Contains(string(out), `"client_secret": "${CRM_SECRET}"`) || !strings.Contains(string(out), `"client_secret": "${input:crm-secret}"`) ||
		!strings.Contains(string(out), `"grant_type": "client_credentials"`) || strings.Contains(string(out), "from-the-") {
		t.Fatalf("written = %s, %v", out, err)
	}
}
