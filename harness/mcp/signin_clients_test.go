package mcp

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/mcp/oauth/oauthtest"
	"github.com/openworker/desktop/harness/tool"
)

const confSecret = "conf-s3cret-never-shown"

// docs/mcp.md#sign-in: a pre-registered confidential client sends its
// secret the way the token endpoint advertises, client_secret_basic or
// client_secret_post, on the code exchange and on every refresh, and the
// secret shows in no log or error.
func TestSignInConfidentialClient(t *testing.T) {
	for _, method := range []string{"client_secret_basic", "client_secret_post"} {
		t.Run(method, func(t *testing.T) {
			r := newSignInRig(t, oauthtest.Options{NoRegistration: true, Secrets: map[string]string{"ow-conf": confSecret}, AuthMethods: []string{method}, Lifetime: time.Hour})
			srv := r.server()
			srv.OAuth = &tool.MCPOAuth{ClientID: "ow-conf", ClientSecret: confSecret}
			srv.Secrets = []string{confSecret}
			var logs bytes.Buffer
			p, err := connectServer(t, srv, r, &logs)
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			r.clock.advance(time.Hour) // the next call refreshes
			if _, err := callWhoami(t, p); err != nil {
				t.Fatal(err)
			}
			other := "client_secret_post"
			if method == other {
				other = "client_secret_basic"
			}
			if r.as.Count("code") != 1 || r.as.Count("refresh") != 1 || r.as.Count("auth:"+method) != 2 || r.as.Count("auth:"+other) != 0 || r.as.Count("auth:none") != 0 {
				t.Fatalf("code %d refresh %d, %s %d, %s %d, none %d", r.as.Count("code"), r.as.Count("refresh"),
					method, r.as.Count("auth:"+method), other, r.as.Count("auth:"+other), r.as.Count("auth:none"))
			}
			if strings.Contains(logs.String(), confSecret) {
				t.Fatal("the client secret is in the logs")
			}
		})
	}
}

func connectServer(t *testing.T, srv tool.MCPServer, r *signInRig, logs *bytes.Buffer) (*Provider, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	o := &Options{SignIn: r.sign}
	if logs != nil {
		o.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	p, err := Connect(ctx, srv, o)
	if err == nil {
		t.Cleanup(func() { p.Close() })
	}
	return p, err
}

// The client credentials grant (machine to machine): nobody is asked, no
// page opens, the token endpoint gets the client's credentials and the
// resource, and an expired token is replaced by a new one of the same
// grant.
func TestSignInClientCredentials(t *testing.T) {
	r := newSignInRig(t, oauthtest.Options{NoRegistration: true, ClientCredentials: true, Secrets: map[string]string{"ow-m2m": confSecret},
		AuthMethods: []string{"client_secret_basic"}, Lifetime: time.Hour}, "mcp:read")
	srv := r.server()
	srv.OAuth = &tool.MCPOAuth{ClientID: "ow-m2m", ClientSecret: confSecret, GrantType: oauth.GrantClientCredentials}
	p, err := connectServer(t, srv, r, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	if out, err := callWhoami(t, p); err != nil || !strings.Contains(out.Text, "mcp:read") {
		t.Fatalf("call = %q, %v", out.Text, err)
	}
	if len(r.prompts()) != 0 || r.opened != 0 || r.as.Count("authorize") != 0 {
		t.Fatalf("prompts %d, pages %d, authorize %d: the client credentials grant asks nobody", len(r.prompts()), r.opened, r.as.Count("authorize"))
	}
	if r.as.Count("client_credentials") != 1 || r.as.Count("auth:client_secret_basic") != 1 || r.as.Resource != r.srv.URL {
		t.Fatalf("client_credentials %d, basic %d, resource %q", r.as.Count("client_credentials"), r.as.Count("auth:client_secret_basic"), r.as.Resource)
	}
	r.clock.advance(time.Hour)
	if _, err := callWhoami(t, p); err != nil {
		t.Fatal(err)
	}
	if r.as.Count("client_credentials") != 2 || len(r.prompts()) != 0 {
		t.Fatalf("after expiry: client_credentials %d, prompts %d", r.as.Count("client_credentials"), len(r.prompts()))
	}
	g, _ := r.store.Load(r.srv.URL)
	if g == nil || g.GrantType != oauth.GrantClientCredentials || g.RefreshToken != "" {
		t.Fatalf("grant %+v", g)
	}
}

// One sign-in per start: a sign-in that fails (here the token endpoint
// refuses the client's secret) is not tried again for the next request
// the server answers 401, so the page opens once; the error names the
// client and the server's error code, never the secret.
func TestSignInFailedIsNotRetried(t *testing.T) {
	r := newSignInRig(t, oauthtest.Options{NoRegistration: true, Secrets: map[string]string{"ow-conf": "the-right-one"}, AuthMethods: []string{"client_secret_basic"}})
	srv := r.server()
	srv.OAuth = &tool.MCPOAuth{ClientID: "ow-conf", ClientSecret: confSecret}
	_, err := connectServer(t, srv, r, nil)
	if err == nil || !strings.Contains(err.Error(), `refused the pre-registered client "ow-conf": invalid_client`) || strings.Contains(err.Error(), confSecret) {
		t.Fatalf("err = %v", err)
	}
	if len(r.prompts()) != 1 || r.opened != 1 || r.as.Count("authorize") != 1 {
		t.Fatalf("prompts %d, pages %d, authorize %d; want one sign-in", len(r.prompts()), r.opened, r.as.Count("authorize"))
	}
}

// The MCP specification's order of client identities: a pre-registered
// client wins over a client ID metadata document the server supports.
func TestSignInPreregisteredBeforeMetadataDocument(t *testing.T) {
	r := newSignInRig(t, oauthtest.Options{CIMD: true, Clients: []string{"ow-pre"}})
	r.sign.ClientMetadataURL = "https://openworker.example/oauth/client.json"
	srv := r.server()
	srv.OAuth = &tool.MCPOAuth{ClientID: "ow-pre"}
	if _, err := connectServer(t, srv, r, nil); err != nil {
		t.Fatal(err)
	}
	if g, _ := r.store.Load(r.srv.URL); g == nil || g.ClientID != "ow-pre" || r.as.Count("register") != 0 {
		t.Fatalf("grant %+v, registrations %d", g, r.as.Count("register"))
	}
}

// docs/mcp.md#sign-in: a browser that fails to open is told to
// SignIn.OpenFailed with the page's URL, and the sign-in waits for the
// person to open it themselves; without OpenFailed it fails at once.
func TestSignInBrowserDidNotOpen(t *testing.T) {
	r := newSignInRig(t, oauthtest.Options{})
	noBrowser := errors.New("xdg-open exited with status 3")
	r.sign.Open = func(context.Context, string) error { return noBrowser }
	var told []string
	r.sign.OpenFailed = func(ctx context.Context, p oauth.Prompt, err error) {
		told = append(told, err.Error())
		go oauthtest.Browser(context.Background(), p.URL) // the person copies the URL into a browser
	}
	if _, err := r.connect(t, nil); err != nil {
		t.Fatalf("connect: %v", err)
	}
	if len(told) != 1 || told[0] != noBrowser.Error() || r.as.Count("code") != 1 {
		t.Fatalf("told %q, code exchanges %d", told, r.as.Count("code"))
	}

	r2 := newSignInRig(t, oauthtest.Options{})
	r2.sign.Open = func(context.Context, string) error { return noBrowser }
	if _, err := r2.connect(t, nil); err == nil || !strings.Contains(err.Error(), "could not open the sign-in page") {
		t.Fatalf("without OpenFailed: %v", err)
	}
}
