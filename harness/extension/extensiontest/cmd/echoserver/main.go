// Command echoserver is the MCP stdio server of the binary test extension
// (extensiontest.Echo packs it): a real Go program built by the tests,
// with two tools.
//
//   - echo {text}: answers "PREFIX: TEXT", PREFIX being $ECHO_PREFIX (the
//     manifest passes ${user_config.prefix}), TEXT repeated --repeat times.
//   - settings {}: answers its command line and what it was started with:
//     the --dir argument (the manifest passes ${__dirname}), $ECHO_PREFIX,
//     $ECHO_WORKDIR,
//     and the length and SHA-256 (first 12 hex digits) of $ECHO_TOKEN
//     (${user_config.token}, a sensitive value), so a test sees the
//     secret arrived without it being in the answer.
//
// It is no part of the product.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	dir := flag.String("dir", "", "the extension's folder")
	repeat := flag.Int("repeat", 1, "how many times echo repeats its text")
	flag.Parse()
	s := mcp.NewServer(&mcp.Implementation{Name: "echoserver", Version: "1.0.0"}, nil)
	type echoArgs struct {
		Text string `json:"text" jsonschema:"the text to echo"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echo a text with the configured prefix"},
		func(_ context.Context, _ *mcp.CallToolRequest, a echoArgs) (*mcp.CallToolResult, any, error) {
			return text(os.Getenv("ECHO_PREFIX") + ": " + strings.TrimSpace(strings.Repeat(a.Text+" ", max(*repeat, 1)))), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "settings", Description: "Show what the server was started with"},
		func(_ context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			tok := os.Getenv("ECHO_TOKEN")
			sum := sha256.Sum256([]byte(tok))
			return text(fmt.Sprintf("dir=%s prefix=%s workdir=%s token_len=%d token_sha256=%s", *dir, os.Getenv("ECHO_PREFIX"), os.Getenv("ECHO_WORKDIR"), len(tok), hex.EncodeToString(sum[:])[:12])), nil, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}
