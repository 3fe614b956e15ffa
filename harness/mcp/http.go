package mcp

import (
	"net/http"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/tool"
)

// newStreamableHTTP returns the transport of a streamable HTTP provider:
// srv.URL, with srv.Headers added to every request (servers.json
// "headers", already expanded from the environment by the registry).
func newStreamableHTTP(srv tool.MCPServer) (sdk.Transport, error) {
	base := http.DefaultTransport.(*http.Transport).Clone()
	var rt http.RoundTripper = base
	if len(srv.Headers) > 0 {
		h := make(http.Header, len(srv.Headers))
		for k, v := range srv.Headers {
			h.Set(k, v)
		}
		rt = &headerTransport{base: base, headers: h}
	}
	return &sdk.StreamableClientTransport{
		Endpoint:   srv.URL,
		HTTPClient: &http.Client{Transport: rt},
		MaxRetries: 2,
	}, nil
}

// headerTransport adds fixed headers to each request. It never modifies the
// caller's request (the http.RoundTripper contract): it sends a clone.
type headerTransport struct {
	base    http.RoundTripper
	headers http.Header
}

func (t *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range t.headers {
		r.Header[k] = v
	}
	return t.base.RoundTrip(r)
}
