package harness

import (
	"context"
	"fmt"
	"sync"

	"github.com/openworker/desktop/harness/bundle"
)

// WorkspaceFix is the fix of a selected tool that its MCP provider lists
// only when a workspace is given (docs/mcp.md#roots).
// The CLI adds its flag when it prints it (harness/cli/hints.go).
const WorkspaceFix = "give a workspace: in the app, choose a Working folder for the coworker (its editor, or folder: in its manifest.md); in the terminal, name a workspace folder for the run or the check"

// toolsWithRoot is resolver.withRoot for a resolution that offers no
// root (no workspace, or a default one): for a provider that does not list a selected tool, the
// tools it lists once a root is offered (mcp.Manager.ToolsWithRoot), so
// a tool offered only with a workspace is not called a wrong name. Each
// namespace is asked once per resolution; a failure lists none.
func (rt *Runtime) toolsWithRoot(ctx context.Context, g *generation, b *bundle.Bundle) func(ns string) map[string]bool {
	var mu sync.Mutex
	seen := map[string]map[string]bool{}
	use := useFor("", false, b)
	return func(ns string) map[string]bool {
		mu.Lock()
		defer mu.Unlock()
		if names, ok := seen[ns]; ok {
			return names
		}
		names := map[string]bool{}
		seen[ns] = names
		srv, ok := g.reg.Server(ns)
		if !ok {
			return names
		}
		list, err := rt.mcp.ToolsWithRoot(ctx, srv, use(ns))
		if err != nil {
			rt.opts.Logger.Debug("listing tools with a root failed", "namespace", ns, "err", err)
			return names
		}
		for _, t := range list {
			names[t.Name] = true
		}
		return names
	}
}

// onlyWithWorkspace is the error of a selected tool that provider ns
// lists only when a workspace is offered as its root.
func onlyWithWorkspace(b *bundle.Bundle, name, ns, remote string) *ResolveError {
	e := resolveErr(b, name, fmt.Sprintf("MCP provider %q offers tool %q only with a workspace: it lists it when OpenWorker offers a folder as its root (docs/mcp.md#roots), and none is offered", ns, remote))
	e.Provider, e.Fix = ns, WorkspaceFix
	return e
}
