// Package mcptest holds real MCP servers (go-sdk) for tests. ResultsServer
// shows what a tool result becomes (docs/mcp.md#results): every content
// block kind, structured content with and without text, and structured
// content that breaks its outputSchema. SecretServer echoes a secret into
// everything a server supplies, to show none of it gets through
// (docs/mcp.md#secrets). Tests serve them over stdio from a re-executed
// test binary (Serve, ServeSecret) or over streamable HTTP on 127.0.0.1
// (sdk handler).
package mcptest

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTML is the text with markup the tools send, to show it arrives as sent
// ("<b>", not "\u003cb\u003e").
const HTML = `<b>bold</b> & "quoted"`

// Resource texts and sizes the "blocks" tool sends.
const (
	EmbeddedText = "line 1 of notes.txt\n<i>line 2</i>"
	BlobBytes    = 300
	AudioBytes   = 44
	LinkSize     = 2048
)

// PNG is the image the "blocks" tool sends: a real 2×2 PNG.
var PNG = func() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}()

// ItemsSchema is the outputSchema of the tools that return {"items":[...]}:
// each item an object with a string name of at most 8 characters and an
// integer count of at least 0; "total" is required.
const ItemsSchema = `{"type":"object","properties":{"items":{"type":"array","items":{"type":"object",` +
	`"properties":{"name":{"type":"string","maxLength":8},"count":{"type":"integer","minimum":0}},"required":["name"]}},` +
	`"total":{"type":"integer"}},"required":["items","total"]}`

// Tools lists the tools of ResultsServer with what each returns.
var Tools = map[string]string{
	"text_html":          "one text block: HTML",
	"blocks":             "text, image, audio, resource link, embedded text and blob resources",
	"structured_only":    "structuredContent {\"html\":HTML} and no content block; outputSchema given",
	"structured_as_text": "structuredContent and a text block that is its JSON (the spec's backward-compatible form)",
	"structured_note":    "structuredContent and a text block that is not its JSON",
	"structured_link":    "structuredContent and a resource link, no text block",
	"structured_items":   "valid structuredContent for ItemsSchema",
	"bad_items":          "structuredContent that breaks ItemsSchema in three places",
	"missing_structured": "only text, though its outputSchema is ItemsSchema",
	"error_bad_items":    "isError with structuredContent that breaks ItemsSchema (not checked)",
	"unusable_schema":    "an outputSchema with a remote $ref (cannot be used)",
	"ecma_pattern":       "an outputSchema whose pattern needs lookahead (not checked); a matching value",
	"no_schema":          "structuredContent and no outputSchema (passed through)",
}

// ResultsServer returns the server; every tool is read-only and takes {}.
func ResultsServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "results", Version: "1.0.0"}, nil)
	add := func(name string, outputSchema string, res func() *sdk.CallToolResult) {
		t := &sdk.Tool{Name: name, Description: Tools[name], InputSchema: json.RawMessage(`{"type":"object"}`),
			Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}}
		if outputSchema != "" {
			t.OutputSchema = json.RawMessage(outputSchema)
		}
		s.AddTool(t, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return res(), nil })
	}
	text := func(s string) *sdk.TextContent { return &sdk.TextContent{Text: s} }
	size := int64(LinkSize)
	add("text_html", "", func() *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{text(HTML)}}
	})
	add("blocks", "", func() *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{
			text("Here is everything:"),
			&sdk.ImageContent{MIMEType: "image/png", Data: PNG},
			&sdk.AudioContent{MIMEType: "audio/wav", Data: bytes.Repeat([]byte{1}, AudioBytes)},
			&sdk.ResourceLink{URI: "file:///srv/report.pdf", Name: "report.pdf", Title: "Q3 <report>", Description: "the quarterly report",
				MIMEType: "application/pdf", Size: &size},
			&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "file:///srv/notes.txt", MIMEType: "text/plain", Text: EmbeddedText}},
			&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "file:///srv/data.bin", MIMEType: "application/octet-stream", Blob: bytes.Repeat([]byte{7}, BlobBytes)}},
		}}
	})
	htmlSchema := `{"type":"object","properties":{"html":{"type":"string"}},"required":["html"]}`
	add("structured_only", htmlSchema, func() *sdk.CallToolResult {
		return &sdk.CallToolResult{StructuredContent: map[string]any{"html": HTML}}
	})
	add("structured_as_text", htmlSchema, func() *sdk.CallToolResult {
		return &sdk.CallToolResult{StructuredContent: map[string]any{"html": HTML},
			Content: []sdk.Content{text(`{"html": "<b>bold</b> & \"quoted\""}`)}}
	})
	add("structured_note", htmlSchema, func() *sdk.CallToolResult {
		return &sdk.CallToolResult{StructuredContent: map[string]any{"html": HTML}, Content: []sdk.Content{text("The page title is bold.")}}
	})
	add("structured_link", htmlSchema, func() *sdk.CallToolResult {
		return &sdk.CallToolResult{StructuredContent: map[string]any{"html": HTML},
			Content: []sdk.Content{&sdk.ResourceLink{URI: "https://example.test/page", Name: "page", MIMEType: "text/html"}}}
	})
	add("structured_items", ItemsSchema, func() *sdk.CallToolResult {
		return &sdk.CallToolResult{StructuredContent: map[string]any{"items": []any{map[string]any{"name": "apples", "count": 3}}, "total": 3}}
	})
	add("bad_items", ItemsSchema, func() *sdk.CallToolResult {
		return &sdk.CallToolResult{StructuredContent: map[string]any{"items": []any{
			map[string]any{"name": "pears", "count": 1},
			map[string]any{"name": "watermelons", "count": 1.5},
		}}}
	})
	add("missing_structured", ItemsSchema, func() *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{text("3 apples")}}
	})
	add("error_bad_items", ItemsSchema, func() *sdk.CallToolResult {
		return &sdk.CallToolResult{IsError: true, StructuredContent: map[string]any{"items": "none"},
			Content: []sdk.Content{text("the inventory is offline")}}
	})
	add("unusable_schema", `{"$ref":"https://schemas.example.test/items.json"}`, func() *sdk.CallToolResult {
		return &sdk.CallToolResult{StructuredContent: map[string]any{"items": []any{}, "total": 0}}
	})
	add("ecma_pattern", `{"type":"object","properties":{"id":{"type":"string","pattern":"^(?!tmp-)[a-z-]+$"}}}`, func() *sdk.CallToolResult {
		return &sdk.CallToolResult{StructuredContent: map[string]any{"id": "tmp-file"}}
	})
	add("no_schema", "", func() *sdk.CallToolResult {
		return &sdk.CallToolResult{StructuredContent: map[string]any{"anything": []any{1, "<two>"}}}
	})
	return s
}

// Serve runs ResultsServer on stdin and stdout until stdin closes.
func Serve(ctx context.Context) error {
	return ResultsServer().Run(ctx, &sdk.StdioTransport{})
}
