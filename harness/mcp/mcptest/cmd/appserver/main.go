// Command appserver is mcptest.AppServer on stdio: an MCP server with MCP
// Apps tools and their ui:// pages (docs/mcp-apps.md), for the harness
// tests and scripts/e2e/14-mcp-apps.sh.
//
// Usage: appserver -extapps DIR
//
// DIR is the dist/src folder of the npm package @modelcontextprotocol/ext-apps
// (harness/mcp/testdata/npm/node_modules/@modelcontextprotocol/ext-apps/dist/src
// after sh harness/mcp/testdata/npm/install.sh); without -extapps the
// environment variable OPENWORKER_EXTAPPS_DIR is read. Its
// app-with-deps.js is inlined into the counter page; the server exits 2
// at start, saying so, when it cannot be read.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/openworker/desktop/harness/mcp/mcptest"
)

// dirEnv is read when -extapps is not given.
const dirEnv = "OPENWORKER_EXTAPPS_DIR"

func main() {
	dir := flag.String("extapps", os.Getenv(dirEnv), "the dist/src folder of @modelcontextprotocol/ext-apps (holding "+mcptest.AppClientFile+"); default $"+dirEnv)
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "appserver: unexpected argument %q; usage: appserver -extapps DIR\n", flag.Arg(0))
		os.Exit(2)
	}
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "appserver: -extapps DIR is required: the dist/src folder of @modelcontextprotocol/ext-apps "+
			"(harness/mcp/testdata/npm/node_modules/@modelcontextprotocol/ext-apps/dist/src after sh harness/mcp/testdata/npm/install.sh), or set "+dirEnv)
		os.Exit(2)
	}
	client, err := mcptest.LoadAppClient(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "appserver:", err)
		os.Exit(2)
	}
	if err := mcptest.ServeApps(context.Background(), client); err != nil {
		fmt.Fprintln(os.Stderr, "appserver:", err)
		os.Exit(1)
	}
}
