// Package oauthtest is a small but real OAuth 2.1 authorization server and
// an MCP server protected by it, both on 127.0.0.1, for tests of sign-in
// (docs/mcp.md#sign-in): metadata (RFC 8414, at the places Options names),
// dynamic registration (RFC 7591), authorize with PKCE S256 and
// auto-consent (the test's own HTTP client performs the browser step),
// token (code, refresh and client credentials, RFC 8707 resource checked;
// public clients and confidential ones with client_secret_basic or
// client_secret_post as advertised), revocation, and a go-sdk streamable
// server behind go-sdk's auth.RequireBearerToken, whose resource metadata
// is at its path, at its root or nowhere (MCP 2025-03-26).
package oauthtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// Options shape an AuthServer.
type Options struct {
	// Lifetime of access tokens; 0 is one hour.
	Lifetime time.Duration
	// Now is the server's clock (token expiry); nil is time.Now.
	Now func() time.Time
	// WrongIssuer makes the metadata name another issuer than its URL.
	WrongIssuer bool
	// BadState makes authorize redirect with another state than asked.
	BadState bool
	// Iss advertises and sends the RFC 9207 iss parameter.
	Iss bool
	// CIMD advertises client ID metadata documents.
	CIMD bool
	// NoRegistration hides the registration endpoint.
	NoRegistration bool
	// Clients are preregistered client ids.
	Clients []string
	// Secrets are preregistered confidential clients: id → secret.
	Secrets map[string]string
	// AuthMethods is token_endpoint_auth_methods_supported; nil is
	// ["none"]. A confidential client must use one of them.
	AuthMethods []string
	// ClientCredentials offers the client_credentials grant to the
	// confidential clients.
	ClientCredentials bool
	// Scopes are scopes_supported (offline_access is added).
	Scopes []string
	// Prefix puts the server under a path: its issuer is URL+Prefix and
	// its endpoints are under it ("/tenant1").
	Prefix string
	// MetadataPaths are where the metadata is served; nil is RFC 8414's
	// place for the issuer (/.well-known/oauth-authorization-server with
	// Prefix appended).
	MetadataPaths []string
	// NoMetadata serves no metadata at all.
	NoMetadata bool
}

// AuthServer is the authorization server.
type AuthServer struct {
	*httptest.Server
	Issuer string
	// Handler serves every route of the server; an MCPServer with
	// MCPOptions.Legacy serves it at its own origin too.
	Handler http.Handler
	opts    Options

	mu       sync.Mutex
	requests []string            // "METHOD PATH" of every request, in order
	clients  map[string][]string // client id → redirect URIs (nil: any loopback)
	codes    map[string]codeGrant
	access   map[string]Token
	refresh  map[string]Token
	counts   map[string]int
	Resource string // the last resource asked for
}

type codeGrant struct {
	client, redirect, challenge, resource string
	scopes                                []string
}

// Token is what the server knows of an issued token.
type Token struct {
	Client   string
	Resource string
	Scopes   []string
	Expiry   time.Time
	Revoked  bool
}

// Cleaner is what the constructors need of a test: a testing.TB, or a
// command's own list of cleanups (cmd/oauthserver).
type Cleaner interface{ Cleanup(func()) }

// NewAuthServer starts an AuthServer on 127.0.0.1; t's cleanup stops it.
func NewAuthServer(t Cleaner, o Options) *AuthServer {
	if o.Lifetime == 0 {
		o.Lifetime = time.Hour
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &AuthServer{opts: o, clients: map[string][]string{}, codes: map[string]codeGrant{},
		access: map[string]Token{}, refresh: map[string]Token{}, counts: map[string]int{}}
	for _, c := range o.Clients {
		s.clients[c] = nil
	}
	mux := http.NewServeMux()
	paths := o.MetadataPaths
	if paths == nil {
		paths = []string{"/.well-known/oauth-authorization-server" + o.Prefix}
	}
	if !o.NoMetadata {
		for _, p := range paths {
			mux.HandleFunc("GET "+p, s.metadata)
		}
	}
	mux.HandleFunc("POST "+o.Prefix+"/register", s.register)
	mux.HandleFunc("GET "+o.Prefix+"/authorize", s.authorize)
	mux.HandleFunc("POST "+o.Prefix+"/token", s.token)
	mux.HandleFunc("POST "+o.Prefix+"/revoke", s.revoke)
	s.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests = append(s.requests, r.Method+" "+r.URL.Path)
		s.mu.Unlock()
		mux.ServeHTTP(w, r)
	})
	s.Server = httptest.NewServer(s.Handler)
	s.Issuer = s.URL + o.Prefix
	t.Cleanup(s.Close)
	return s
}

