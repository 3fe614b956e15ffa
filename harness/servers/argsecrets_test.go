package servers

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/internal/redact"
)

func TestArgSecrets(t *testing.T) {
	args := []string{
		"-y", "@brave/brave-search-mcp-server",
		"--api-key", "sk-ant-api03-abcdefghijklmnop",
		"--token=ghp_0123456789abcdef",
		"-password=hunter22",
		"GITHUB_PERSONAL_ACCESS_TOKEN=github_pat_xyz",
		"Bearer eyJhbGciOi.payload.sig",
		"Authorization: Bearer ghp_headerTOKEN123",
		"X-Api-Key: xak-0987654321",
		"see http://127.0.0.1:8080/x", // a colon that is no header
		"--auth", "--verbose",         // an option after it is no value
		"--keyboard-layout", "dvorak", // KEYBOARD is not KEY
		"/home/someone/notes=old", // a path with "=" is no option
		"--log-level=debug",
		"GH=ghp_aB3dE5gH7jK9mN1pQ3sT5vX7z", // a token under a neutral name
		"xoxb-123456789012-abcdefghij",     // a bare token
		"--mode=sk-short",                  // too short for one
	}
	got := argSecrets(args)
	want := []string{"sk-ant-api03-abcdefghijklmnop", "ghp_0123456789abcdef", "hunter22", "github_pat_xyz", "eyJhbGciOi.payload.sig",
		"Bearer ghp_headerTOKEN123", "ghp_headerTOKEN123", "xak-0987654321", "ghp_aB3dE5gH7jK9mN1pQ3sT5vX7z", "xoxb-123456789012-abcdefghij"}
	if !slices.Equal(got, want) {
		t.Fatalf("argSecrets = %q, want %q", got, want)
	}
}

// A key written straight into "args" (as Claude Desktop configurations
// often have it) is a secret of the provider: a server that fails and
// echoes it on stderr does not bring it back in the start error.
func TestArgSecretNotInStartError(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses /bin/sh")
	}
	const key = "sk-ant-api03-abcdefghijklmnop"
	p := filepath.Join(t.TempDir(), "servers.json")
	cfg := `{"servers": {"brave": {"command": "/bin/sh", "args": ["-c", "echo \"error: invalid key $2 passed as $1\" >&2; exit 1", "sh", "--api-key", "` + key + `"]}}}`
	if err := os.WriteFile(p, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := ReadConfig(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	servers, broken := c.Servers()
	if len(servers) != 1 || len(broken) != 0 {
		t.Fatalf("servers %+v, broken %+v", servers, broken)
	}
	if !slices.Contains(servers[0].Secrets, key) {
		t.Fatalf("Secrets = %q; want the key of --api-key", servers[0].Secrets)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err = mcp.Connect(ctx, servers[0], &mcp.Options{})
	if err == nil {
		t.Fatal("Connect succeeded; want the start error")
	}
	if msg := err.Error(); strings.Contains(msg, key) || !strings.Contains(msg, "invalid key "+redact.Redacted) {
		t.Errorf("start error = %q; want the key redacted in the stderr tail", msg)
	}
}

// TestNeutralNameTokenIsSecret: a token under a neutral name (GH=ghp_…,
// in "env" or as an argument) is one of the server's Secrets, so the
// harness redacts it from what reaches the model and the journal; a
// plain value under a neutral name is not.
func TestNeutralNameTokenIsSecret(t *testing.T) {
	tok := "ghp_" + "aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gH3jK5"
	aws := "AKIAIOSFODNN7EXAMPLE"
	p := writeConfig(t, t.TempDir(), "claude_desktop_config.json", `{"mcpServers": {"gh": {"command": "srv", "args": ["--org", "acme", "`+aws+`"], "env": {"GH": "`+tok+`", "MODE": "fast"}}}}`)
	cfg, err := ReadConfig(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := entryNamed(t, cfg, "gh")
	if e.Err != nil || !slices.Contains(e.Server.Secrets, tok) || !slices.Contains(e.Server.Secrets, aws) || slices.Contains(e.Server.Secrets, "fast") || slices.Contains(e.Server.Secrets, "acme") {
		t.Fatalf("secrets = %q, err %v", e.Server.Secrets, e.Err)
	}
	if r := redact.New(e.Server.Secrets); r.Replace("the token is "+tok) != "the token is "+redact.Redacted {
		t.Errorf("not redacted: %q", r.Replace("the token is "+tok))
	}
}
