package harness

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/openworker/desktop/harness/bundle"
)

// A coworker's working folder (docs/bundles.md#folder): a manifest's
// "folder" replaces the host's workspace for that coworker's sessions,
// resumed sessions and checks. Tools get it in tool.Call.Workspace and its
// MCP providers offer it as their one root (docs/mcp.md#roots), even on a
// host whose own workspace is a default offered as no root (rootless), so
// providers are started per folder, shared by the coworkers with the same
// one.

// workspaceFor returns the workspace of a session or check of coworker b
// on a host whose workspace is workspace: b's folder when it has one.
func workspaceFor(workspace string, b *bundle.Bundle) string {
	if b != nil && b.Folder != "" {
		return b.Folder
	}
	return workspace
}

// rootless says whether the providers of a session or check of coworker
// b on a host whose workspace is a default (defaultWS, the app's hidden
// folder) are offered no root: a folder the person did not choose is not
// offered to MCP servers, which would use it in place of the folders of
// their own arguments (server-filesystem does); the coworker's folder,
// chosen by the person, always is (docs/mcp.md#roots).
func rootless(defaultWS bool, b *bundle.Bundle) bool {
	return defaultWS && (b == nil || b.Folder == "")
}

// checkFolder refuses a coworker whose folder is missing or not a folder,
// before any provider starts for it: a root that does not exist would
// fail at the first call, far from its cause.
func checkFolder(b *bundle.Bundle) *ResolveError {
	if b.Folder == "" {
		return nil
	}
	manifest := filepath.Join(b.Dir, "coworker", "manifest.md")
	st, err := os.Stat(b.Folder)
	msg := ""
	switch {
	case os.IsNotExist(err):
		msg = fmt.Sprintf("its folder %s (folder: in manifest.md) does not exist", b.Folder)
	case err != nil:
		msg = fmt.Sprintf("its folder %s (folder: in manifest.md) cannot be used: %v", b.Folder, err)
	case !st.IsDir():
		msg = fmt.Sprintf("its folder %s (folder: in manifest.md) is a file, not a folder", b.Folder)
	default:
		return nil
	}
	fix := "create the folder, or change or remove folder: in " + manifest
	return &ResolveError{Coworker: b.ID, Msg: msg + "; " + fix, File: manifest, Fix: fix, folder: true}
}

// folderMissing reports whether err is checkFolder's.
func folderMissing(err error) bool {
	var re *ResolveError
	return errors.As(err, &re) && re.folder
}