// Requests returns "METHOD PATH" of every request the server got, in
// order (the MCP server's too when it serves the AuthServer's routes,
// MCPOptions.Legacy).
func (s *AuthServer) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Count returns how often name happened: "register", "authorize",
// "code", "refresh", "client_credentials", and "auth:METHOD" for each
// token request (METHOD none, client_secret_basic, client_secret_post).
func (s *AuthServer) Count(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[name]
}

// RevokeAll revokes every refresh and access token issued so far.
func (s *AuthServer) RevokeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, v := range s.refresh {
		v.Revoked = true
		s.refresh[k] = v
	}
	for k, v := range s.access {
		v.Revoked = true
		s.access[k] = v
	}
}

// Issued returns every access and refresh token issued, for leak checks.
func (s *AuthServer) Issued() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for k := range s.access {
		out = append(out, k)
	}
	for k := range s.refresh {
		out = append(out, k)
	}
	return out
}

// Verify returns the access token's grant, or false when it is unknown,
// revoked or expired on the server's clock.
func (s *AuthServer) Verify(tok string) (Token, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.access[tok]
	if !ok || v.Revoked || !s.opts.Now().Before(v.Expiry) {
		return Token{}, false
	}
	return v, true
}

func (s *AuthServer) metadata(w http.ResponseWriter, r *http.Request) {
	iss := s.Issuer
	if s.opts.WrongIssuer {
		iss = "https://evil.example"
	}
	methods := s.opts.AuthMethods
	if methods == nil {
		methods = []string{"none"}
	}
	grants := []string{"authorization_code", "refresh_token"}
	if s.opts.ClientCredentials {
		grants = append(grants, "client_credentials")
	}
	base := s.URL + s.opts.Prefix
	m := map[string]any{
		"issuer":                                iss,
		"authorization_endpoint":                base + "/authorize",
		"token_endpoint":                        base + "/token",
		"revocation_endpoint":                   base + "/revoke",
		"response_types_supported":              []string{"code"},
		"grant_types_supported":                 grants,
		"code_challenge_methods_supported":      []string{"S256"},
		"token_endpoint_auth_methods_supported": methods,
		"scopes_supported":                      append(slices.Clone(s.opts.Scopes), "offline_access"),
	}
	if !s.opts.NoRegistration {
		m["registration_endpoint"] = base + "/register"
	}
	if s.opts.Iss {
		m["authorization_response_iss_parameter_supported"] = true
	}
	if s.opts.CIMD {
		m["client_id_metadata_document_supported"] = true
	}
	writeJSON(w, http.StatusOK, m)
}

func (s *AuthServer) register(w http.ResponseWriter, r *http.Request) {
	var m struct {
		RedirectURIs    []string `json:"redirect_uris"`
		ApplicationType string   `json:"application_type"`
	}
	if err := json.NewDecoder(r.Body).Decode(&m); err != nil || len(m.RedirectURIs) == 0 {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_client_metadata"})
		return
	}
	for _, u := range m.RedirectURIs {
		if !strings.HasPrefix(u, "http://127.0.0.1:") || m.ApplicationType != "native" {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_redirect_uri"})
			return
		}
	}
	id := "dyn-" + rand.Text()
	s.mu.Lock()
	s.clients[id] = m.RedirectURIs
	s.counts["register"]++
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]any{"client_id": id, "redirect_uris": m.RedirectURIs, "token_endpoint_auth_method": "none"})
}

