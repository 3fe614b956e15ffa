package app

import (
	"context"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/extension"
	"github.com/openworker/desktop/harness/mcp/launch"
)

// ExtensionUse is an installed extension (docs/extensions.md) whose tools
// a coworker resolved to: the one whose namespace is the tool's MCP
// provider. The coworker card shows "Uses extension DisplayName Version
// (Namespace)" (docs/app.md#coworkers).
type ExtensionUse struct {
	Name        string `json:"name"`         // the manifest's name, its folder's
	DisplayName string `json:"display_name"` // display_name, or the name
	Version     string `json:"version"`
	Namespace   string `json:"namespace"`
}

// extensionRestart ends the fix of a coworker whose extension cannot run:
// the app finds programs on the PATH it read at start.
const extensionRestart = "restart OpenWorker"

// extensionAnnotator returns what checkedList relates a report to the
// installed extensions with (extension.Annotate): a coworker whose
// extension is broken or cannot run gets a fix naming the extension and
// what to install, looked up on the PATH the app starts programs on.
func (a *env) extensionAnnotator(rt *harness.Runtime) func(context.Context, *harness.CheckReport) []extension.Provider {
	store, sp := a.extensionStore(), a.searchPath
	return func(ctx context.Context, rep *harness.CheckReport) []extension.Provider {
		exts := store.Providers()
		if len(exts) == 0 {
			return nil
		}
		path := launch.Default
		if sp != nil {
			path = sp
		}
		return extension.Annotate(ctx, rep, rt.Registry(), exts, store.Dir, launch.Search{Path: path(ctx).Path}, extensionRestart)
	}
}

// extensionUses are the extensions of exts tools resolved to, in tools
// order; never nil.
func extensionUses(exts []extension.Provider, tools []harness.ResolvedTool) []ExtensionUse {
	out := []ExtensionUse{}
	for _, e := range extension.ProvidersOf(exts, tools) {
		out = append(out, ExtensionUse{Name: e.Name, DisplayName: e.DisplayName, Version: e.Version, Namespace: e.Namespace})
	}
	return out
}
