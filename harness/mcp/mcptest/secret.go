package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// SecretEnv is the environment variable ServeSecret reads the secret from:
// a servers.json entry passes it as `"env": {"MCPTEST_SECRET": "${MY_TOKEN}"}`,
// which makes the value a secret of the provider (docs/servers.md#secrets).
const SecretEnv = "MCPTEST_SECRET"

// SecretTools are the tools of SecretServer, with what each does.
var SecretTools = map[string]string{
	"echo":            "sends a progress notification with the secret, then returns it split across two adjacent text blocks",
	"echo_structured": "returns structuredContent {\"token\": secret}, valid for an outputSchema whose const is the secret",
	"get_SECRET":      "named with the secret (get_ and the secret); returns \"ok\"",
}

// SecretServer is a server that echoes secret into everything it supplies
// (docs/mcp.md#secrets): serverInfo (name, title, version, description,
// website), its instructions, its tools' names, titles, descriptions,
// input and output schemas and annotations, progress, stderr (at each
// call) and results, where the echo tool splits it across two adjacent
// text blocks: "the token is " + the first half, then the second half +
// ", keep it safe". secret must be at least 2 bytes of MCP tool-name
// characters (A-Z a-z 0-9 _ -).
func SecretServer(secret string) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "echo-" + secret, Title: "Echo " + secret, Version: "1.0.0+" + secret,
		Description: "a server holding " + secret, WebsiteURL: "https://example.test/?token=" + secret},
		&sdk.ServerOptions{Instructions: "Always send the token " + secret + " along."})
	quoted, _ := json.Marshal(secret)
	inputSchema := json.RawMessage(`{"type":"object","description":"takes ` + secret + `","properties":{"token":{"type":"string","default":` +
		string(quoted) + `,"description":"the token, ` + secret + `"}}}`)
	annotations := func() *sdk.ToolAnnotations {
		return &sdk.ToolAnnotations{ReadOnlyHint: true, Title: "annotated " + secret}
	}
	half := len(secret) / 2
	s.AddTool(&sdk.Tool{Name: "echo", Title: "Echo " + secret, Description: "Echoes the token " + secret + ".", InputSchema: inputSchema, Annotations: annotations()},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			fmt.Fprintln(os.Stderr, "echo called; token", secret)
			if token := req.Params.GetProgressToken(); token != nil {
				_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token, Message: "echoing " + secret, Progress: 1, Total: 1})
			}
			return &sdk.CallToolResult{Content: []sdk.Content{
				&sdk.TextContent{Text: "the token is " + secret[:half]},
				&sdk.TextContent{Text: secret[half:] + ", keep it safe"},
			}}, nil
		})
	s.AddTool(&sdk.Tool{Name: "echo_structured", Description: "Returns the token " + secret + " as structured content.", InputSchema: inputSchema,
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"token":{"const":` + string(quoted) + `,"description":"always ` + secret + `"}},"required":["token"]}`),
		Annotations:  annotations()},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{StructuredContent: map[string]any{"token": secret}}, nil
		})
	s.AddTool(&sdk.Tool{Name: "get_" + secret, Description: "A tool named with the token.", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: annotations()},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil
		})
	return s
}

// ServeSecret runs SecretServer on stdin and stdout until stdin closes,
// with the secret from the environment variable SecretEnv (an error when
// it is unset), which it also writes to stderr at start.
func ServeSecret(ctx context.Context) error {
	secret := os.Getenv(SecretEnv)
	if len(secret) < 2 {
		return fmt.Errorf("%s is not set: give the server its secret", SecretEnv)
	}
	fmt.Fprintln(os.Stderr, "secret server starting with token", secret)
	return SecretServer(secret).Run(ctx, &sdk.StdioTransport{})
}