func (s *AuthServer) knownClient(id, redirect string) bool {
	if s.opts.CIMD && strings.HasPrefix(id, "https://") {
		return strings.HasPrefix(redirect, "http://127.0.0.1:")
	}
	uris, ok := s.clients[id]
	if _, secret := s.opts.Secrets[id]; secret && !ok {
		uris, ok = nil, true
	}
	if !ok {
		return false
	}
	return uris == nil && strings.HasPrefix(redirect, "http://127.0.0.1:") || slices.Contains(uris, redirect)
}

// authorize consents at once and redirects with a code.
func (s *AuthServer) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts["authorize"]++
	redirect := q.Get("redirect_uri")
	if !s.knownClient(q.Get("client_id"), redirect) {
		http.Error(w, "unknown client or redirect_uri", http.StatusBadRequest)
		return
	}
	if q.Get("response_type") != "code" || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("resource") == "" {
		http.Error(w, "needs response_type=code, PKCE S256 and resource", http.StatusBadRequest)
		return
	}
	s.Resource = q.Get("resource")
	code := rand.Text()
	s.codes[code] = codeGrant{client: q.Get("client_id"), redirect: redirect, challenge: q.Get("code_challenge"), resource: q.Get("resource"), scopes: strings.Fields(q.Get("scope"))}
	back, _ := url.Parse(redirect)
	v := url.Values{"code": {code}, "state": {q.Get("state")}}
	if s.opts.BadState {
		v.Set("state", "forged")
	}
	if s.opts.Iss {
		v.Set("iss", s.Issuer)
	}
	back.RawQuery = v.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

// token is the token endpoint: it authenticates the client, then serves
// the client_credentials, authorization_code and refresh_token grants.
func (s *AuthServer) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request"})
		return
	}
	f := r.PostForm
	s.mu.Lock()
	defer s.mu.Unlock()
	client, terr := s.authClient(r)
	if terr != nil {
		terr.write(w)
		return
	}
	var tok Token
	switch f.Get("grant_type") {
	case "client_credentials":
		terr = s.clientCredentials(w, f, client)
		if terr == nil {
			return
		}
	case "authorization_code":
		tok, terr = s.codeGrant(f, client)
	case "refresh_token":
		tok, terr = s.refreshGrant(f, client)
	default:
		terr = &tokenError{http.StatusBadRequest, "unsupported_grant_type", ""}
	}
	if terr != nil {
		terr.write(w)
		return
	}
	at, rt := "at-"+rand.Text(), "rt-"+rand.Text()
	tok.Expiry = s.opts.Now().Add(s.opts.Lifetime)
	s.access[at] = tok
	s.refresh[rt] = tok
	writeJSON(w, http.StatusOK, map[string]any{"access_token": at, "token_type": "Bearer", "refresh_token": rt,
		"expires_in": int(s.opts.Lifetime / time.Second), "scope": strings.Join(tok.Scopes, " ")})
}

// tokenError is an error answer of the token endpoint.
type tokenError struct {
	status     int
	code, desc string
}

// write sends e as the token endpoint's JSON error.
func (e *tokenError) write(w http.ResponseWriter) {
	writeJSON(w, e.status, map[string]string{"error": e.code, "error_description": e.desc})
}

// badGrant is a 400 answer of the token endpoint.
func badGrant(code, desc string) *tokenError {
	return &tokenError{http.StatusBadRequest, code, desc}
}

// authClient returns the request's client ID, counting the method it
// authenticated with; a confidential client must use an advertised method
// and its secret. s.mu is held.
func (s *AuthServer) authClient(r *http.Request) (string, *tokenError) {
	f := r.PostForm
	formClient, method := f.Get("client_id"), "none"
	if f.Get("client_secret") != "" {
		method = "client_secret_post"
	}
	secret := f.Get("client_secret")
	if id, sec, ok := r.BasicAuth(); ok && formClient == "" {
		formClient, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(sec)
		method = "client_secret_basic"
	}
	s.counts["auth:"+method]++
	if want, confidential := s.opts.Secrets[formClient]; confidential {
		switch {
		case !slices.Contains(s.opts.AuthMethods, method):
			return "", &tokenError{http.StatusUnauthorized, "invalid_client", method + " is not an advertised method"}
		case secret != want:
			return "", &tokenError{http.StatusUnauthorized, "invalid_client", "wrong secret"}
		}
	}
	return formClient, nil
}

