// Command sampleserver is mcptest.SampleServer on stdio: an MCP server
// whose tool asks the host's model for a completion, for
// scripts/app-e2e.sh.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/openworker/desktop/harness/mcp/mcptest"
)

func main() {
	if err := mcptest.ServeSample(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "sampleserver:", err)
		os.Exit(1)
	}
}
