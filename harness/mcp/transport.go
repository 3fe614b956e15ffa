package mcp

import (
	"context"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/tool"
)

// transport is how a provider reaches its server: one implementation per
// transport kind of tool.MCPServer, in the file of that transport
// (stdioKind in stdio.go; streamableHTTPKind and sseKind in http.go),
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
