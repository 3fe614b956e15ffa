// Package oauth signs OpenWorker in to remote MCP servers that ask for it
// (docs/mcp.md#sign-in). A Handler is the go-sdk auth.OAuthHandler of one
// streamable HTTP provider: on the server's 401 (or 403 with
// insufficient_scope) it finds the protected resource and its
// authorization server (RFC 9728, RFC 8414 / OpenID Connect Discovery, and
// the MCP 2025-03-26 fallbacks, discover.go), identifies OpenWorker
// (pre-registered client, client ID metadata document, dynamic
// registration, client.go), and gets tokens with the authorization code
// grant and PKCE (the person in the browser, the loopback redirect) or,
// when the entry says so, the client credentials grant (no person), over
// golang.org/x/oauth2, always with the RFC 8707 resource. It keeps them in
// a TokenStore and refreshes them (refresh.go).
package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// DefaultSignInTimeout bounds the wait for the browser's redirect back to
// the loopback listener when SignIn.Timeout is 0.
const DefaultSignInTimeout = 5 * time.Minute

// RefreshEarly is how long before its expiry an access token is refreshed.
const RefreshEarly = 60 * time.Second

// Prompt is what the person is asked before the browser opens: "Sign in
// to Server for Namespace?". It holds no secret (URL carries only the
// state and the PKCE challenge).
type Prompt struct {
	Namespace  string   // the provider
	Server     string   // host of the MCP server
	SignInHost string   // host of the sign-in page (the authorization server)
	URL        string   // the sign-in page to open
	Scopes     []string // the scopes asked for
	// Again is set when a stored sign-in ended (its refresh was refused)
	// or the server asks for a larger scope.
	Again bool
}

// SignIn is the host's part of a sign-in, shared by its providers.
type SignIn struct {
	// Store keeps the grants; nil keeps them in memory for the process.
	Store TokenStore
	// Ask asks the person whether to sign in; false declines (the call or
	// start fails with ErrDeclined). nil asks nobody.
	Ask func(ctx context.Context, p Prompt) (bool, error)
	// Open shows the sign-in page: the system browser (the app's
	// OpenLink; the CLI prints the URL too). Required for the
	// authorization code grant.
	Open func(ctx context.Context, url string) error
	// OpenFailed, when set, is told that Open failed (no browser, or one
	// that exited with an error), with the prompt (its URL) and Open's
	// error; the sign-in then goes on waiting for the redirect, for the
	// person to open the URL themselves (the CLI prints it to copy, the
	// app can show it with a copy button). nil fails the sign-in with
	// Open's error.
	OpenFailed func(ctx context.Context, p Prompt, err error)
	// Timeout bounds the wait for the redirect; 0 is DefaultSignInTimeout.
	Timeout time.Duration
	// ClientMetadataURL is OpenWorker's client ID metadata document (an
	// https URL with a path; DefaultClientMetadataURL is the product's),
	// used when the authorization server supports them and the entry
	// names no client; "" skips that way.
	ClientMetadataURL string
	// ClientName is sent in a dynamic registration; "" is "OpenWorker".
	ClientName string
	// HTTPClient reaches the authorization server; nil is a default one.
	HTTPClient *http.Client
	// Now is the clock refreshes are timed on; nil is time.Now.
	Now func() time.Time

	live liveHandlers // the handlers made from this SignIn (SignOut)
}

// liveHandlers are the Handlers of a SignIn, by server URL.
type liveHandlers struct {
	mu sync.Mutex
	m  map[string][]*Handler
}

// maxLive bounds the handlers remembered per server (each provider start
// makes one; the newest are the ones in use).
const maxLive = 8

// SignOut deletes the stored sign-in of the server at url and makes the
// providers using it forget their tokens: their next request goes
// without one, and the server's 401 asks to sign in again. It returns the
// deleted grant, nil when there was none.
func (s *SignIn) SignOut(url string) (*Grant, error) {
	s.live.mu.Lock()
	hs := slices.Clone(s.live.m[url])
	s.live.mu.Unlock()
	for _, h := range hs {
		h.mu.Lock()
		h.src, h.loaded = nil, true
		h.mu.Unlock()
	}
	if s.Store == nil {
		return nil, nil
	}
	return s.Store.Delete(url)
}

// declinedError is a declined sign-in's message; it wraps ErrDeclined.
type declinedError struct{ msg string }

func (e *declinedError) Error() string { return e.msg }
func (e *declinedError) Unwrap() error { return ErrDeclined }

