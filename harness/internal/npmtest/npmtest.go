// Package npmtest finds and runs, for tests, the third-party MCP servers
// from npm pinned in harness/mcp/testdata/npm (package.json,
// package-lock.json): @modelcontextprotocol/server-everything,
// server-filesystem and server-memory, the official MCPB packer
// @anthropic-ai/mcpb (MCPB) and the MCP Apps SDK
// @modelcontextprotocol/ext-apps (ExtApps). It is test support only: the product never
// imports it.
//
// The servers are installed by harness/mcp/testdata/npm/install.sh
// (scripts/test.sh runs it before go test); go test never installs
// anything, so node_modules is never written into the source tree by a
// test. Without node or the installed servers a test that needs them
// skips, unless the environment variable CI is set: there it fails, so CI
// cannot skip it silently. It skips with -short. The folder is found from
// this file's position, so any package's test can use it
// (docs/mcp.md#tested-with-real-servers).
package npmtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// InstallHint says how to install the pinned servers.
const InstallHint = "run sh harness/mcp/testdata/npm/install.sh (scripts/test.sh does)"

// Dir returns the absolute folder of the pinned servers,
// harness/mcp/testdata/npm, or fails t when the test binary was built
// with -trimpath (the source position is then unknown).
func Dir(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		t.Fatalf("npmtest: the source folder is unknown (%q); build the test without -trimpath", file)
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "mcp", "testdata", "npm")
}

// SkipOrFail skips the test with msg, or fails it when CI is set.
func SkipOrFail(t testing.TB, msg string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("%s (CI is set, so this test may not skip)", msg)
	}
	t.Skip(msg)
}

// Server returns node (from PATH) and the absolute entry script
// (dist/index.js) of the installed npm package @modelcontextprotocol/<pkg>
// ("server-everything", "server-filesystem", "server-memory"). It skips
// with -short, and when node or the package is missing (SkipOrFail).
func Server(t testing.TB, pkg string) (node, entry string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping the npm " + pkg + " test")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		SkipOrFail(t, "node is not on PATH; install Node.js 18+ to run the "+pkg+" test")
	}
	entry = filepath.Join(Dir(t), "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
	if _, err := os.Stat(entry); err != nil {
		SkipOrFail(t, pkg+" is not installed: "+InstallHint)
	}
	return node, entry
}