// clientCredentials serves the client_credentials grant: an access token
// and no refresh token. s.mu is held.
func (s *AuthServer) clientCredentials(w http.ResponseWriter, f url.Values, client string) *tokenError {
	if _, confidential := s.opts.Secrets[client]; !confidential || !s.opts.ClientCredentials {
		return badGrant("unauthorized_client", "client credentials are for the confidential clients")
	}
	if f.Get("resource") == "" {
		return badGrant("invalid_target", "resource missing")
	}
	s.counts["client_credentials"]++
	s.Resource = f.Get("resource")
	at := "at-" + rand.Text()
	tok := Token{Client: client, Resource: f.Get("resource"), Scopes: strings.Fields(f.Get("scope")), Expiry: s.opts.Now().Add(s.opts.Lifetime)}
	s.access[at] = tok
	writeJSON(w, http.StatusOK, map[string]any{"access_token": at, "token_type": "Bearer",
		"expires_in": int(s.opts.Lifetime / time.Second), "scope": strings.Join(tok.Scopes, " ")})
	return nil
}

// codeGrant takes an authorization code (once) and returns the token it
// grants, checking the PKCE verifier, redirect, client and resource.
// s.mu is held.
func (s *AuthServer) codeGrant(f url.Values, client string) (Token, *tokenError) {
	c, ok := s.codes[f.Get("code")]
	delete(s.codes, f.Get("code"))
	sum := sha256.Sum256([]byte(f.Get("code_verifier")))
	switch {
	case !ok:
		return Token{}, badGrant("invalid_grant", "unknown code")
	case base64.RawURLEncoding.EncodeToString(sum[:]) != c.challenge:
		return Token{}, badGrant("invalid_grant", "PKCE verifier does not match")
	case f.Get("redirect_uri") != c.redirect || client != c.client:
		return Token{}, badGrant("invalid_grant", "redirect_uri or client_id differ")
	case f.Get("resource") != c.resource:
		return Token{}, badGrant("invalid_target", "resource differs")
	}
	s.counts["code"]++
	return Token{Client: c.client, Resource: c.resource, Scopes: c.scopes}, nil
}

// refreshGrant revokes a refresh token (rotation) and returns the token it
// grants anew. s.mu is held.
func (s *AuthServer) refreshGrant(f url.Values, client string) (Token, *tokenError) {
	rt, ok := s.refresh[f.Get("refresh_token")]
	switch {
	case !ok || rt.Revoked:
		return Token{}, badGrant("invalid_grant", "refresh token revoked")
	case f.Get("resource") != rt.Resource:
		return Token{}, badGrant("invalid_target", "resource differs")
	case client != rt.Client:
		return Token{}, badGrant("invalid_client", "client differs")
	}
	s.counts["refresh"]++
	rt.Revoked = true // rotation
	s.refresh[f.Get("refresh_token")] = rt
	return Token{Client: rt.Client, Resource: rt.Resource, Scopes: rt.Scopes}, nil
}

func (s *AuthServer) revoke(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	s.mu.Lock()
	defer s.mu.Unlock()
	t := r.PostForm.Get("token")
	if v, ok := s.refresh[t]; ok {
		v.Revoked = true
		s.refresh[t] = v
	}
	if v, ok := s.access[t]; ok {
		v.Revoked = true
		s.access[t] = v
	}
	w.WriteHeader(http.StatusOK)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// Browser performs the browser step: it GETs the sign-in page and follows
// the redirects back to the loopback listener, like a browser whose user
// consents. It fails on a page that does not answer 200 at the end.
func Browser(ctx context.Context, u string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("the sign-in ended with %s", resp.Status)
	}
	return nil
}