// ErrDeclined is returned when the person declined a sign-in.
var ErrDeclined = errors.New("sign-in declined")

// Config names the provider a Handler signs in for.
type Config struct {
	Namespace string
	URL       string // the MCP server's URL
	// ClientID and ClientSecret are servers.json "oauth.client_id" and
	// "oauth.client_secret" (a pre-registered client; the secret comes
	// from an environment variable or an input, never the file), or "".
	ClientID     string
	ClientSecret string
	// GrantType is servers.json "oauth.grant_type": "" (or
	// GrantAuthorizationCode) signs in a person in the browser;
	// GrantClientCredentials gets tokens with the client's own
	// credentials, asking nobody (machine to machine).
	GrantType string
	Scopes    []string // servers.json "oauth.scopes", added to those asked for
}

// The grant types of Config.GrantType.
const (
	GrantAuthorizationCode = "authorization_code"
	GrantClientCredentials = "client_credentials"
)

// DefaultClientMetadataURL is where OpenWorker's client ID metadata
// document (docs/oauth/client-metadata.json in the repository) is served:
// the hosts' default for SignIn.ClientMetadataURL
// (docs/mcp.md#client-id-metadata-document).
const DefaultClientMetadataURL = "https://openworker.dev/oauth/client-metadata.json"

// Handler is the auth.OAuthHandler of one provider. Safe for concurrent
// use; one sign-in runs at a time.
type Handler struct {
	cfg Config
	s   *SignIn // the host's fields with the defaults filled in

	signMu sync.Mutex // held during a sign-in
	hold   atomic.Pointer[func() (release func())]

	mu      sync.Mutex
	loaded  bool
	src     *grantSource // nil: not signed in
	dropped bool         // a stored grant's refresh was refused
	loadErr error        // the store could not be read
}

var _ auth.OAuthHandler = (*Handler)(nil)

// New returns the Handler of the provider cfg; sp is shared by the
// providers of a host (its SignOut reaches them all) and must not be
// copied after.
func New(cfg Config, sp *SignIn) *Handler {
	if sp.Store == nil {
		sp.Store = NewMemoryStore()
	}
	s := &SignIn{Store: sp.Store, Ask: sp.Ask, Open: sp.Open, OpenFailed: sp.OpenFailed, Timeout: sp.Timeout, ClientMetadataURL: sp.ClientMetadataURL,
		ClientName: sp.ClientName, HTTPClient: sp.HTTPClient, Now: sp.Now}
	if s.Timeout <= 0 {
		s.Timeout = DefaultSignInTimeout
	}
	if s.ClientName == "" {
		s.ClientName = "OpenWorker"
	}
	if s.HTTPClient == nil {
		s.HTTPClient = &http.Client{Timeout: 30 * time.Second}
	}
	if s.Now == nil {
		s.Now = time.Now
	}
	h := &Handler{cfg: cfg, s: s}
	sp.live.mu.Lock()
	if sp.live.m == nil {
		sp.live.m = map[string][]*Handler{}
	}
	l := append(sp.live.m[cfg.URL], h)
	if len(l) > maxLive {
		l = l[len(l)-maxLive:]
	}
	sp.live.m[cfg.URL] = l
	sp.live.mu.Unlock()
	return h
}

// TokenSource returns the stored sign-in's tokens, or nil when there is
// none yet (the server's 401 then starts a sign-in).
func (h *Handler) TokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.loaded {
		// A store that cannot be read (no Secret Service) is as if it
		// held nothing: a server that needs no sign-in still works; one
		// that does is told why before anyone is asked (Authorize).
		g, err := loadBounded(h.s.Store, h.cfg.URL)
		h.loaded, h.loadErr = true, err
		if g != nil {
			h.src = &grantSource{h: h, g: *g}
		}
	}
	if h.src == nil {
		return nil, nil
	}
	return h.src, nil
}

// Authorize signs in after the server answered resp (401, or 403 with
// insufficient_scope): it finds the authorization server, asks the person,
// opens the sign-in page and waits for the redirect (or, for the client
// credentials grant, asks the token endpoint), then stores the tokens.
// Errors name the hosts, never a token, code or secret.
func (h *Handler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	once, _ := ctx.Value(askOnceKey{}).(*askOnce)
	if once != nil {
		if err := once.failed(); err != nil {
			resp.Body.Close()
			return err // signed in (and failed, or declined) already under this ctx
		}
	}
	err := h.authorize(ctx, req, resp)
	if once != nil && err != nil {
		once.fail(err)
	}
	return err
}

