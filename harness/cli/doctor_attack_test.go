package cli_test

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/cli"
	"github.com/openworker/desktop/harness/tool"
)

// Secrets in the shapes real configurations have (keys written into args,
// a header given to mcp-remote, docker's -e, a token in a URL's path,
// proxy credentials, GITHUB_PAT) never reach the report, even when a
// failing server prints its arguments and environment on stderr.
func TestDoctorHidesSecretsOfRealConfigShapes(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the failing server is /bin/sh")
	}
	const (
		argKey    = "sk-ARGLEAK-0123456789abcdef"
		headerTok = "ghp_HEADERLEAK0123456789"
		dockerTok = "ghp_DOCKERLEAK0123456789"
		pathTok   = "zapPATHLEAK5555abcdef"
		proxyPass = "PROXYLEAK8888"
		patValue  = "github_pat_PATLEAK777"
	)
	t.Setenv("HTTPS_PROXY", "http://bob:"+proxyPass+"@127.0.0.1:9")
	t.Setenv("GITHUB_PAT", patValue)
	t.Setenv("NO_PROXY", "127.0.0.1")
	dir := t.TempDir()
	servers := filepath.Join(dir, "servers.json")
	write(t, servers, `{"servers": {
  "echo": {"transport": "stdio", "command": "/bin/sh", "args": ["-c", "echo \"$@\" >&2; env >&2; exit 1", "sh",
    "--api-key=`+argKey+`", "--header", "Authorization: Bearer `+headerTok+`", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN=`+dockerTok+`"]},
  "zap": {"transport": "streamable_http", "url": "http://127.0.0.1:9/api/mcp/s/`+pathTok+`/mcp"}
}}`)
	text := doctorText(t, servers)
	for _, secret := range []string{argKey, headerTok, dockerTok, pathTok, proxyPass, patValue} {
		if strings.Contains(text, secret) {
			t.Errorf("doctor shows %q:\n%s", secret, text)
		}
	}
	flat := strings.Join(strings.Fields(text), " ") // keys are padded to one width
	if !strings.Contains(flat, "provider echo failed: stdio /bin/sh") || !strings.Contains(flat, "provider zap failed:") {
		t.Errorf("want both providers failed:\n%s", text)
	}
}

// doctorText runs `openworker doctor --servers servers` and returns its
// output.
func doctorText(t *testing.T, servers string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	var out, errOut strings.Builder
	db := filepath.Join(t.TempDir(), "journal.db")
	code := cli.Run(ctx, tool.NewRegistry(), []string{"doctor", "--db", db, "--servers", servers},
		cli.WithIO(strings.NewReader(""), &out, &errOut, func(k string) string { return "" }, func() bool { return false }))
	if code != cli.ExitOK {
		t.Fatalf("doctor = %d\n%s\n%s", code, out.String(), errOut.String())
	}
	return out.String() + errOut.String()
}
