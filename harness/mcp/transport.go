package mcp

import (
	"context"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/tool"
)

// transport is how a provider reaches its server: one implementation per
// transport kind of tool.MCPServer (stdio, streamable HTTP, SSE),
// chosen once per provider by transportFor. Everything after the first
// session (a stdio process's stop, a streamable HTTP session reopened,
// docs/mcp.md#stale-sessions) hangs off what open leaves on the Provider.
type transport interface {
	// open makes the SDK transport of the provider's first session: it
	// starts a stdio process (p.stdio) or prepares the HTTP dialer
	// (p.http). stale is set only for transports whose server can forget
	// a session. ctx is the start's context; signIn is nil unless the
	// provider may sign in (signin.go).
	open(ctx context.Context, p *Provider, u Use, signIn *oauth.Handler) (t sdk.Transport, stale *staleMark, err error)
}

// transports are the transport kinds a provider can use, by
// tool.MCPServer.Transport.
var transports = map[string]transport{
	tool.TransportStdio:          stdioKind{},
	tool.TransportStreamableHTTP: streamableHTTPKind{},
	tool.TransportSSE:            sseKind{},
}

// transportFor chooses the transport of srv and names its kind. An empty
// Transport is the zero value of a tool.MCPServer made in code, which
// tool.MCPServer defines as stdio; every entry of a servers file has its
// transport decided when it is read (package harness/servers).
func transportFor(srv tool.MCPServer) (kind string, t transport, err error) {
	kind = srv.Transport
	if kind == "" {
		kind = tool.TransportStdio
	}
	if t, ok := transports[kind]; ok {
		return kind, t, nil
	}
	return "", nil, fmt.Errorf("unknown transport %q; use %q, %q or %q", srv.Transport, tool.TransportStdio, tool.TransportStreamableHTTP, tool.TransportSSE)
}

// stdioKind starts the server as a child process and speaks over its
// stdin and stdout (stdio.go).
type stdioKind struct{}

func (stdioKind) open(ctx context.Context, p *Provider, u Use, _ *oauth.Handler) (sdk.Transport, *staleMark, error) {
	proc, t, err := newStdio(ctx, p.srv, p.opts, u, newNoiseLog(p.opts.Logger, p.srv.Namespace, p.secrets.text), p.observeMessage)
	p.stdio = proc
	return t, nil, err
}

// streamableHTTPKind reaches a running server over streamable HTTP
// (http.go); its sessions can go stale and be reopened (stale.go).
type streamableHTTPKind struct{}

func (streamableHTTPKind) open(_ context.Context, p *Provider, _ Use, signIn *oauth.Handler) (sdk.Transport, *staleMark, error) {
	p.http = newHTTPDialer(p.srv, p.observeToken)
	p.http.oauth = signIn
	t, stale := p.http.transport()
	return t, stale, nil
}

// sseKind reaches a running server over the legacy HTTP+SSE transport of
// MCP 2024-11-05 (http.go).
type sseKind struct{}

func (sseKind) open(_ context.Context, p *Provider, _ Use, _ *oauth.Handler) (sdk.Transport, *staleMark, error) {
	return newSSE(p.srv, p.observeToken), nil, nil
}
