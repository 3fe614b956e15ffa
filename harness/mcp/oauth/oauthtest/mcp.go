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

	mu    sync.Mutex
	extra []string // scopes needed on top of the token's (step-up)
	calls int
	seen  []string // Authorization headers' tokens, in order
}

// NewMCPServer starts an MCPServer on 127.0.0.1 protected by as, whose
// tokens must carry scopes.
func NewMCPServer(t Cleaner, as *AuthServer, scopes ...string) *MCPServer {
	m := &MCPServer{}
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
	m.Server = httptest.NewServer(mux)
	m.URL = m.Server.URL + "/mcp"
	prmURL := m.Server.URL + "/.well-known/oauth-protected-resource/mcp"
	verify := func(ctx context.Context, tok string, r *http.Request) (*auth.TokenInfo, error) {
		m.mu.Lock()
		m.seen = append(m.seen, tok)
		m.mu.Unlock()
		v, ok := as.Verify(tok)
		if !ok || v.Resource != m.URL {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{Scopes: v.Scopes, Expiration: time.Now().Add(time.Hour)}, nil
	}
	bearer := auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{ResourceMetadataURL: prmURL, Scopes: scopes})
	mux.Handle("/mcp", bearer(m.stepUp(prmURL, scopes, h)))
	mux.Handle("GET /.well-known/oauth-protected-resource/mcp", auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource: m.URL, AuthorizationServers: []string{as.Issuer}, ScopesSupported: scopes,
	}))
	t.Cleanup(m.Close)
	return m
}

// RequireMore makes every request need scopes on top of the base ones: a
// token without them gets 403 with error="insufficient_scope".
func (m *MCPServer) RequireMore(scopes ...string) {
	m.mu.Lock()
	m.extra = scopes
	m.mu.Unlock()
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
				w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope=%q, resource_metadata=%q`, strings.Join(all, " "), prmURL))
				http.Error(w, "insufficient scope", http.StatusForbidden)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}
