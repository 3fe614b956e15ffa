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
	}
	got := argSecrets(args)
	want := []string{"sk-ant-api03-abcdefghijklmnop", "ghp_0123456789abcdef", "hunter22", "github_pat_xyz", "eyJhbGciOi.payload.sig",
		"Bearer ghp_headerTOKEN123", "ghp_headerTOKEN123", "xak-0987654321"}
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
