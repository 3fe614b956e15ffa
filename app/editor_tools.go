package app

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/openworker/desktop/harness"
)

// Kinds of ToolProvider, as the coworker editor groups them
// (docs/app.md#coworker-editor).
const (
	ProviderBuiltIn   = "builtin"   // native tools and MCP providers OpenWorker registers itself (device, files)
	ProviderServer    = "server"    // an MCP server of the servers file
	ProviderExtension = "extension" // an installed extension (.mcpb)
	ProviderAgent     = "agent"     // an A2A agent
)

// ToolProvider is one provider a coworker's tools are picked from, with
// the tools it offers now (harness.Runtime.ToolCatalog).
type ToolProvider struct {
	Namespace string `json:"namespace"`
	Provider  string `json:"provider"` // "native", "mcp:<namespace>", "a2a:<namespace>"
	// Kind is ProviderBuiltIn, ProviderServer, ProviderExtension or
	// ProviderAgent.
	Kind string `json:"kind"`
	// Title names it for people: the extension's display name and
	// version, the server's or agent's name as written, else the
	// namespace.
	Title string `json:"title"`
	// Source is where it is configured: the servers file (its base
	// name and line), "" for a built-in one or an extension.
	Source string                `json:"source"`
	Tools  []harness.CatalogTool `json:"tools"`
	// Error says why its tools could not be listed ("" when they were).
	Error string `json:"error"`
}

// kindOrder sorts the kinds as the editor lists them.
var kindOrder = map[string]int{ProviderBuiltIn: 0, ProviderServer: 1, ProviderExtension: 2, ProviderAgent: 3}

// ToolCatalog lists the providers new chats have, each with the tools it
// offers now, for picking a coworker's tools (docs/app.md#coworker-editor):
// built-in first, then the servers file's, the extensions', the A2A
// agents'. namespaces, when given, limits it to those providers (the
// ones an import or an install just added). It starts the MCP providers
// not running yet, each within the check timeout (checkTimeout), as the
// Coworkers list does; a provider that does not start is listed with its
// error. It holds no lock.
func (ed *Editor) ToolCatalog(namespaces []string) ([]ToolProvider, error) {
	rt, err := ed.engine.ready()
	if err != nil {
		return nil, err
	}
	rule := ed.model.current().nameRule(ed.settings.get().Provider)
	cat, err := rt.ToolCatalog(ed.base, rule, namespaces...)
	if err != nil {
		return nil, err
	}
	out := ed.toolProviders(cat)
	noteEditor(fmt.Sprintf("catalog %d", len(out)))
	return out, nil
}

// toolProviders gives each provider of cat its kind and title, and sorts
// them by kind, then namespace.
func (ed *Editor) toolProviders(cat []harness.ProviderTools) []ToolProvider {
	exts := map[string]string{}
	for _, e := range ed.extensionStore().Providers() {
		exts[e.Namespace] = strings.TrimSpace(e.DisplayName + " " + e.Version)
	}
	out := make([]ToolProvider, 0, len(cat))
	for _, p := range cat {
		tp := ToolProvider{Namespace: p.Namespace, Provider: p.Provider, Title: p.Namespace, Tools: p.Tools, Error: p.Error}
		if tp.Tools == nil {
			tp.Tools = []harness.CatalogTool{}
		}
		if p.Name != "" {
			tp.Title = p.Name
		}
		switch title, isExt := exts[p.Namespace]; {
		case strings.HasPrefix(p.Provider, harness.ProviderA2APrefix):
			tp.Kind, tp.Source = ProviderAgent, filepath.Base(p.Source)
		case isExt:
			tp.Kind, tp.Title = ProviderExtension, title
		case p.Provider == harness.ProviderNative || p.Source == "":
			tp.Kind = ProviderBuiltIn
		default:
			tp.Kind, tp.Source = ProviderServer, filepath.Base(p.Source)
		}
		out = append(out, tp)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if a, b := kindOrder[out[i].Kind], kindOrder[out[j].Kind]; a != b {
			return a < b
		}
		return out[i].Namespace < out[j].Namespace
	})
	return out
}
