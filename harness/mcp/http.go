package mcp

import (
	"net/http"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/tool"
)

// newStreamableHTTP returns the transport of a streamable HTTP provider:
// srv.URL, with srv.Headers added to every request (servers.json
// "headers", already expanded from the environment by the registry).
//
// observe counts the progress notifications of event-stream responses in
// wire order (see progress.go).
func newStreamableHTTP(srv tool.MCPServer, observe func(token string)) (sdk.Transport, error) {
	h := make(http.Header, len(srv.Headers))
	for k, v := range srv.Headers {
		h.Set(k, v)
	}
	rt := &headerTransport{base: http.DefaultTransport.(*http.Transport).Clone(), headers: h, observe: observe}
	return &sdk.StreamableClientTransport{
		Endpoint:   srv.URL,
		HTTPClient: &http.Client{Transport: rt},
		MaxRetries: 2,
	}, nil
}

// headerTransport adds fixed headers to each request and observes
// event-stream responses. It never modifies the caller's request (the
// http.RoundTripper contract): it sends a clone.
type headerTransport struct {
	base    http.RoundTripper
	headers http.Header
	observe func(token string)
}

func (t *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range t.headers {
			r.Header[k] = v
		}
	}
	resp, err := t.base.RoundTrip(r)
	if err == nil {
		observeSSE(resp, t.observe)
	}
	return resp, err
}
