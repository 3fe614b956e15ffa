package mcp

import (
	"context"
	"fmt"
	"os"

	"github.com/openworker/desktop/harness/tool"
)

// ToolsWithRoot lists the tools srv offers to a client that offers a root
// (docs/mcp.md#roots): some servers list a tool only then
// (server-everything's get-roots-list). It starts a provider of its own
// with m's options, offering a new empty folder as its root, lists its
// tools and ends it, within ctx; the Manager keeps nothing of it. For a
// resolver that did not find a selected tool without a workspace, to say
// why.
func (m *Manager) ToolsWithRoot(ctx context.Context, srv tool.MCPServer, u Use) ([]RemoteTool, error) {
	dir, err := os.MkdirTemp("", "openworker-roots-")
	if err != nil {
		return nil, fmt.Errorf("a folder to offer MCP provider %q as its root: %w", srv.Namespace, err)
	}
	defer os.RemoveAll(dir)
	u.Workspace, u.NoRoot = dir, false
	p, err := ConnectUse(ctx, srv, m.opts, u)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	return p.ListTools(ctx)
}