// askOnce marks a context under which a sign-in that failed or was
// declined is not tried again (WithAskOnce).
type askOnce struct {
	mu  sync.Mutex
	err error
}

func (o *askOnce) failed() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

func (o *askOnce) fail(err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err == nil {
		o.err = err
	}
}

type askOnceKey struct{}

// WithAskOnce returns ctx under which the person is asked to sign in at
// most once: after a decline or a failed sign-in, every further Authorize
// under it fails with the same error, unasked and without a second
// browser page. A provider's start runs under one (it may send
// server/discover, then initialize, each answered 401); a later call
// asks again.
func WithAskOnce(ctx context.Context) context.Context {
	return context.WithValue(ctx, askOnceKey{}, &askOnce{})
}

func (h *Handler) authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	h.signMu.Lock()
	defer h.signMu.Unlock()
	if hold := h.hold.Load(); hold != nil {
		defer (*hold)()()
	}
	challenges, _ := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	resp.Body.Close()
	stepUp := resp.StatusCode == http.StatusForbidden
	if stepUp && bearerParam(challenges, "error") != "insufficient_scope" {
		return nil // a plain 403: the SDK retries once and reports it
	}
	if ctx.Value(noAskKey{}) != nil {
		return fmt.Errorf("mcp provider %q %w at %s; it is asked for when a chat, or a run in a terminal, uses the server: %w", h.cfg.Namespace, ErrSignInNeeded, host(h.cfg.URL), ErrSignInNeeded)
	}
	h.mu.Lock()
	src, again, loadErr := h.src, h.dropped, h.loadErr
	h.mu.Unlock()
	if loadErr != nil {
		return h.fail(fmt.Errorf("the server asks for a sign-in, but %w", loadErr))
	}
	var prev *Grant
	if src != nil {
		g := src.grant()
		prev, again = &g, true
	}
	d, err := discover(ctx, h.s.HTTPClient, challenges, req.URL.String())
	if err != nil {
		return h.fail(err)
	}
	scopes := h.askScopes(challenges, d, prev, stepUp)
	oc, tok, err := h.signIn(ctx, d, scopes, again)
	if err != nil {
		return h.fail(err)
	}
	g := h.newGrant(d, oc, tok)
	if err := h.s.Store.Save(g); err != nil {
		return h.fail(err)
	}
	h.mu.Lock()
	h.loaded, h.src, h.dropped = true, &grantSource{h: h, g: *g}, false
	h.mu.Unlock()
	return nil
}

// askScopes is the scopes to ask for: the challenge's (else the
// discovered ones), the configured ones, and for a step-up those of prev,
// the grant before.
func (h *Handler) askScopes(challenges []oauthex.Challenge, d *discovery, prev *Grant, stepUp bool) []string {
	scopes := bearerScopes(challenges)
	if len(scopes) == 0 {
		scopes = d.scopes
	}
	scopes = withScopes(scopes, h.cfg.Scopes)
	if prev != nil && stepUp { // a step-up keeps what was granted before
		scopes = withScopes(scopes, prev.Scopes)
	}
	return scopes
}

// signIn runs the configured grant at d's authorization server; an error
// says when d's endpoints were the defaults.
func (h *Handler) signIn(ctx context.Context, d *discovery, scopes []string, again bool) (*oauth2.Config, *oauth2.Token, error) {
	var oc *oauth2.Config
	var tok *oauth2.Token
	var err error
	if h.cfg.GrantType == GrantClientCredentials {
		oc, tok, err = h.clientCredentials(ctx, d, scopes)
	} else {
		oc, tok, err = h.authorizationCode(ctx, d, scopes, again)
	}
	if err != nil && d.noMetadata {
		err = fmt.Errorf("%s publishes no authorization server metadata (RFC 8414), so its default endpoints /authorize, /token and /register were used (MCP 2025-03-26): %w", host(d.issuer), err)
	}
	return oc, tok, err
}

