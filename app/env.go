package app

import (
	"context"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/openworker/desktop/harness/extension"
	"github.com/openworker/desktop/harness/mcp/launch"
	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/tool"
)

// env is what the app was started with and keeps unchanged until it
// stops: the command line, its folders, the window's parts (events,
// dialogs, the opener), the keychains and the registry of its own tools.
// Every service embeds it. It has no mutable state, so no lock; it has no
// exported method, so nothing of it is bound.
type env struct {
	cfg     config
	paths   Paths
	log     *slog.Logger
	reg     *tool.Registry
	emit    Emitter
	dialogs Dialogs
	keys    Keychain
	opener  Opener
	// searchPath is deps.SearchPath (nil: launch.Default).
	searchPath func(context.Context) launch.SearchPath
	tokens     oauth.TokenStore      // sign-ins to remote MCP servers (signin.go)
	extSecrets extension.SecretStore // sensitive settings of extensions (extensions.go)
	base       context.Context       // cancelled at shutdown: stops running turns
	now        func() time.Time      // deps.Clock: the journal's clock, and Activity's "today"
}

// extensionsDir is the app's folder of installed MCP extensions,
// <config dir>/extensions (docs/extensions.md#what-is-stored): the CLI's
// `openworker extension install` writes the same folder for the default
// config dir.
func (a *env) extensionsDir() string { return filepath.Join(a.paths.ConfigDir, "extensions") }

// extensionStore is the store of the app's extensions folder.
func (a *env) extensionStore() *extension.Store {
	return &extension.Store{Dir: a.extensionsDir(), Secrets: a.extSecrets}
}

// launchPath is the search PATH providers are started with.
func (a *env) launchPath(ctx context.Context) launch.SearchPath {
	if a.searchPath != nil {
		return a.searchPath(ctx)
	}
	return launch.Default(ctx)
}

// pruneExtensions removes the folders of versions an upgrade replaced, at
// start before any chat opens (extension.Store.Prune).
func (a *env) pruneExtensions() {
	for _, err := range a.extensionStore().Prune() {
		a.log.Warn("extensions: prune", "err", err)
	}
}
