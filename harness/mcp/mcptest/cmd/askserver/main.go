// Command askserver is mcptest.AskServer on stdio: an MCP server whose
// tools ask the person questions, for scripts/app-e2e.sh.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/openworker/desktop/harness/mcp/mcptest"
)

func main() {
	if err := mcptest.ServeAsk(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "askserver:", err)
		os.Exit(1)
	}
}
