package harness_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/tool"
)

// serveBigCatalogEnv makes the test binary serve an oversized catalog:
// "description" (one tool with a 10 MB description) or "count" (5,000
// tools).
const serveBigCatalogEnv = "OPENWORKER_TEST_SERVE_BIG_CATALOG"

func serveBigCatalog(kind string) {
	s := sdk.NewServer(&sdk.Implementation{Name: "big", Version: "1.0.0"}, nil)
	handler := func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil, nil
	}
	ro := &sdk.ToolAnnotations{ReadOnlyHint: true}
	sdk.AddTool(s, &sdk.Tool{Name: "small", Description: "a tool", Annotations: ro}, handler)
	switch kind {
	case "description":
		sdk.AddTool(s, &sdk.Tool{Name: "huge", Description: strings.Repeat("words ", 10<<20/6), Annotations: ro}, handler)
	case "count":
		for i := range 5000 {
			sdk.AddTool(s, &sdk.Tool{Name: fmt.Sprintf("t%04d", i), Description: "one of many", Annotations: ro}, handler)
		}
	}
	if err := s.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// TestCatalogBoundsSameInCheckAndRun: a server with a 10 MB tool
// description, and one with 5,000 tools, are refused by check and by a
// new session with the same message, naming the server and the size
// (issue 40: check accepted a catalog run could not open, and a 10 MB
// description went with every model request).
func TestCatalogBoundsSameInCheckAndRun(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ kind string }{{"description"}, {"count"}} {
		t.Run(tc.kind, func(t *testing.T) {
			srv := tool.MCPServer{Namespace: "big", Program: exe, Env: map[string]string{serveBigCatalogEnv: tc.kind, "GORACE": "atexit_sleep_ms=0"}}
			e := newEnv(t, envOpts{servers: []tool.MCPServer{srv}})
			writeFile(t, filepath.Join(e.bundles, "tester", "coworker", "tools.json"), `{"version": 3, "tools": ["big.small"]}`)
			rep, err := e.rt.Check(context.Background(), e.bundles, e.provider)
			if err != nil {
				t.Fatal(err)
			}
			checkSaid := fmt.Sprintf("%+v", rep)
			if len(rep.OK) != 0 || !strings.Contains(checkSaid, `mcp provider "big"`) || !strings.Contains(checkSaid, wantSize(tc.kind)) {
				t.Fatalf("Check = %.600s; want tester refused naming the server and %q", checkSaid, wantSize(tc.kind))
			}
			_, err = e.rt.NewSession(context.Background(), "tester", e.so)
			if err == nil || err.Error() != rep.Broken[0].Message {
				t.Fatalf("NewSession = %v;\ncheck said   %s", err, rep.Broken[0].Message)
			}
		})
	}
}

// wantSize is the part of the refusal that gives the size.
func wantSize(kind string) string {
	if kind == "count" {
		return fmt.Sprintf("lists more than %d tools", mcp.MaxCatalogTools)
	}
	return `tool "huge" has a descriptor of 10485` // 10 MB and its schema
}
