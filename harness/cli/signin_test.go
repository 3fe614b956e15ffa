package cli_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/openworker/desktop/harness/cli"
	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/mcp/oauth/oauthtest"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// docs/cli.md#servers-logout: `servers logout NS` deletes the grant of the
// remote server NS from the (mock) OS keychain and says whose tokens they
// were; a second logout says there is nothing to delete; an unknown
// namespace and a stdio server are refused with the reason.
func TestServersLogout(t *testing.T) {
	keyring.MockInit()
	dir := t.TempDir()
	servers := filepath.Join(dir, "servers.json")
	write(t, servers, `{"servers": {
  "remote": {"transport": "streamable_http", "url": "https://mcp.example.com/mcp"},
  "local": {"transport": "stdio", "command": "true"}
}}`)
	store := oauth.KeychainStore{}
	if err := store.Save(&oauth.Grant{Server: "https://mcp.example.com/mcp", Resource: "https://mcp.example.com/mcp", Issuer: "https://auth.example.com",
		ClientID: "c1", TokenURL: "https://auth.example.com/token", AccessToken: "at-logout-secret", RefreshToken: "rt-logout-secret"}); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLISplit(t, "servers", "logout", "remote", "--servers", servers)
	if code != 0 || !strings.Contains(out, "signed out of remote: the tokens https://auth.example.com issued were deleted") {
		t.Fatalf("logout = %d %q %q", code, out, errOut)
	}
	if g, _ := store.Load("https://mcp.example.com/mcp"); g != nil {
		t.Fatal("the grant is still in the keychain")
	}
	if strings.Contains(out+errOut, "logout-secret") {
		t.Fatal("logout printed a token")
	}
	code, out, _ = runCLISplit(t, "servers", "logout", "remote", "--servers", servers)
	if code != 0 || !strings.Contains(out, "remote is not signed in; nothing to delete") {
		t.Fatalf("second logout = %d %q", code, out)
	}
	code, _, errOut = runCLISplit(t, "servers", "logout", "nosuch", "--servers", servers)
	if code == 0 || !strings.Contains(errOut, `has no server "nosuch"`) {
		t.Fatalf("unknown = %d %q", code, errOut)
	}
	code, _, errOut = runCLISplit(t, "servers", "logout", "local", "--servers", servers)
	if code == 0 || !strings.Contains(errOut, "is not a remote streamable HTTP server") {
		t.Fatalf("stdio = %d %q", code, errOut)
	}
}

// docs/mcp.md#sign-in, never written: `run` signs in to a protected
// server on 127.0.0.1 (the test performs the browser step), the scripted
// model calls its tool, and neither the access nor the refresh token
// appears in run's output, the journal's SQLite files, or `doctor` (text
// and JSON) with the grant in the (mock) keychain.
func TestSignInTokensNeverWritten(t *testing.T) {
	keyring.MockInit()
	as := oauthtest.NewAuthServer(t, oauthtest.Options{Iss: true})
	ms := oauthtest.NewMCPServer(t, as)
	dir := t.TempDir()
	s := struct{ coworkers, servers string }{filepath.Join(dir, "coworkers"), filepath.Join(dir, "servers.json")}
	write(t, s.servers, `{"servers": {"remote": {"transport": "streamable_http", "url": "`+ms.URL+`"}}}`)
	cw := filepath.Join(s.coworkers, "helper", "coworker")
	if err := os.MkdirAll(cw, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(cw, "manifest.md"), "---\nid: helper\nname: helper\nversion: 1.0.0\npolicy:\n  remote.whoami: allow\n---\nUse your tools.\n")
	write(t, filepath.Join(cw, "tools.json"), `{"version": 3, "tools": ["remote.whoami"]}`)
	m := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "remote__whoami", Arguments: `{}`}}},
		modeltest.Reply{Text: "Done."},
	)
	db := filepath.Join(t.TempDir(), "journal.db")
	var out, errOut bytes.Buffer
	code := cli.Run(context.Background(), tool.NewRegistry(), []string{"run", "--coworkers", s.coworkers, "--coworker", "helper", "--servers", s.servers,
		"--db", db, "--base-url", m.URL, "--model", "test", "who am I?"},
		cli.WithIO(strings.NewReader(""), &out, &errOut, func(string) string { return "" }, func() bool { return false }),
		cli.WithSignIn(oauth.KeychainStore{}, oauthtest.Browser))
	if code != 0 || ms.Calls() != 1 {
		t.Fatalf("run = %d, calls %d\nstdout %s\nstderr %s", code, ms.Calls(), out.String(), errOut.String())
	}
	if !strings.Contains(errOut.String(), "remote ("+strings.TrimPrefix(ms.Server.URL, "http://")+") needs a sign-in at ") {
		t.Errorf("stderr does not say which server needs a sign-in:\n%s", errOut.String())
	}
	g, _ := oauth.KeychainStore{}.Load(ms.URL)
	if g == nil || g.AccessToken == "" || g.RefreshToken == "" {
		t.Fatalf("no grant in the keychain: %+v", g)
	}
	blobs := map[string][]byte{"run stdout": out.Bytes(), "run stderr": errOut.Bytes()}
	files, _ := filepath.Glob(db + "*")
	for _, f := range files {
		if st, err := os.Stat(f); err != nil || st.IsDir() {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		blobs[f] = b
	}
	for _, args := range [][]string{{"doctor", "--db", db, "--servers", s.servers}, {"doctor", "--db", db, "--servers", s.servers, "--json"}} {
		var dout bytes.Buffer
		cli.Run(context.Background(), tool.NewRegistry(), args,
			cli.WithIO(strings.NewReader(""), &dout, &dout, func(string) string { return "" }, func() bool { return false }),
			cli.WithSignIn(oauth.KeychainStore{}, oauthtest.Browser))
		blobs[strings.Join(args, " ")] = dout.Bytes()
		if strings.Contains(dout.String(), "Unauthorized") || strings.Contains(dout.String(), "needs a sign-in") {
			t.Errorf("%v did not start the signed-in provider with its stored tokens:\n%s", args, dout.String())
		}
	}
	if len(files) == 0 || !bytes.Contains(blobs[files[0]], []byte("remote.whoami")) {
		t.Fatalf("the journal does not hold the call (files %v)", files)
	}
	for where, b := range blobs {
		for _, tok := range append(as.Issued(), g.AccessToken, g.RefreshToken) {
			if bytes.Contains(b, []byte(tok)) {
				t.Errorf("%s holds a token (%s…)", where, tok[:6])
			}
		}
	}
}
