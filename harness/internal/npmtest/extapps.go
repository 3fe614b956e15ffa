package npmtest

import (
	"os"
	"path/filepath"
	"testing"
)

// ExtApps returns the absolute dist/src folder of the installed npm
// package @modelcontextprotocol/ext-apps (pinned in harness/mcp/testdata/npm),
// the folder to give harness/mcp/mcptest/cmd/appserver as -extapps (it
// holds app-with-deps.js, the bundled View-side App client). It skips with
// -short, and when the package is missing (SkipOrFail); node is not needed.
func ExtApps(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping the ext-apps test")
	}
	dir := filepath.Join(Dir(t), "node_modules", "@modelcontextprotocol", "ext-apps", "dist", "src")
	if _, err := os.Stat(filepath.Join(dir, "app-with-deps.js")); err != nil {
		SkipOrFail(t, "@modelcontextprotocol/ext-apps is not installed: "+InstallHint)
	}
	return dir
}
