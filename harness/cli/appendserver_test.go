package cli_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// appendEnv makes this test binary serve appendServer over stdio
// (TestMain): a tool with a side effect a test can count. The variable's
// value is the file the tool appends to.
const appendEnv = "OW_CLI_TEST_APPEND"

// serveAppend serves one tool, append: it appends its text and a newline
// to the file named by appendEnv (O_APPEND, fsynced), then takes 300 ms
// more before it answers, so that a process killed at a random moment may
// die before the append, between the append and the result, or after.
func serveAppend() int {
	path := os.Getenv(appendEnv)
	s := server.NewMCPServer("appender", "1.0.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("append",
		mcp.WithDescription("Appends a line to the ledger file."),
		mcp.WithString("text", mcp.Required(), mcp.Description("the line")),
		mcp.WithDestructiveHintAnnotation(false),
	), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		text, err := req.RequireString("text")
		if err != nil {
			return nil, err
		}
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return nil, err
		}
		_, err = fmt.Fprintln(f, text)
		if err == nil {
			err = f.Sync()
		}
		f.Close()
		if err != nil {
			return nil, err
		}
		time.Sleep(300 * time.Millisecond)
		return mcp.NewToolResultText("appended " + text), nil
	})
	if err := server.ServeStdio(s); err != nil {
		fmt.Fprintln(os.Stderr, "append server:", err)
		return 1
	}
	return 0
}
