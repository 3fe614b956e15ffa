package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/mcp/oauth/oauthtest"
)

// docs/app.md#sign-in: opening a chat with a coworker that uses a remote
// server asking for a sign-in first asks the window (EventSignIn, naming
// the server and its host); after Sign in (the test performs the
// browser's part) the chat opens, Settings lists the server as signed in
// and Sign out deletes its tokens from the store (the keychain's stand-in). Cancel
// declines: the chat does not open and the page is never visited.
func TestSignInAskedThenSignOut(t *testing.T) {
	as := oauthtest.NewAuthServer(t, oauthtest.Options{Iss: true})
	ms := oauthtest.NewMCPServer(t, as)
	servers := filepath.Join(t.TempDir(), "servers.json")
	os.WriteFile(servers, []byte(`{"servers": {"remote": {"transport": "streamable_http", "url": "`+ms.URL+`"}}}`), 0o644)
	e := newTestEnv(t, envOpts{cfg: config{Servers: servers, Approve: "bypass"}})
	writeBundle(t, e.bundles, "remote", "remote.whoami")

	open := func() chan error {
		done := make(chan error, 1)
		go func() { _, err := e.app.Chats.OpenChat("remote"); done <- err }()
		return done
	}
	done := open()
	req := e.rec.waitFor(t, EventSignIn, nil).(SignInRequest)
	if req.Namespace != "remote" || req.Server != strings.TrimPrefix(ms.Server.URL, "http://") || !strings.HasPrefix(req.URL, as.URL+"/authorize?") {
		t.Fatalf("sign-in request = %+v", req)
	}
	if err := e.app.Asks.AnswerSignIn(req.ID, true); err != nil {
		t.Fatal(err)
	}
	if err := oauthtest.Browser(context.Background(), req.URL); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("OpenChat after the sign-in: %v", err)
	}
	if err := e.app.Asks.AnswerSignIn(req.ID, true); err == nil || !strings.Contains(err.Error(), "no longer waiting") {
		t.Fatalf("a second answer = %v", err)
	}
	in := e.app.Servers.SignedIn()
	if len(in) != 1 || in[0].Namespace != "remote" || in[0].Issuer != as.Issuer {
		t.Fatalf("SignedIn = %+v", in)
	}
	if g, _ := e.tokens.Load(ms.URL); g == nil || g.Issuer != as.Issuer {
		t.Fatalf("stored grant = %+v", g)
	}
	left, err := e.app.Servers.SignOut("remote")
	if err != nil || len(left) != 0 {
		t.Fatalf("SignOut = %+v, %v", left, err)
	}
	if _, err := e.app.Servers.SignOut("remote"); err == nil || !strings.Contains(err.Error(), "not signed in") {
		t.Fatalf("a second SignOut = %v", err)
	}
	for _, l := range e.rec.all(EventNotice) {
		for _, tok := range as.Issued() {
			if strings.Contains(l.(Notice).Message, tok) {
				t.Fatal("a notice holds a token")
			}
		}
	}
}
