package mcp

import (
	"net/http"
	"net/url"
	"strings"

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

// redactURL drops credentials and the query from u for error messages
// (docs/limits.md: secrets never appear in errors).
func redactURL(u string) string {
	pu, err := url.Parse(u)
	if err != nil {
		return "(unparsable URL)"
	}
	pu.User, pu.RawQuery, pu.Fragment = nil, "", ""
	return pu.String()
}

// scrubURL returns err with every spelling of rawURL in its message (as
// given, and as net/http prints it with the password masked) replaced by
// its redacted form. errors.Is and errors.As still see the original.
func scrubURL(err error, rawURL string) error {
	if err == nil || rawURL == "" {
		return err
	}
	safe := redactURL(rawURL)
	msg := err.Error()
	forms := []string{rawURL}
	if pu, perr := url.Parse(rawURL); perr == nil {
		forms = append(forms, pu.Redacted(), pu.String())
		if _, ok := pu.User.Password(); ok { // net/http's own masking
			forms = append(forms, strings.Replace(pu.String(), pu.User.String()+"@", pu.User.Username()+":***@", 1))
		}
	}
	for _, f := range forms {
		if f != safe {
			msg = strings.ReplaceAll(msg, f, safe)
		}
	}
	if msg == err.Error() {
		return err
	}
	return &scrubbedError{msg: msg, err: err}
}

type scrubbedError struct {
	msg string
	err error
}

func (e *scrubbedError) Error() string { return e.msg }
func (e *scrubbedError) Unwrap() error { return e.err }
