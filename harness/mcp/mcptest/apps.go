package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// UIExtension is the identifier of the MCP Apps extension
// (docs/mcp-apps.md#capability), the key a host declares under
// capabilities.extensions.
const UIExtension = "io.modelcontextprotocol/ui"

// AppMIME is the MIME type of an MCP Apps page (docs/mcp-apps.md#resources).
const AppMIME = "text/html;profile=mcp-app"

// The ui:// resources of AppServer.
const (
	CounterViewURI = "ui://counter/view.html" // the good page: the real ext-apps App client and a Bump button
	HostileViewURI = "ui://hostile/view.html" // hand-written postMessage JSON-RPC trying every refusal
	BigViewURI     = "ui://big/view.html"     // BigViewBytes of HTML, over the 2 MB bound
	TextViewURI    = "ui://text/view.html"    // mime text/plain, not a page
	BadCSPViewURI  = "ui://badcsp/view.html"  // a connectDomains entry that injects CSP
)

// BigViewBytes is the size of BigViewURI's page: 2.5 MiB, over the host's
// 2 MiB bound (docs/mcp-apps.md#resources).
const BigViewBytes = 5 << 19

// BadCSPOrigin is the connectDomains entry of BadCSPViewURI: it would
// close connect-src and open script-src to everything if pasted into a
// policy (docs/mcp-apps.md#csp).
const BadCSPOrigin = "*; script-src *"

// CounterConnectOrigin is the one origin the counter page declares
// (connectDomains), so a host lists it under the view; the page never
// connects to it.
const CounterConnectOrigin = "https://api.example.com"

// AppTools lists the tools of AppServer with what each does.
var AppTools = map[string]string{
	"counter_show": "read-only; shows the counter (view " + CounterViewURI + "); returns {\"count\":N} and \"Count: N\"",
	"counter_bump": "a non-idempotent write: adds `by` (default 1) to the counter; returns {\"count\":N}; the counter view's Bump button calls it, with `seen` the count it showed",
	"secret_peek":  "read-only; returns a secret; selected by no test coworker, the hostile view calls it",
	"hostile_show": "read-only; view " + HostileViewURI + ", which floods, calls secret_peek, navigates the top window and opens pop-ups",
	"big_show":     "read-only; view " + BigViewURI + ", over 2 MB",
	"text_show":    "read-only; view " + TextViewURI + ", whose mime type is text/plain",
	"badcsp_show":  "read-only; view " + BadCSPViewURI + ", whose csp.connectDomains holds " + BadCSPOrigin,
	"client_caps":  "read-only; returns the calling client's capabilities as structured content ({\"capabilities\":…,\"ui\":{…}|null})",
}

// Secret is what secret_peek returns: a test that finds it in a place the
// hostile view could write to (a model request, a journal row of a
// refused call) has found a leak.
const Secret = "peeked-7c1d-secret"

// AppServer is an MCP server with MCP Apps tools and their ui:// resources
// (docs/mcp-apps.md), for the harness tests and the app's e2e block
// (scripts/e2e/14-mcp-apps.sh); AppTools lists the tools. appClient is the
// ext-apps View-side App client, bundled (app-with-deps.js, an ES module:
// LoadAppClient reads it); the counter page inlines it. The counter is
// the server's own (one per process), starting at 0.
func AppServer(appClient []byte) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "apps", Version: "1.0.0"}, nil)
	var mu sync.Mutex
	count := 0
	counted := func(n int) *sdk.CallToolResult {
		return &sdk.CallToolResult{StructuredContent: map[string]any{"count": n},
			Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprintf("Count: %d", n)}}}
	}
	ro := func() *sdk.ToolAnnotations { return &sdk.ToolAnnotations{ReadOnlyHint: true} }
	empty := json.RawMessage(`{"type":"object"}`)
	withView := func(uri string) sdk.Meta { return sdk.Meta{"ui": map[string]any{"resourceUri": uri}} }
	add := func(t *sdk.Tool, h sdk.ToolHandler) {
		t.Description = AppTools[t.Name]
		if t.InputSchema == nil {
			t.InputSchema = empty
		}
		s.AddTool(t, h)
	}

	add(&sdk.Tool{Name: "counter_show", Annotations: ro(), Meta: withView(CounterViewURI),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"count":{"type":"integer"}},"required":["count"]}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			mu.Lock()
			defer mu.Unlock()
			return counted(count), nil
		})
	no := false
	add(&sdk.Tool{Name: "counter_bump", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: false, IdempotentHint: false, DestructiveHint: &no, OpenWorldHint: &no},
		InputSchema: json.RawMessage(`{"type":"object","properties":{"by":{"type":"integer","minimum":1,"maximum":100,"default":1},"seen":{"type":"integer","description":"the count the view showed when Bump was pressed (the view sends it; the tool ignores it)"}},"additionalProperties":false}`)},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			args := struct{ By *int }{}
			if len(req.Params.Arguments) > 0 {
				if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
					return nil, fmt.Errorf("counter_bump: arguments: %w", err)
				}
			}
			by := 1
			if args.By != nil {
				by = *args.By
			}
			mu.Lock()
			defer mu.Unlock()
			count += by
			return counted(count), nil
		})
	add(&sdk.Tool{Name: "secret_peek", Annotations: ro()}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return text(Secret), nil
	})
	for name, uri := range map[string]string{"hostile_show": HostileViewURI, "big_show": BigViewURI, "text_show": TextViewURI, "badcsp_show": BadCSPViewURI} {
		add(&sdk.Tool{Name: name, Annotations: ro(), Meta: withView(uri)}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text(name + ": the view is " + uri), nil
		})
	}
	add(&sdk.Tool{Name: "client_caps", Annotations: ro()}, func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return clientCaps(req.ClientCapabilities())
	})

	for _, v := range appViews(appClient) {
		v := v
		s.AddResource(&sdk.Resource{URI: v.uri, Name: v.name, MIMEType: v.mime, Size: int64(len(v.body)), Meta: v.meta},
			func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
				return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: v.uri, MIMEType: v.mime, Text: v.body, Meta: v.meta}}}, nil
			})
	}
	return s
}

