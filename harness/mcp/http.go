package mcp

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"net/http"
	"net/url"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/tool"
	"github.com/openworker/desktop/internal/redact"
)

// httpDialer makes the transports of a streamable HTTP provider, one per
// MCP session (a server that restarted or dropped the session gets a new
// one, stale.go): srv.URL, with srv.Headers added to every request
// (servers.json "headers", already expanded by the registry). Its sessions
// share one connection pool.
//
// observe counts the progress notifications of event-stream responses in
// wire order (see progress.go).
type httpDialer struct {
	url      string
	base     http.RoundTripper
	headers  http.Header
	observe  func(token string)
	caps     func(jsonrpc.Message) // the handshake's answer (tasks.go)
	capsSeen func() bool
	oauth    *oauth.Handler // nil: no sign-in (signin.go)
}

func newHTTPDialer(srv tool.MCPServer, observe func(token string)) *httpDialer {
	h := make(http.Header, len(srv.Headers))
	for k, v := range srv.Headers {
		h.Set(k, v)
	}
	return &httpDialer{url: srv.URL, base: http.DefaultTransport.(*http.Transport).Clone(), headers: h, observe: observe}
}

// transport returns the transport of a new session and the mark its
// requests set when the server no longer knows the session.
func (d *httpDialer) transport() (sdk.Transport, *staleMark) {
	mark := &staleMark{}
	rt := &headerTransport{base: d.base, headers: d.headers, observe: d.observe, stale: mark, caps: d.caps, capsSeen: d.capsSeen}
	t := &sdk.StreamableClientTransport{
		Endpoint:   d.url,
		HTTPClient: &http.Client{Transport: rt},
		MaxRetries: 2,
	}
	if d.oauth != nil {
		t.OAuthHandler = d.oauth
	}
	return t, mark
}

// newSSE returns the transport of a legacy HTTP+SSE provider (MCP
// 2024-11-05, tool.TransportSSE): a GET of srv.URL opens the event stream,
// messages are POSTed to the endpoint it names; srv.Headers go with every
// request. A broken stream ends the session; the Manager opens a new one on
// the next use.
func newSSE(srv tool.MCPServer, observe func(token string)) sdk.Transport {
	d := newHTTPDialer(srv, observe)
	rt := &headerTransport{base: d.base, headers: d.headers, observe: observe}
	return &sseTransport{inner: &sdk.SSEClientTransport{Endpoint: srv.URL, HTTPClient: &http.Client{Transport: rt}}}
}

// sseTransport keeps the SSE stream open after the start: the SDK ties the
// stream's GET to the context given to Connect, which here is the start's,
// and ends when the start does. The start bound still ends a GET that
// hangs before the stream is open.
type sseTransport struct{ inner *sdk.SSEClientTransport }

func (t *sseTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	life, end := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, end)
	conn, err := t.inner.Connect(life)
	if !stop() && err == nil { // the start ended just as the stream opened
		conn.Close()
		err = context.Cause(ctx)
	}
	if err != nil {
		end()
		return nil, err
	}
	return &sseConn{Connection: conn, end: end}, nil
}

// sseConn ends the stream's context when the connection closes.
type sseConn struct {
	sdk.Connection
	end context.CancelFunc
}

func (c *sseConn) Close() error {
	err := c.Connection.Close()
	c.end()
	return err
}

// headerTransport adds fixed headers to each request, observes
// event-stream responses, and (streamable HTTP) notes answers that say the
// server no longer knows the session (stale.go). It never modifies the
// caller's request (the http.RoundTripper contract): it sends a clone.
type headerTransport struct {
	base     http.RoundTripper
	headers  http.Header
	observe  func(token string)
	stale    *staleMark            // nil for SSE
	caps     func(jsonrpc.Message) // sees the handshake's answer (tasks.go); nil for none
	capsSeen func() bool           // true once caps saw it
}

func (t *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range t.headers {
			r.Header[k] = v
		}
	}
	resp, err := t.base.RoundTrip(r)
	if t.stale != nil {
		noteAnswer(r, resp, err, t.stale)
	}
	if err == nil {
		observeSSE(resp, t.observe)
		if t.caps != nil && r.Header.Get("Mcp-Session-Id") == "" && !t.capsSeen() {
			observeHandshake(resp, t.caps) // no session yet: the handshake
		}
	}
	return resp, err
}

// redactURL drops credentials and the query from u for error messages
// (docs/limits.md: secrets never appear in errors): redact.ShortURL.
func redactURL(u string) string { return redact.ShortURL(u) }

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

// streamableHTTPKind reaches a running server over streamable HTTP
// (http.go); its sessions can go stale and be reopened (stale.go).
type streamableHTTPKind struct{}

func (streamableHTTPKind) open(_ context.Context, p *Provider, _ Use, signIn *oauth.Handler) (sdk.Transport, *staleMark, error) {
	p.http = newHTTPDialer(p.srv, p.observeToken)
	p.http.oauth = signIn
	p.http.caps, p.http.capsSeen = p.observeCaps, p.taskCaps.seen.Load
	t, stale := p.http.transport()
	return t, stale, nil
}

// sseKind reaches a running server over the legacy HTTP+SSE transport of
// MCP 2024-11-05 (http.go).
type sseKind struct{}

func (sseKind) open(_ context.Context, p *Provider, _ Use, _ *oauth.Handler) (sdk.Transport, *staleMark, error) {
	return newSSE(p.srv, p.observeToken), nil, nil
}
