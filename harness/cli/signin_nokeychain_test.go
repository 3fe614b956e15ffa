package cli_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/openworker/desktop/harness/cli"
	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/mcp/oauth/oauthtest"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// signInSetup writes a servers file naming ms as "remote" and a coworker
// that calls its whoami once per run.
func signInSetup(t *testing.T, ms *oauthtest.MCPServer) (coworkers, servers string) {
	t.Helper()
	dir := t.TempDir()
	coworkers, servers = filepath.Join(dir, "coworkers"), filepath.Join(dir, "servers.json")
	write(t, servers, `{"servers": {"remote": {"transport": "streamable_http", "url": "`+ms.URL+`"}}}`)
	cw := filepath.Join(coworkers, "helper", "coworker")
	if err := os.MkdirAll(cw, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(cw, "manifest.md"), "---\nid: helper\nname: helper\nversion: 1.0.0\npolicy:\n  remote.whoami: allow\n---\nUse your tools.\n")
	write(t, filepath.Join(cw, "tools.json"), `{"version": 3, "tools": ["remote.whoami"]}`)
	return coworkers, servers
}

// runWhoami runs one turn that calls remote.whoami with opts.
func runWhoami(t *testing.T, coworkers, servers string, stderr *syncBuffer, opts ...cli.Option) int {
	t.Helper()
	m := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "remote__whoami", Arguments: `{}`}}},
		modeltest.Reply{Text: "Done."},
	)
	var out bytes.Buffer
	args := []string{"run", "--coworkers", coworkers, "--coworker", "helper", "--servers", servers,
		"--db", filepath.Join(t.TempDir(), "journal.db"), "--base-url", m.URL, "--model", "test", "who am I?"}
	opts = append([]cli.Option{cli.WithIO(strings.NewReader(""), &out, stderr, func(string) string { return "" }, func() bool { return false })}, opts...)
	return cli.Run(context.Background(), tool.NewRegistry(), args, opts...)
}

// syncBuffer is a stderr the test reads while run writes it; onLine sees
// each line as it is written, one line at a time.
type syncBuffer struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	part   string
	onLine func(line string)
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	b.buf.Write(p)
	b.part += string(p)
	var lines []string
	for {
		i := strings.IndexByte(b.part, '\n')
		if i < 0 {
			break
		}
		lines = append(lines, b.part[:i])
		b.part = b.part[i+1:]
	}
	if b.onLine != nil {
		for _, l := range lines {
			b.onLine(l)
		}
	}
	b.mu.Unlock()
	return len(p), nil
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// docs/mcp.md#without-a-keychain: with no OS keychain, run signs in and
// keeps the grant in the encrypted file in the app's folder (0600, the key
// next to it), says so once, and the next run uses it without a sign-in;
// `servers logout` deletes it from the file.
func TestSignInWithoutKeychainFile(t *testing.T) {
	keyring.MockInitWithError(errors.New("dial unix /run/user/0/bus: connect: no such file or directory"))
	t.Cleanup(keyring.MockInit)
	as := oauthtest.NewAuthServer(t, oauthtest.Options{})
	ms := oauthtest.NewMCPServer(t, as)
	coworkers, servers := signInSetup(t, ms)
	appDir := filepath.Join(t.TempDir(), "OpenWorker")
	opts := []cli.Option{cli.WithAppSettings(appDir), cli.WithSignIn(nil, oauthtest.Browser)}

	var first syncBuffer
	if code := runWhoami(t, coworkers, servers, &first, opts...); code != 0 || ms.Calls() != 1 {
		t.Fatalf("first run = %d, calls %d\n%s", code, ms.Calls(), first.String())
	}
	file := filepath.Join(appDir, "secrets.enc")
	if n := strings.Count(first.String(), "the OS keychain is not available"); n != 1 || !strings.Contains(first.String(), file) ||
		!strings.Contains(first.String(), filepath.Join(appDir, "secrets.key")) || !strings.Contains(first.String(), "anything that runs as you can read them") {
		t.Fatalf("the notice is said %d times, want once naming both files and what it protects:\n%s", n, first.String())
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range as.Issued() {
		if bytes.Contains(raw, []byte(tok)) {
			t.Fatalf("%s holds a token in plain text", file)
		}
	}
	if st, _ := os.Stat(file); runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Fatalf("%s has mode %v", file, st.Mode().Perm())
	}

	var second syncBuffer
	if code := runWhoami(t, coworkers, servers, &second, opts...); code != 0 || ms.Calls() != 2 {
		t.Fatalf("second run = %d, calls %d\n%s", code, ms.Calls(), second.String())
	}
	if as.Count("authorize") != 1 || strings.Contains(second.String(), "needs a sign-in") || strings.Contains(second.String(), "keychain") {
		t.Fatalf("the second run signed in again (authorize %d) or said the notice again:\n%s", as.Count("authorize"), second.String())
	}

	var out, errOut bytes.Buffer
	code := cli.Run(context.Background(), tool.NewRegistry(), []string{"servers", "logout", "remote", "--servers", servers},
		append([]cli.Option{cli.WithIO(strings.NewReader(""), &out, &errOut, func(string) string { return "" }, func() bool { return false })}, opts...)...)
	if code != 0 || !strings.Contains(out.String(), "signed out of remote: the tokens "+as.Issuer+" issued were deleted from "+file) {
		t.Fatalf("logout = %d %q %q", code, out.String(), errOut.String())
	}
	if g, err := oauth.NewKeychainStore(oauth.KeychainOptions{Dir: appDir}).Load(ms.URL); g != nil || err != nil {
		t.Fatalf("after logout the file still holds %+v (%v)", g, err)
	}
}

// docs/cli.md#sign-in: a browser that fails to open (xdg-open exits 3) is
// noticed: stderr says so and to copy the URL printed above, and the
// sign-in completes when the person opens it.
func TestSignInBrowserFailsPrintsURL(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("xdg-open is the Linux opener")
	}
	bin := t.TempDir()
	write(t, filepath.Join(bin, "xdg-open"), "#!/bin/sh\nexit 3\n")
	if err := os.Chmod(filepath.Join(bin, "xdg-open"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	as := oauthtest.NewAuthServer(t, oauthtest.Options{})
	ms := oauthtest.NewMCPServer(t, as)
	coworkers, servers := signInSetup(t, ms)

	var url string
	stderr := &syncBuffer{}
	stderr.onLine = func(line string) {
		if u, ok := strings.CutPrefix(line, "  http://"); ok {
			url = "http://" + u
		}
		if strings.Contains(line, "the browser did not open (xdg-open exited with status 3); copy the URL above") && url != "" {
			go oauthtest.Browser(context.Background(), url) // the person pastes it into a browser
		}
	}
	code := runWhoami(t, coworkers, servers, stderr, cli.WithSignIn(oauth.NewMemoryStore(), nil))
	if code != 0 || ms.Calls() != 1 || as.Count("code") != 1 {
		t.Fatalf("run = %d, calls %d, code exchanges %d\n%s", code, ms.Calls(), as.Count("code"), stderr.String())
	}
	if strings.Count(stderr.String(), "/authorize?") != 1 {
		t.Fatalf("the sign-in URL is not printed exactly once:\n%s", stderr.String())
	}
}
