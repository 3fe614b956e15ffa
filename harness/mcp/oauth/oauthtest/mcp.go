package oauthtest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// MCPServer is a go-sdk streamable MCP server at URL (path /mcp) that
// answers 401 with RFC 9728 resource metadata until it gets a token the
// AuthServer issued for its URL. Its one tool "whoami" answers "hello
// CLIENT". Calls counts the tool calls that got through.
type MCPServer struct {
	*httptest.Server
	URL string // the MCP endpoint

	mu       sync.Mutex
	requests []string // "METHOD PATH" of every request, in order
	extra    []string // scopes needed on top of the token's (step-up)
	calls    int
	seen     []string // Authorization headers' tokens, in order
}

// NewMCPServer starts an MCPServer on 127.0.0.1 protected by as, whose
// tokens must carry scopes.
func NewMCPServer(t Cleaner, as *AuthServer, scopes ...string) *MCPServer {
	return NewMCPServerWith(t, as, MCPOptions{Scopes: scopes})
}

// MCPOptions shape an MCPServer.
type MCPOptions struct {
	// Scopes are the scopes a token must carry.
	Scopes []string
	// PRM is where the protected resource metadata is: "" at the path of
	// the endpoint (/.well-known/oauth-protected-resource/mcp, named in
	// the 401's challenge), "root" only at the origin's root (resource:
	// the origin; the challenge names none), "none" nowhere (MCP
	// 2025-03-26: the challenge is a bare Bearer).
	PRM string
	// Legacy serves the AuthServer's routes (as.Handler) at this server's
	// origin too, for a server whose origin is its authorization server
	// (MCP 2025-03-26).
	Legacy bool
	// Resource overrides the resource the metadata names (a server that
	// claims another's).
	Resource string
}

// NewMCPServerWith starts an MCPServer shaped by o.
func NewMCPServerWith(t Cleaner, as *AuthServer, o MCPOptions) *MCPServer {
	m := &MCPServer{}
	scopes := o.Scopes
	mux := http.NewServeMux()
	s := sdk.NewServer(&sdk.Implementation{Name: "oauthtest", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "whoami", Description: "says hello"}, func(ctx context.Context, req *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
		m.mu.Lock()
		m.calls++
		m.mu.Unlock()
		who := "nobody"
		if ti := req.Extra.TokenInfo; ti != nil {
			who = strings.Join(ti.Scopes, " ")
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "hello " + who}}}, nil, nil
	})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
	m.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.mu.Lock()
		m.requests = append(m.requests, r.Method+" "+r.URL.Path)
		m.mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	m.URL = m.Server.URL + "/mcp"
	resource, prmPath := m.URL, "/.well-known/oauth-protected-resource/mcp"
	switch o.PRM {
	case "root":
		resource, prmPath = m.Server.URL, "/.well-known/oauth-protected-resource"
	case "none":
		prmPath = ""
	}
	verify := func(ctx context.Context, tok string, r *http.Request) (*auth.TokenInfo, error) {
		m.mu.Lock()
		m.seen = append(m.seen, tok)
		m.mu.Unlock()
		v, ok := as.Verify(tok)
		if !ok || v.Resource != resource {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{Scopes: v.Scopes, Expiration: time.Now().Add(time.Hour)}, nil
	}
	challenge := ""
	if o.PRM == "" {
		challenge = m.Server.URL + prmPath
	}
	bearer := auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{ResourceMetadataURL: challenge, Scopes: scopes})
	inner := bearer(m.stepUp(challenge, scopes, h))
	if challenge == "" && len(scopes) == 0 {
		inner = bareChallenge(inner) // RequireBearerToken sends no challenge without parameters
	}
	mux.Handle("/mcp", inner)
	if prmPath != "" {
		named := resource
		if o.Resource != "" {
			named = o.Resource
		}
		mux.Handle("GET "+prmPath, auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
			Resource: named, AuthorizationServers: []string{as.Issuer}, ScopesSupported: scopes,
		}))
	}
	if o.Legacy {
		mux.Handle("/", as.Handler)
	}
	t.Cleanup(m.Close)
	return m
}

// bareChallenge adds "WWW-Authenticate: Bearer" to a 401 that has none.
func bareChallenge(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(&challenger{ResponseWriter: w}, r)
	})
}

type challenger struct{ http.ResponseWriter }

func (c *challenger) WriteHeader(code int) {
	if code == http.StatusUnauthorized && c.Header().Get("WWW-Authenticate") == "" {
		c.Header().Set("WWW-Authenticate", "Bearer")
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *challenger) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// RequireMore makes every request need scopes on top of the base ones: a
// token without them gets 403 with error="insufficient_scope".
func (m *MCPServer) RequireMore(scopes ...string) {
	m.mu.Lock()
	m.extra = scopes
	m.mu.Unlock()
}

// Requests returns "METHOD PATH" of every request the server got, in
// order.
func (m *MCPServer) Requests() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.requests)
}

// Calls returns how many tool calls got through.
func (m *MCPServer) Calls() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.calls
}

// Seen returns the bearer tokens requests carried, in order.
func (m *MCPServer) Seen() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.seen)
}

func (m *MCPServer) stepUp(prmURL string, base []string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.mu.Lock()
		extra := slices.Clone(m.extra)
		m.mu.Unlock()
		ti := auth.TokenInfoFromContext(r.Context())
		for _, s := range extra {
			if ti == nil || !slices.Contains(ti.Scopes, s) {
				all := append(slices.Clone(base), extra...)
				c := fmt.Sprintf(`Bearer error="insufficient_scope", scope=%q`, strings.Join(all, " "))
				if prmURL != "" {
					c += fmt.Sprintf(", resource_metadata=%q", prmURL)
				}
				w.Header().Set("WWW-Authenticate", c)
				http.Error(w, "insufficient scope", http.StatusForbidden)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}
