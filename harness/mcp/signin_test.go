package mcp

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/mcp/oauth/oauthtest"
	"github.com/openworker/desktop/harness/tool"
)

// fakeClock is an injected clock for refresh timing: real time plus an
// offset the test moves.
type fakeClock struct{ off atomic.Int64 }

func (c *fakeClock) now() time.Time          { return time.Now().Add(time.Duration(c.off.Load())) }
func (c *fakeClock) advance(d time.Duration) { c.off.Add(int64(d)) }

// signInRig is an authorization server, a protected MCP server and the
// host's SignIn whose Open performs the browser step itself.
type signInRig struct {
	as      *oauthtest.AuthServer
	srv     *oauthtest.MCPServer
	store   *oauth.MemoryStore
	clock   *fakeClock
	mu      sync.Mutex
	asked   []oauth.Prompt
	opened  int
	sign    *oauth.SignIn
	decline atomic.Bool // Ask answers no
}

func newSignInRig(t *testing.T, o oauthtest.Options, scopes ...string) *signInRig {
	return newSignInRigWith(t, o, oauthtest.MCPOptions{Scopes: scopes})
}

// newSignInRigWith is newSignInRig with the MCP server shaped by mo.
func newSignInRigWith(t *testing.T, o oauthtest.Options, mo oauthtest.MCPOptions) *signInRig {
	r := &signInRig{store: oauth.NewMemoryStore(), clock: &fakeClock{}}
	o.Now = r.clock.now
	r.as = oauthtest.NewAuthServer(t, o)
	r.srv = oauthtest.NewMCPServerWith(t, r.as, mo)
	r.sign = &oauth.SignIn{
		Store: r.store,
		Now:   r.clock.now,
		Ask: func(_ context.Context, p oauth.Prompt) (bool, error) {
			r.mu.Lock()
			r.asked = append(r.asked, p)
			r.mu.Unlock()
			return !r.decline.Load(), nil
		},
		Open: func(ctx context.Context, u string) error {
			r.mu.Lock()
			r.opened++
			r.mu.Unlock()
			return oauthtest.Browser(ctx, u)
		},
	}
	return r
}

func (r *signInRig) prompts() []oauth.Prompt {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]oauth.Prompt(nil), r.asked...)
}

func (r *signInRig) server() tool.MCPServer {
	return tool.MCPServer{Namespace: "remote", Transport: tool.TransportStreamableHTTP, URL: r.srv.URL}
}

