// Package oauth signs OpenWorker in to remote MCP servers that ask for it
// (OAuth 2.1 authorization code with PKCE, docs/mcp.md#sign-in). A Handler
// is the go-sdk auth.OAuthHandler of one streamable HTTP provider: the
// SDK's auth.AuthorizationCodeHandler runs discovery, client
// registration, PKCE, state, issuer checks and the code exchange; this
// package adds the person-facing part (ask, open the browser, the
// loopback redirect), the TokenStore, and refresh with the RFC 8707
// resource.
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
	// OpenLink; the CLI prints the URL too). Required.
	Open func(ctx context.Context, url string) error
	// Timeout bounds the wait for the redirect; 0 is DefaultSignInTimeout.
	Timeout time.Duration
	// ClientMetadataURL is OpenWorker's client ID metadata document (an
	// https URL with a path), used when the authorization server supports
	// them; "" skips that way.
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
	URL       string   // the MCP server's URL
	ClientID  string   // servers.json "oauth.client_id", or ""
	Scopes    []string // servers.json "oauth.scopes", added to those asked for
}

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
	s := &SignIn{Store: sp.Store, Ask: sp.Ask, Open: sp.Open, Timeout: sp.Timeout, ClientMetadataURL: sp.ClientMetadataURL,
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

func host(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "the server"
	}
	return u.Host
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
// opens the sign-in page and waits for the redirect, then stores the
// tokens. Errors name the hosts, never a token or code.
func (h *Handler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	once, _ := ctx.Value(askOnceKey{}).(*askOnce)
	if once != nil && once.declined.Load() {
		resp.Body.Close()
		return h.fail(ErrDeclined) // asked and declined already under this ctx
	}
	err := h.authorize(ctx, req, resp)
	if once != nil && errors.Is(err, ErrDeclined) {
		once.declined.Store(true)
	}
	return err
}

// askOnce marks a context under which a declined sign-in is not asked
// again (WithAskOnce).
type askOnce struct{ declined atomic.Bool }

type askOnceKey struct{}

// WithAskOnce returns ctx under which the person is asked to sign in at
// most once: after a decline, every further Authorize under it fails with
// the same error unasked. A provider's start runs under one (it may send
// server/discover, then initialize, each answered 401); a later call asks
// again.
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
	stepUp := resp.StatusCode == http.StatusForbidden
	if stepUp && bearerParam(challenges, "error") != "insufficient_scope" {
		resp.Body.Close()
		return nil // a plain 403: the SDK retries once and reports it
	}
	if ctx.Value(noAskKey{}) != nil {
		resp.Body.Close()
		return fmt.Errorf("mcp provider %q %w at %s; it is asked for when a chat, or a run in a terminal, uses the server: %w", h.cfg.Namespace, ErrSignInNeeded, host(h.cfg.URL), ErrSignInNeeded)
	}
	prm, err := h.resourceMetadata(ctx, challenges, req.URL.String())
	if err != nil {
		resp.Body.Close()
		return h.fail(err)
	}
	issuer := prm.AuthorizationServers[0]

	h.mu.Lock()
	src, again, loadErr := h.src, h.dropped, h.loadErr
	h.mu.Unlock()
	if loadErr != nil {
		resp.Body.Close()
		return h.fail(fmt.Errorf("the server asks for a sign-in, but %w", loadErr))
	}
	var prev *Grant
	if src != nil {
		g := src.grant()
		prev, again = &g, true
	}

	lb, err := listenLoopback()
	if err != nil {
		resp.Body.Close()
		return h.fail(err)
	}
	defer lb.close()

	var saved *grantSource
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL: lb.redirectURL,
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			RedirectURIs:            []string{lb.redirectURL},
			ApplicationType:         "native",
			TokenEndpointAuthMethod: "none",
			GrantTypes:              []string{"authorization_code", "refresh_token"},
			ResponseTypes:           []string{"code"},
			ClientName:              h.s.ClientName,
		}},
		RequestRefreshToken: true,
		Client:              h.s.HTTPClient,
		ScopeFilter: func(found []string) []string {
			add := h.cfg.Scopes
			if prev != nil && stepUp { // a step-up keeps what was granted before
				add = append(slices.Clone(add), prev.Scopes...)
			}
			return withScopes(found, add)
		},
		AuthorizationCodeFetcher: func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			return h.fetch(ctx, lb, args.URL, again)
		},
		NewTokenSource: func(_ context.Context, oc *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
			g := h.newGrant(prm.Resource, issuer, oc, tok)
			if err := h.s.Store.Save(g); err != nil {
				return nil, err
			}
			saved = &grantSource{h: h, g: *g}
			return saved, nil
		},
	}
	if h.s.ClientMetadataURL != "" {
		cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: h.s.ClientMetadataURL}
	}
	if h.cfg.ClientID != "" {
		cfg.PreregisteredClient = &oauthex.ClientCredentials{ClientID: h.cfg.ClientID}
	}
	sdkh, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		resp.Body.Close()
		return h.fail(err)
	}
	if err := sdkh.Authorize(ctx, req, resp); err != nil {
		return h.fail(err)
	}
	if saved == nil {
		return h.fail(errors.New("the authorization server issued no token"))
	}
	h.mu.Lock()
	h.loaded, h.src, h.dropped = true, saved, false
	h.mu.Unlock()
	return nil
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

// newGrant is the grant of a sign-in that got tok from the authorization
// server issuer for resource, with the client oc: its scopes those the
// token response names (else those asked for), its expiry on h's clock.
func (h *Handler) newGrant(resource, issuer string, oc *oauth2.Config, tok *oauth2.Token) *Grant {
	g := &Grant{
		Server: h.cfg.URL, Resource: resource, Issuer: issuer,
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

// resourceMetadata fetches the RFC 9728 protected resource metadata the
// challenge names, or the well-known ones of the server's URL.
func (h *Handler) resourceMetadata(ctx context.Context, cs []oauthex.Challenge, server string) (*oauthex.ProtectedResourceMetadata, error) {
	var tries []string
	if u := bearerParam(cs, "resource_metadata"); u != "" {
		tries = append(tries, u)
	}
	if u, err := url.Parse(server); err == nil {
		w := *u
		w.RawQuery, w.Fragment = "", ""
		w.Path = "/.well-known/oauth-protected-resource/" + strings.TrimLeft(u.Path, "/")
		tries = append(tries, w.String())
	}
	var last error
	for _, t := range tries {
		prm, err := oauthex.GetProtectedResourceMetadata(ctx, t, server, h.s.HTTPClient)
		if err != nil {
			last = err
			continue
		}
		if prm == nil {
			continue
		}
		if len(prm.AuthorizationServers) == 0 {
			return nil, errors.New("its protected resource metadata names no authorization server")
		}
		return prm, nil
	}
	if last != nil {
		return nil, fmt.Errorf("the server asks for a sign-in, but its protected resource metadata (RFC 9728) could not be read: %w", last)
	}
	return nil, errors.New("the server asks for a sign-in but publishes no protected resource metadata (RFC 9728)")
}

func bearerParam(cs []oauthex.Challenge, name string) string {
	for _, c := range cs {
		if strings.EqualFold(c.Scheme, "bearer") && c.Params[name] != "" {
			return c.Params[name]
		}
	}
	return ""
}

// fetch is the browser step: ask, open the page, wait for the redirect.
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
		return nil, fmt.Errorf("could not open the sign-in page of %s: %w", p.SignInHost, err)
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