// clientCaps is client_caps' result: the capabilities the client sent
// (in initialize, or per request since MCP 2026-07-28) and, apart, the
// settings it declared for UIExtension (null when it declared none).
func clientCaps(caps *sdk.ClientCapabilities) (*sdk.CallToolResult, error) {
	if caps == nil {
		caps = &sdk.ClientCapabilities{}
	}
	raw, err := json.Marshal(caps)
	if err != nil {
		return nil, fmt.Errorf("client_caps: %w", err)
	}
	var ui any
	if caps.Extensions != nil {
		ui = caps.Extensions[UIExtension]
	}
	out := map[string]any{"capabilities": json.RawMessage(raw), "ui": ui}
	txt, _ := json.Marshal(out)
	return &sdk.CallToolResult{StructuredContent: out, Content: []sdk.Content{&sdk.TextContent{Text: string(txt)}}}, nil
}

// appView is one ui:// resource of AppServer.
type appView struct {
	uri, name, mime, body string
	meta                  sdk.Meta
}

// appViews are AppServer's resources: the pages of apps_pages.go with
// their _meta.ui (csp, permissions, prefersBorder).
func appViews(appClient []byte) []appView {
	ui := func(m map[string]any) sdk.Meta { return sdk.Meta{"ui": m} }
	return []appView{
		{CounterViewURI, "counter view", AppMIME, CounterPage(appClient),
			ui(map[string]any{"csp": map[string]any{"connectDomains": []string{CounterConnectOrigin}}, "prefersBorder": true})},
		{HostileViewURI, "hostile view", AppMIME, HostilePage(),
			ui(map[string]any{"csp": map[string]any{}, "permissions": map[string]any{"camera": map[string]any{}}})},
		{BigViewURI, "big view", AppMIME, BigPage(), ui(map[string]any{})},
		{TextViewURI, "text view", "text/plain", "This is plain text, not an MCP Apps page.\n", ui(map[string]any{})},
		{BadCSPViewURI, "bad csp view", AppMIME, simplePage("Bad CSP", "This page declares a connect origin that injects CSP."),
			ui(map[string]any{"csp": map[string]any{"connectDomains": []string{BadCSPOrigin}}})},
	}
}

// simplePage is a small static page with a title and one paragraph.
func simplePage(title, body string) string {
	return "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>" + title + "</title></head><body><p>" + body + "</p></body></html>\n"
}

// BigPage is BigViewURI's page: exactly BigViewBytes of HTML (a comment
// pads it).
func BigPage() string {
	head := simplePage("Big", "This page is over the 2 MB bound.")
	return head + "<!--" + strings.Repeat("x", BigViewBytes-len(head)-len("<!---->\n")) + "-->\n"
}

// ServeApps serves AppServer on stdin and stdout until ctx ends or stdin
// closes.
func ServeApps(ctx context.Context, appClient []byte) error {
	return AppServer(appClient).Run(ctx, &sdk.StdioTransport{})
}
