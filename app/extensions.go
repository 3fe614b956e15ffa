package app

import (
	"fmt"
	"path/filepath"

	"github.com/openworker/desktop/harness/extension"
	"github.com/openworker/desktop/harness/extension/manifest"
	"github.com/openworker/desktop/harness/tool"
)

// extensionsDir is the app's folder of installed MCP extensions,
// <config dir>/extensions (docs/extensions.md#what-is-stored): the CLI's
// `openworker extension install` writes the same folder for the default
// config dir.
func (a *App) extensionsDir() string { return filepath.Join(a.paths.ConfigDir, "extensions") }

// extensionStore is the store of the app's extensions folder.
func (a *App) extensionStore() *extension.Store {
	return &extension.Store{Dir: a.extensionsDir(), Secrets: a.extSecrets}
}

// extensionServersLocked returns the providers of the installed
// extensions to add to the servers file's (docs/extensions.md#running),
// and as broken the ones that cannot run or whose namespace the servers
// file or the app already has. a.mu must be held.
func (a *App) extensionServersLocked(taken []tool.MCPServer) ([]tool.MCPServer, []tool.BrokenMCP) {
	host, err := manifest.ThisHost()
	if err != nil {
		return nil, []tool.BrokenMCP{{Source: a.extensionsDir(), Err: err, Extension: true}}
	}
	servers, broken := a.extensionStore().Servers(host)
	used := map[string]bool{}
	for _, srv := range taken {
		used[srv.Namespace] = true
	}
	var out []tool.MCPServer
	for _, srv := range servers {
		if used[srv.Namespace] || a.reg.IsNative(srv.Namespace) {
			broken = append(broken, tool.BrokenMCP{Namespace: srv.Namespace, Source: srv.Source, Entry: true, Extension: true,
				Err: fmt.Errorf("extension namespace %q is already a provider of the servers file or of OpenWorker; rename or remove that one, or remove the extension", srv.Namespace)})
			continue
		}
		used[srv.Namespace] = true
		out = append(out, srv)
	}
	return out, broken
}

// pruneExtensions removes the folders of versions an upgrade replaced, at
// start before any chat opens (extension.Store.Prune).
func (a *App) pruneExtensions() {
	for _, err := range a.extensionStore().Prune() {
		a.log.Warn("extensions: prune", "err", err)
	}
}
