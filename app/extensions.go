package app

import (
	"fmt"

	"github.com/openworker/desktop/harness/extension/manifest"
	"github.com/openworker/desktop/harness/tool"
)

// extensionServers returns the providers of the installed extensions to
// add to the servers file's (docs/extensions.md#running), and as broken
// the ones that cannot run or whose namespace the servers file or the app
// already has. It reads the extensions folder: call it holding no lock.
func (a *env) extensionServers(taken []tool.MCPServer) ([]tool.MCPServer, []tool.BrokenMCP) {
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
