package oauth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// FuzzDiscover serves the two inputs on 127.0.0.1 as a server's
// protected resource metadata and its authorization server's metadata
// ("SERVER" in them becomes the server's URL) and runs discovery: a
// result or an error, never a panic (scripts/fuzz.sh).
func FuzzDiscover(f *testing.F) {
	f.Add([]byte(`{"resource":"SERVER/mcp","authorization_servers":["SERVER"],"scopes_supported":["read"]}`),
		[]byte(`{"issuer":"SERVER","authorization_endpoint":"SERVER/authorize","token_endpoint":"SERVER/token","registration_endpoint":"SERVER/register","code_challenge_methods_supported":["S256"],"response_types_supported":["code"]}`))
	f.Add([]byte(`{}`), []byte(`{"issuer":"SERVER"}`))
	f.Add([]byte(`{"resource":"https://elsewhere/","authorization_servers":[]}`), []byte(`null`))
	var mu sync.Mutex
	var prm, asm []byte
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		p, a := prm, asm
		mu.Unlock()
		base := "http://" + r.Host
		switch {
		case strings.HasPrefix(r.URL.Path, "/.well-known/oauth-protected-resource"):
			w.Write([]byte(strings.ReplaceAll(string(p), "SERVER", base)))
		case strings.HasPrefix(r.URL.Path, "/.well-known/"):
			w.Write([]byte(strings.ReplaceAll(string(a), "SERVER", base)))
		default:
			http.NotFound(w, r)
		}
	}))
	f.Cleanup(hs.Close)
	f.Fuzz(func(t *testing.T, p, a []byte) {
		mu.Lock()
		prm, asm = p, a
		mu.Unlock()
		discover(context.Background(), hs.Client(), nil, hs.URL+"/mcp")
	})
}
