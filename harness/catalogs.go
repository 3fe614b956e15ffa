package harness

import (
	"context"
	"fmt"

	"github.com/openworker/desktop/harness/mcp"
)

// catalog is one MCP provider's tool list as discovered once.
type catalog struct {
	p       *mcp.Provider // nil when the start failed
	version uint64        // p.CatalogVersion() just before the listing
	tools   map[string]mcp.RemoteTool
	err     error // the start failed (p nil) or the listing did
}

// provider returns the running MCP provider of namespace ns in generation
// g for the use u (its root, docs/mcp.md#roots; sampling,
// docs/mcp.md#sampling), starting it on first use.
func (rt *Runtime) provider(ctx context.Context, g *generation, ns string, u mcp.Use) (*mcp.Provider, error) {
	srv, ok := g.reg.Server(ns)
	if !ok {
		return nil, fmt.Errorf("no MCP provider is registered under namespace %q", ns)
	}
	return rt.mcp.ProviderUse(ctx, srv, u)
}

// catalogs starts the providers of namespaces in g and lists their tools,
// at most Options.Parallel at once (docs/mcp.md): ten providers that each
// take a second to start take about a second, not ten. Every namespace
// gets an entry; failures are in its err.
func (rt *Runtime) catalogs(ctx context.Context, g *generation, namespaces []string, use func(ns string) mcp.Use) map[string]*catalog {
	var unique []string
	seen := make(map[string]bool, len(namespaces))
	for _, ns := range namespaces {
		if !seen[ns] {
			seen[ns] = true
			unique = append(unique, ns)
		}
	}
	list := make([]*catalog, len(unique))
	forEach(len(unique), rt.opts.Parallel, func(i int) { list[i] = rt.listCatalog(ctx, g, unique[i], use(unique[i])) })
	out := make(map[string]*catalog, len(unique))
	for i, ns := range unique {
		out[ns] = list[i]
	}
	return out
}

// listCatalog starts (or reuses) one provider and lists its tools.
func (rt *Runtime) listCatalog(ctx context.Context, g *generation, ns string, u mcp.Use) *catalog {
	p, err := rt.provider(ctx, g, ns, u)
	if err != nil {
		return &catalog{err: err}
	}
	c := &catalog{p: p, version: p.CatalogVersion()}
	list, err := p.ListTools(ctx)
	if err != nil {
		c.err = fmt.Errorf("list the tools of MCP provider %q: %w", ns, err)
		return c
	}
	c.tools = make(map[string]mcp.RemoteTool, len(list))
	for _, t := range list {
		c.tools[t.Name] = t
	}
	return c
}
