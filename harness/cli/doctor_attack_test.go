package cli_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

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

// A provider that answers initialize but never tools/list is reported as
// failed within the start bound; doctor does not hang on it.
func TestDoctorListingIsBounded(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "stuck", Version: "1.0.0"}, nil)
	sdk.AddTool(srv, &sdk.Tool{Name: "t"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{}, nil, nil
	})
	release := make(chan struct{})
	srv.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "tools/list" {
				select { // until the test ends: the client's giving up need not reach here
				case <-ctx.Done():
				case <-release:
				}
				return nil, context.Canceled
			}
			return next(ctx, method, req)
		}
	})
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	t.Cleanup(func() { close(release) }) // runs before hs.Close
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	rep := cli.Doctor(ctx, cli.DoctorInput{
		Servers:      []tool.MCPServer{{Namespace: "stuck", Transport: "streamable_http", URL: hs.URL}},
		StartTimeout: 5 * time.Second, // fires on purpose, after initialize: room for that on a loaded machine
		JournalPath:  filepath.Join(t.TempDir(), "journal.db"),
	})
	if ctx.Err() != nil {
		t.Fatal("doctor did not return within the hang guard")
	}
	text := rep.Text()
	if flat := strings.Join(strings.Fields(text), " "); !strings.Contains(flat, "provider stuck failed: ") || !strings.Contains(flat, "listing its tools failed") {
		t.Errorf("want the stuck provider failed while listing:\n%s", text)
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
