package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// PayURL is the page URLRequiredServer's "pay" asks to open first.
const PayURL = "https://pay.example.com/checkout?order=7"

// URLRequiredServer is a server whose tools answer tools/call with MCP's
// URLElicitationRequired error (-32042, built by the SDK's
// URLElicitationRequiredError; docs/mcp.md#url-required):
//   - "pay": the first call answers -32042 asking to open PayURL
//     (elicitationId "pay-1"); every later call returns "paid on call N";
//   - "loop": every call answers -32042 (elicitationId "loop-N");
//   - "malformed": answers code -32042 with the JSON of the argument
//     "data" as the error's data (raw, unchecked);
//   - "complete": sends notifications/elicitation/complete for the
//     argument "id" and returns "sent".
func URLRequiredServer() *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: "url-required", Version: "1.0.0"}, nil)
	var mu sync.Mutex
	calls := map[string]int{}
	count := func(name string) int {
		mu.Lock()
		defer mu.Unlock()
		calls[name]++
		return calls[name]
	}
	schema := json.RawMessage(`{"type":"object"}`)
	srv.AddTool(&sdk.Tool{Name: "pay", InputSchema: schema}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		n := count("pay")
		if n == 1 {
			return nil, sdk.URLElicitationRequiredError([]*sdk.ElicitParams{{Mode: "url", URL: PayURL, ElicitationID: "pay-1", Message: "Pay for order 7 first."}})
		}
		return text(fmt.Sprintf("paid on call %d", n)), nil
	})
	srv.AddTool(&sdk.Tool{Name: "loop", InputSchema: schema}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		n := count("loop")
		return nil, sdk.URLElicitationRequiredError([]*sdk.ElicitParams{{Mode: "url", URL: "https://loop.example.com/again",
			ElicitationID: fmt.Sprintf("loop-%d", n), Message: "Open this page, again."}})
	})
	srv.AddTool(&sdk.Tool{Name: "malformed", InputSchema: schema}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		var args struct{ Data json.RawMessage }
		_ = json.Unmarshal(req.Params.Arguments, &args)
		return nil, &jsonrpc.Error{Code: sdk.CodeURLElicitationRequired, Message: "URL elicitation required", Data: args.Data}
	})
	srv.AddTool(&sdk.Tool{Name: "complete", InputSchema: schema}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		var args struct{ ID string }
		_ = json.Unmarshal(req.Params.Arguments, &args)
		if err := req.Session.NotifyElicitationComplete(ctx, &sdk.ElicitationCompleteParams{ElicitationID: args.ID}); err != nil {
			return nil, err
		}
		return text("sent"), nil
	})
	return srv
}

// ServeURLRequired serves URLRequiredServer on stdin and stdout until ctx
// ends or stdin closes.
func ServeURLRequired(ctx context.Context) error {
	return URLRequiredServer().Run(ctx, &sdk.StdioTransport{})
}
