package cli_test

import (
	"context"
	"fmt"
	"os"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// mcpgoEnv makes this test binary serve mcpgoServer over stdio instead of
// running tests (TestMain): servers.json names the test binary itself as
// the command, with this variable in its env.
const mcpgoEnv = "OW_CLI_TEST_MCPGO"

// The ledger of mcpgoServer: find_order knows none of these orders by
// number, order_count counts them.
var ledgerOrders = []string{"A-1", "A-2", "A-3"}

// mcpgoServer is an MCP server written with github.com/mark3labs/mcp-go,
// the most used Go MCP library. find_order fails the ordinary mcp-go way,
// `return nil, err`, which the library answers with a JSON-RPC error
// (issue 10, item 1); order_count succeeds.
func mcpgoServer() *server.MCPServer {
	s := server.NewMCPServer("ledger", "1.4.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("find_order",
		mcp.WithDescription("Finds an order by its number."),
		mcp.WithString("number", mcp.Required(), mcp.Description("the order number")),
		mcp.WithReadOnlyHintAnnotation(true),
	), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		number, err := req.RequireString("number")
		if err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("no order %q in the ledger", number)
	})
	s.AddTool(mcp.NewTool("order_count",
		mcp.WithDescription("Counts the orders in the ledger."),
		mcp.WithReadOnlyHintAnnotation(true),
	), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(fmt.Sprintf("the ledger holds %d orders", len(ledgerOrders))), nil
	})
	return s
}

// serveMCPGo runs mcpgoServer on stdin and stdout until stdin closes and
// returns the exit code.
func serveMCPGo() int {
	if err := server.ServeStdio(mcpgoServer()); err != nil {
		fmt.Fprintln(os.Stderr, "mcp-go ledger server:", err)
		return 1
	}
	return 0
}