func (r *signInRig) connect(t *testing.T, logs *bytes.Buffer) (*Provider, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	o := &Options{SignIn: r.sign}
	if logs != nil {
		o.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	p, err := Connect(ctx, r.server(), o)
	if err == nil {
		t.Cleanup(func() { p.Close() })
	}
	return p, err
}

func callWhoami(t *testing.T, p *Provider) (tool.Output, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return p.CallTool(ctx, "whoami", []byte(`{}`), nil)
}

func TestSignInFirstCallThenToolCall(t *testing.T) {
	r := newSignInRig(t, oauthtest.Options{Iss: true, Scopes: []string{"mcp:read"}}, "mcp:read")
	p, err := r.connect(t, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	out, err := callWhoami(t, p)
	if err != nil || !strings.Contains(out.Text, "hello") {
		t.Fatalf("call = %q, %v", out.Text, err)
	}
	if got := r.prompts(); len(got) != 1 || got[0].Namespace != "remote" || got[0].Server != hostOf(r.srv.URL) || got[0].Again {
		t.Fatalf("prompts = %+v", got)
	}
	if r.as.Count("register") != 1 || r.as.Count("code") != 1 {
		t.Fatalf("register %d code %d, want 1 and 1", r.as.Count("register"), r.as.Count("code"))
	}
	if r.as.Resource != r.srv.URL {
		t.Fatalf("resource sent = %q, want %q", r.as.Resource, r.srv.URL)
	}
	g, _ := r.store.Load(r.srv.URL)
	if g == nil || g.Issuer != r.as.Issuer || g.RefreshToken == "" || g.Resource != r.srv.URL {
		t.Fatalf("stored grant = %+v", g)
	}
}

func hostOf(u string) string { return strings.SplitN(strings.TrimPrefix(u, "http://"), "/", 2)[0] }

func TestSignInStoredTokenReusedByNewProvider(t *testing.T) {
	r := newSignInRig(t, oauthtest.Options{})
	p, err := r.connect(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	p2, err := r.connect(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := callWhoami(t, p2); err != nil {
		t.Fatal(err)
	}
	if n := len(r.prompts()); n != 1 || r.as.Count("authorize") != 1 {
		t.Fatalf("prompts %d, authorizations %d; want one sign-in in all", n, r.as.Count("authorize"))
	}
}

func TestSignInRefreshesBeforeExpiry(t *testing.T) {
	r := newSignInRig(t, oauthtest.Options{Lifetime: time.Hour})
	p, err := r.connect(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := r.store.Load(r.srv.URL)
	r.clock.advance(time.Hour - 30*time.Second) // within oauth.RefreshEarly of the expiry, still valid on the server
	if _, err := callWhoami(t, p); err != nil {
		t.Fatal(err)
	}
	if r.as.Count("refresh") != 1 || len(r.prompts()) != 1 {
		t.Fatalf("refreshes %d prompts %d; want 1 and 1", r.as.Count("refresh"), len(r.prompts()))
	}
	after, _ := r.store.Load(r.srv.URL)
	if after.AccessToken == before.AccessToken || after.RefreshToken == before.RefreshToken {
		t.Fatal("the refreshed tokens were not saved")
	}
	seen := r.srv.Seen()
	if seen[len(seen)-1] != after.AccessToken {
		t.Fatal("the call did not carry the refreshed token")
	}
}

func TestSignInAgainAfterRevokedRefresh(t *testing.T) {
	r := newSignInRig(t, oauthtest.Options{Lifetime: time.Hour})
	p, err := r.connect(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.as.RevokeAll()
	r.clock.advance(2 * time.Hour)
	if _, err := callWhoami(t, p); err != nil {
		t.Fatalf("call after revocation: %v (seen %v, refreshes %d, codes %d)", err, r.srv.Seen(), r.as.Count("refresh"), r.as.Count("code"))
	}
	got := r.prompts()
	if len(got) != 2 || !got[1].Again {
		t.Fatalf("prompts = %+v, want a second sign-in marked Again", got)
	}
	if r.as.Count("code") != 2 {
		t.Fatalf("codes %d, want 2", r.as.Count("code"))
	}
}

func TestSignInRefusesWrongIssuer(t *testing.T) {
	r := newSignInRig(t, oauthtest.Options{WrongIssuer: true})
	_, err := r.connect(t, nil)
	if err == nil || !strings.Contains(err.Error(), "issuer") || !strings.Contains(err.Error(), "sign-in to ") {
		t.Fatalf("err = %v, want a refused issuer", err)
	}
	if r.opened != 0 {
		t.Fatal("the browser opened for a wrong issuer")
	}
}

func TestSignInRefusesBadState(t *testing.T) {
	r := newSignInRig(t, oauthtest.Options{BadState: true})
	_, err := r.connect(t, nil)
	if err == nil || !strings.Contains(err.Error(), "state mismatch") {
		t.Fatalf("err = %v, want a state mismatch", err)
	}
	if r.as.Count("code") != 0 {
		t.Fatal("a code was exchanged despite the bad state")
	}
	if g, _ := r.store.Load(r.srv.URL); g != nil {
		t.Fatal("a grant was stored")
	}
}

func TestSignInStepUpOnInsufficientScope(t *testing.T) {
	r := newSignInRig(t, oauthtest.Options{Scopes: []string{"mcp:read", "mcp:write"}}, "mcp:read")
	p, err := r.connect(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.srv.RequireMore("mcp:write")
	out, err := callWhoami(t, p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Text, "mcp:write") || !strings.Contains(out.Text, "mcp:read") {
		t.Fatalf("call = %q, want both scopes", out.Text)
	}
	got := r.prompts()
	if len(got) != 2 || !got[1].Again || !containsAll(got[1].Scopes, "mcp:read", "mcp:write") {
		t.Fatalf("prompts = %+v", got)
	}
}

func containsAll(have []string, want ...string) bool {
	for _, w := range want {
		found := false
		for _, h := range have {
			found = found || h == w
		}
		if !found {
			return false
		}
	}
	return true
}

func TestSignInDeclined(t *testing.T) {
	r := newSignInRig(t, oauthtest.Options{})
	r.sign.Ask = func(context.Context, oauth.Prompt) (bool, error) { return false, nil }
	_, err := r.connect(t, nil)
	if err == nil || !strings.Contains(err.Error(), "declined") {
		t.Fatalf("err = %v", err)
	}
	if r.opened != 0 || r.as.Count("authorize") != 0 {
		t.Fatal("the sign-in page was opened after a decline")
	}
}

func TestSignInPreregisteredClient(t *testing.T) {
	r := newSignInRig(t, oauthtest.Options{NoRegistration: true, Clients: []string{"openworker-test"}})
	srv := r.server()
	srv.OAuth = &tool.MCPOAuth{ClientID: "openworker-test"}
	p, err := Connect(context.Background(), srv, &Options{SignIn: r.sign})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	g, _ := r.store.Load(r.srv.URL)
	if g == nil || g.ClientID != "openworker-test" || r.as.Count("register") != 0 {
		t.Fatalf("grant %+v, registrations %d", g, r.as.Count("register"))
	}
}

func TestSignInClientIDMetadataDocument(t *testing.T) {
	r := newSignInRig(t, oauthtest.Options{CIMD: true})
	r.sign.ClientMetadataURL = "https://openworker.example/oauth/client.json"
	if _, err := r.connect(t, nil); err != nil {
		t.Fatal(err)
	}
	g, _ := r.store.Load(r.srv.URL)
	if g == nil || g.ClientID != r.sign.ClientMetadataURL || r.as.Count("register") != 0 {
		t.Fatalf("grant %+v, registrations %d", g, r.as.Count("register"))
	}
}

func TestSignInTokensNeverInLogsOrErrors(t *testing.T) {
	r := newSignInRig(t, oauthtest.Options{Lifetime: time.Hour})
	var logs bytes.Buffer
	p, err := r.connect(t, &logs)
	if err != nil {
		t.Fatal(err)
	}
	var errs []string
	r.clock.advance(time.Hour)
	if _, err := callWhoami(t, p); err != nil {
		errs = append(errs, err.Error())
	}
	r.as.RevokeAll()
	r.decline.Store(true)
	r.clock.advance(2 * time.Hour)
	if _, err := callWhoami(t, p); err == nil {
		t.Fatal("a call after a revoked and declined sign-in succeeded")
	} else {
		errs = append(errs, err.Error())
	}
	p.Close()
	all := logs.String() + strings.Join(errs, "\n") + p.StderrTail()
	for _, tok := range r.as.Issued() {
		if strings.Contains(all, tok) {
			t.Fatalf("token %s… appears in the logs or errors", tok[:6])
		}
	}
	if !strings.Contains(errs[len(errs)-1], "declined") {
		t.Fatalf("last error = %q, want the decline", errs[len(errs)-1])
	}
}

// failingStore is a keychain that cannot be read (no Secret Service).
type failingStore struct{}

func (failingStore) Load(string) (*oauth.Grant, error) {
	return nil, errors.New("could not read the sign-in in the OS keychain: no Secret Service")
}
func (failingStore) Save(*oauth.Grant) error             { return errors.New("could not save") }
func (failingStore) Delete(string) (*oauth.Grant, error) { return nil, errors.New("could not delete") }

// A keychain that cannot be read leaves servers that need no sign-in
// working; one that needs it fails with the keychain's reason before the
// person is asked.
func TestSignInWithoutKeychain(t *testing.T) {
	r := newSignInRig(t, oauthtest.Options{})
	r.sign.Store = failingStore{}
	_, err := r.connect(t, nil)
	if err == nil || !strings.Contains(err.Error(), "no Secret Service") || len(r.prompts()) != 0 {
		t.Fatalf("err = %v, prompts %d", err, len(r.prompts()))
	}
	plain := sdk.NewServer(&sdk.Implementation{Name: "plain", Version: "1"}, nil)
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return plain }, nil))
	defer hs.Close()
	p, err := Connect(context.Background(), tool.MCPServer{Namespace: "open", Transport: tool.TransportStreamableHTTP, URL: hs.URL}, &Options{SignIn: r.sign})
	if err != nil {
		t.Fatalf("a server without sign-in: %v", err)
	}
	p.Close()
}

// Under oauth.NoAsk (check, doctor) a stored sign-in is used, and a
// missing one fails with ErrSignInNeeded without asking anyone or
// reaching the authorization server.
func TestSignInNoAsk(t *testing.T) {
	r := newSignInRig(t, oauthtest.Options{})
	if _, err := r.connect(t, nil); err != nil {
		t.Fatal(err)
	}
	ctx := oauth.NoAsk(context.Background())
	p, err := Connect(ctx, r.server(), &Options{SignIn: r.sign})
	if err != nil {
		t.Fatalf("with the stored sign-in: %v", err)
	}
	p.Close()
	r.store.Delete(r.srv.URL)
	_, err = Connect(ctx, r.server(), &Options{SignIn: r.sign})
	if !errors.Is(err, oauth.ErrSignInNeeded) || !strings.Contains(err.Error(), `mcp provider "remote" needs a sign-in at `) {
		t.Fatalf("err = %v, want ErrSignInNeeded", err)
	}
	if len(r.prompts()) != 1 || r.as.Count("register") != 1 || r.as.Count("authorize") != 1 {
		t.Fatalf("prompts %d, registrations %d, authorizations %d; want 1 each", len(r.prompts()), r.as.Count("register"), r.as.Count("authorize"))
	}
}

// SignIn.SignOut deletes the stored grant and makes a running provider
// forget its tokens: its next call asks to sign in again.
func TestSignOutReachesRunningProvider(t *testing.T) {
	r := newSignInRig(t, oauthtest.Options{})
	p, err := r.connect(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := r.sign.SignOut(r.srv.URL)
	if err != nil || g == nil || g.Issuer != r.as.Issuer {
		t.Fatalf("SignOut = %+v, %v", g, err)
	}
	if g, _ := r.store.Load(r.srv.URL); g != nil {
		t.Fatal("the grant is still stored")
	}
	if _, err := callWhoami(t, p); err != nil {
		t.Fatal(err)
	}
	if n := len(r.prompts()); n != 2 {
		t.Fatalf("prompts = %d, want a second sign-in after the sign-out", n)
	}
	if g, _ := r.sign.SignOut("https://never.example/mcp"); g != nil {
		t.Fatal("a server never signed in to had a grant")
	}
}
