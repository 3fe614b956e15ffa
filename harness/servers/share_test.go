package servers

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestMarshalSharedHidesSecrets: every credential written literally in a
// servers file is replaced by an input in what MarshalShared writes, the
// references and harmless values stay, and the file read back with the
// inputs answered gives each server its secret back in place.
func TestMarshalSharedHidesSecrets(t *testing.T) {
	fakeEnv(t, map[string]string{"HOME_TOKEN": "from-the-environment"})
	secrets := []string{
		"ghp_0123456789abcdefghijklmnop", "sk-live-abcdefghijklmnop", "hunter2-db-password", "tok-in-header-123456",
		"s3cr3t-flag-value", "query-key-0123456789", "x-api-key-value-1", "p4ssw0rd-in-url",
	}
	src := filepath.Join(t.TempDir(), "servers.json")
	os.WriteFile(src, []byte(`{
  "inputs": [{"type": "promptString", "id": "kept", "description": "kept as it is", "password": true}],
  "servers": {
    "github": {"transport": "stdio", "command": "npx", "args": ["-y", "server-github", "--api-key", "s3cr3t-flag-value", "--mode=fast"],
      "env": {"GITHUB_TOKEN": "ghp_0123456789abcdefghijklmnop", "HOME_TOKEN": "${HOME_TOKEN}", "LOG_LEVEL": "debug",
              "DATABASE_URL": "postgres://admin:hunter2-db-password@db.example.com/app", "OTHER": "${input:kept}"}},
    "remote": {"transport": "streamable_http", "url": "https://user:p4ssw0rd-in-url@mcp.example.com/mcp?key=query-key-0123456789&page=1",
      "headers": {"Authorization": "Bearer tok-in-header-123456", "X-Api-Key": "x-api-key-value-1", "Accept": "application/json"}},
    "oneline": {"transport": "stdio", "command": "tool --token=sk-live-abcdefghijklmnop"}
  }
}`), 0o600)
	cfg, err := ReadConfig(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, shared, err := MarshalShared(cfg.Entries)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range secrets {
		if strings.Contains(string(data), s) {
			t.Errorf("the shared file holds the secret %q:\n%s", s, data)
		}
	}
	for _, keep := range []string{`"${HOME_TOKEN}"`, `"${input:kept}"`, `"debug"`, `"application/json"`, `"--mode=fast"`, `"Bearer ${input:remote-header-Authorization}"`,
		`"postgres://admin:${input:github-DATABASE_URL}@db.example.com/app"`, `"tool --token=${input:oneline-command}"`} {
		if !strings.Contains(string(data), keep) {
			t.Errorf("the shared file lacks %s:\n%s", keep, data)
		}
	}
	want := []SharedInput{
		{Namespace: "github", Field: "args[3]", Input: "github-arg-3"},
		{Namespace: "github", Field: "env.GITHUB_TOKEN", Input: "github-GITHUB_TOKEN"},
		{Namespace: "github", Field: "env.DATABASE_URL", Input: "github-DATABASE_URL"},
		{Namespace: "remote", Field: "headers.Authorization", Input: "remote-header-Authorization"},
		{Namespace: "remote", Field: "headers.X-Api-Key", Input: "remote-header-X-Api-Key"},
		{Namespace: "remote", Field: "url", Input: "remote-url"},
		{Namespace: "remote", Field: "url", Input: "remote-url-2"},
		{Namespace: "oneline", Field: "command", Input: "oneline-command"},
	}
	if diff := cmp.Diff(want, shared, cmpopts.IgnoreUnexported(SharedInput{})); diff != "" {
		t.Errorf("shared inputs (-want +got):\n%s", diff)
	}

	// Read back with each input answered by the secret it replaced: the
	// same servers as before.
	answers := map[string]string{
		"kept": "kept-answer", "github-arg-3": "s3cr3t-flag-value", "github-GITHUB_TOKEN": "ghp_0123456789abcdefghijklmnop",
		"github-DATABASE_URL": "hunter2-db-password", "remote-header-Authorization": "tok-in-header-123456",
		"remote-header-X-Api-Key": "x-api-key-value-1", "oneline-command": "sk-live-abcdefghijklmnop",
		"remote-url": "p4ssw0rd-in-url", "remote-url-2": "query-key-0123456789",
	}
	asked := map[string]bool{}
	ask := func(_ context.Context, id, description string, password bool) (string, error) {
		if !password && id != "kept" {
			t.Errorf("input %q is not a password", id)
		}
		asked[id] = true
		return answers[id], nil
	}
	out := filepath.Join(t.TempDir(), "shared.json")
	os.WriteFile(out, data, 0o600)
	back, err := ReadConfig(out, &ConfigOptions{Inputs: ask})
	if err != nil {
		t.Fatal(err)
	}
	orig, _ := ReadConfig(src, &ConfigOptions{Inputs: func(context.Context, string, string, bool) (string, error) { return "kept-answer", nil }})
	for i, e := range back.Entries {
		if e.Err != nil {
			t.Fatalf("entry %s read back: %v", e.Name, e.Err)
		}
		o := orig.Entries[i].Server
		if diff := cmp.Diff(o.Program, e.Server.Program); diff != "" {
			t.Errorf("%s program (-want +got):\n%s", e.Name, diff)
		}
		if diff := cmp.Diff(o.Args, e.Server.Args); diff != "" {
			t.Errorf("%s args (-want +got):\n%s", e.Name, diff)
		}
		if diff := cmp.Diff(o.Env, e.Server.Env); diff != "" {
			t.Errorf("%s env (-want +got):\n%s", e.Name, diff)
		}
		if diff := cmp.Diff(o.URL, e.Server.URL); diff != "" {
			t.Errorf("%s url (-want +got):\n%s", e.Name, diff)
		}
		if diff := cmp.Diff(o.Headers, e.Server.Headers); diff != "" {
			t.Errorf("%s headers (-want +got):\n%s", e.Name, diff)
		}
	}
	if len(asked) != len(answers) {
		t.Errorf("asked %v, want every input of %v", asked, answers)
	}
}
