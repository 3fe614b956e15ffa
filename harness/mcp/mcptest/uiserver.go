package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// UIPage is the HTML of UIServer's good view, ui://kit/view.html.
const UIPage = `<!doctype html><html><head><title>counter</title></head><body><button>Bump</button></body></html>`

// UIServer is an MCP Apps server (docs/mcp-apps.md) for tests. Tools:
//   - "show": UI ui://kit/view.html; returns {"count":N} structured and
//     "count N" as text (N counts bump calls);
//   - "bump": visibility ["app"]: its views may call it, the model may not;
//     adds one to the count;
//   - "model_only": visibility ["model"]: no view may call it;
//   - "peek": no UI; a tool a bundle leaves unselected;
//   - "caps": the client's capabilities as sent in initialize, as JSON text;
//   - "flat_show": UI given by the older flat key _meta["ui/resourceUri"];
//   - "http_show": a UI that is not ui:// (https://…), ignored;
//   - "big_show": UI ui://kit/big.html, over the 2 MiB bound.
//
// Resources: ui://kit/view.html (the good page, with a CSP, permissions and
// prefersBorder), ui://kit/blob.html (the page as a base64 blob),
// ui://kit/big.html (2 MiB + 1 byte), ui://kit/exact.html (exactly 2 MiB),
// ui://kit/text.html (text/plain), ui://kit/csp-<k>.html for each key of
// BadCSP, ui://kit/two.html (two items). ui://kit/missing.html is not there.
func UIServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "uikit", Version: "1.0.0"}, nil)
	var count atomic.Int64
	text := func(t string) []sdk.Content { return []sdk.Content{&sdk.TextContent{Text: t}} }
	counter := func() *sdk.CallToolResult {
		n := count.Load()
		raw, _ := json.Marshal(map[string]int64{"count": n})
		return &sdk.CallToolResult{Content: text(fmt.Sprintf("count %d", n)), StructuredContent: json.RawMessage(raw)}
	}
	ro := &sdk.ToolAnnotations{ReadOnlyHint: true}
	sdk.AddTool(s, &sdk.Tool{Name: "show", Description: "shows the counter", Annotations: ro,
		Meta: sdk.Meta{"ui": map[string]any{"resourceUri": "ui://kit/view.html"}}},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return counter(), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "bump", Description: "adds one to the counter",
		Meta: sdk.Meta{"ui": map[string]any{"resourceUri": "ui://kit/view.html", "visibility": []string{"app"}}}},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			count.Add(1)
			return counter(), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "model_only", Description: "for the model only",
		Meta: sdk.Meta{"ui": map[string]any{"resourceUri": "ui://kit/view.html", "visibility": []string{"model"}}}},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: text("model only")}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "peek", Description: "a secret"},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: text("the secret")}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "caps", Description: "the client's capabilities"},
		func(_ context.Context, req *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			raw, _ := json.Marshal(req.Session.InitializeParams().Capabilities)
			return &sdk.CallToolResult{Content: text(string(raw))}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "flat_show", Description: "older meta key", Meta: sdk.Meta{"ui/resourceUri": "ui://kit/view.html"}},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return counter(), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "http_show", Description: "not ui://", Meta: sdk.Meta{"ui": map[string]any{"resourceUri": "https://example.com/view.html"}}},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return counter(), nil, nil
		})

	sdk.AddTool(s, &sdk.Tool{Name: "big_show", Description: "a view over 2 MiB", Annotations: ro,
		Meta: sdk.Meta{"ui": map[string]any{"resourceUri": "ui://kit/big.html"}}},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return counter(), nil, nil
		})

	page := func(uri, mimeType, html string, meta sdk.Meta) {
		s.AddResource(&sdk.Resource{URI: uri, Name: uri, MIMEType: mimeType},
			func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
				return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: mimeType, Text: html, Meta: meta}}}, nil
			})
	}
	good := sdk.Meta{"ui": map[string]any{
		"csp": map[string]any{
			"connectDomains":  []string{"https://api.example.com", "wss://live.example.com:8443"},
			"resourceDomains": []string{"https://*.cdn.example.com", "http://localhost:5173"},
		},
		"permissions":   map[string]any{"camera": map[string]any{}, "clipboardWrite": map[string]any{}, "teleport": map[string]any{}},
		"prefersBorder": true,
	}}
	page("ui://kit/view.html", "text/html;profile=mcp-app", UIPage, good)
	s.AddResource(&sdk.Resource{URI: "ui://kit/blob.html", Name: "blob", MIMEType: "text/html; profile=MCP-App"},
		func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: "ui://kit/blob.html", MIMEType: "text/html; profile=MCP-App", Blob: []byte(UIPage)}}}, nil
		})
	page("ui://kit/big.html", "text/html;profile=mcp-app", strings.Repeat("x", 2<<20+1), nil)
	page("ui://kit/exact.html", "text/html;profile=mcp-app", strings.Repeat("y", 2<<20), nil)
	page("ui://kit/text.html", "text/plain", "just text", nil)
	for k, v := range BadCSP {
		page("ui://kit/csp-"+k+".html", "text/html;profile=mcp-app", UIPage, sdk.Meta{"ui": map[string]any{"csp": map[string]any{"connectDomains": []string{"https://ok.example.com", v}}}})
	}
	s.AddResource(&sdk.Resource{URI: "ui://kit/two.html", Name: "two", MIMEType: "text/html;profile=mcp-app"},
		func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			one := &sdk.ResourceContents{URI: "ui://kit/two.html", MIMEType: "text/html;profile=mcp-app", Text: UIPage}
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{one, one}}, nil
		})
	return s
}

// BadCSP are CSP entries a view may not declare, by the key of their
// resource ui://kit/csp-<key>.html.
var BadCSP = map[string]string{
	"star":       "*",
	"inject":     "https://a.com; script-src *",
	"unsafe":     "'unsafe-eval'",
	"data":       "data:",
	"path":       "https://a.com/path",
	"http":       "http://example.com",
	"space":      "https://a.com https://b.com",
	"quote":      "'self'",
	"javascript": "javascript:alert(1)",
}

// ServeUI serves UIServer over streamable HTTP on 127.0.0.1 and returns its
// MCP URL; close stops it. Each session has its own counter.
func ServeUI() (url string, close func()) {
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return UIServer() }, nil)
	srv := httptest.NewServer(h)
	return srv.URL + "/mcp", srv.Close
}