// withScopes is found with the scopes of add it lacks appended.
func withScopes(found, add []string) []string {
	out := slices.Clone(found)
	for _, s := range add {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// newGrant is the grant of a sign-in that got tok from d's authorization
// server with the client oc: its scopes those the token response names
// (else those asked for), its expiry on h's clock.
func (h *Handler) newGrant(d *discovery, oc *oauth2.Config, tok *oauth2.Token) *Grant {
	g := &Grant{
		Server: h.cfg.URL, Resource: d.resource, Issuer: d.issuer, GrantType: h.cfg.GrantType,
		ClientID: oc.ClientID, ClientSecret: oc.ClientSecret, SecretInHeader: oc.Endpoint.AuthStyle == oauth2.AuthStyleInHeader,
		TokenURL: oc.Endpoint.TokenURL, Scopes: oc.Scopes,
		AccessToken: tok.AccessToken, TokenType: tok.TokenType, RefreshToken: tok.RefreshToken, Expiry: tok.Expiry,
	}
	if s, ok := tok.Extra("scope").(string); ok && s != "" {
		g.Scopes = strings.Fields(s)
	}
	if !tok.Expiry.IsZero() { // x/oauth2 dates it on the wall clock; refreshes use h.s.Now
		g.Expiry = h.s.Now().Add(time.Until(tok.Expiry))
	}
	return g
}

func (h *Handler) fail(err error) error {
	if errors.Is(err, ErrDeclined) {
		return &declinedError{fmt.Sprintf("sign-in to %s for mcp provider %q was declined; the provider's tools need it", host(h.cfg.URL), h.cfg.Namespace)}
	}
	return fmt.Errorf("sign-in to %s for mcp provider %q failed: %w", host(h.cfg.URL), h.cfg.Namespace, err)
}

func bearerParam(cs []oauthex.Challenge, name string) string {
	for _, c := range cs {
		if strings.EqualFold(c.Scheme, "bearer") && c.Params[name] != "" {
			return c.Params[name]
		}
	}
	return ""
}

// bearerScopes are the scopes the Bearer challenge asks for.
func bearerScopes(cs []oauthex.Challenge) []string {
	return strings.Fields(bearerParam(cs, "scope"))
}

// fetch is the browser step: ask, open the page, wait for the redirect.
// A browser that fails to open is told to OpenFailed, and the wait goes
// on for the person to open the URL themselves.
func (h *Handler) fetch(ctx context.Context, lb *loopback, authURL string, again bool) (*auth.AuthorizationResult, error) {
	p := Prompt{Namespace: h.cfg.Namespace, Server: host(h.cfg.URL), SignInHost: host(authURL), URL: authURL, Again: again}
	if u, err := url.Parse(authURL); err == nil {
		p.Scopes = strings.Fields(u.Query().Get("scope"))
	}
	if h.s.Ask != nil {
		ok, err := h.s.Ask(ctx, p)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, ErrDeclined
		}
	}
	if h.s.Open == nil {
		return nil, errors.New("no browser to open the sign-in page in")
	}
	if err := h.s.Open(ctx, authURL); err != nil {
		if h.s.OpenFailed == nil {
			return nil, fmt.Errorf("could not open the sign-in page of %s: %w", p.SignInHost, err)
		}
		h.s.OpenFailed(ctx, p, err)
	}
	return lb.wait(ctx, h.s.Timeout)
}

// SetHold sets the function a sign-in calls before it asks and whose
// result it calls when done; the provider pauses its start bound with it,
// since a sign-in may take up to SignIn.Timeout. nil clears it.
func (h *Handler) SetHold(hold func() (release func())) {
	if hold == nil {
		h.hold.Store(nil)
		return
	}
	h.hold.Store(&hold)
}

type noAskKey struct{}

// NoAsk marks ctx so that a sign-in it would need is not asked for: the
// start or call fails with ErrSignInNeeded instead, and no request goes to
// the authorization server. Stored sign-ins are still used. For checks
// and diagnostics, which must not pop up a browser (harness Check,
// `openworker doctor`).
func NoAsk(ctx context.Context) context.Context { return context.WithValue(ctx, noAskKey{}, true) }

// ErrSignInNeeded is returned under NoAsk when the server needs a sign-in.
var ErrSignInNeeded = errors.New("needs a sign-in")

// storeWait bounds a store read: on Linux a Secret Service that never
// answers must not hold every remote provider's requests.
const storeWait = 5 * time.Second

func loadBounded(s TokenStore, server string) (*Grant, error) {
	type loaded struct {
		g   *Grant
		err error
	}
	ch := make(chan loaded, 1)
	go func() {
		g, err := s.Load(server)
		ch <- loaded{g, err}
	}()
	t := time.NewTimer(storeWait)
	defer t.Stop()
	select {
	case l := <-ch:
		return l.g, l.err
	case <-t.C:
		return nil, fmt.Errorf("the OS keychain did not answer within %v (on Linux a Secret Service such as GNOME Keyring must be running)", storeWait)
	}
}
