package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/mcp/mcptest"
	"github.com/openworker/desktop/harness/tool"
)

// resultsProviders connects to mcptest.ResultsServer over stdio (this test
// binary, re-executed) and over streamable HTTP on 127.0.0.1, and lists
// each catalog once, as the harness does before any call.
func resultsProviders(t *testing.T) map[string]*Provider {
	t.Helper()
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return mcptest.ResultsServer() }, nil)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	out := map[string]*Provider{}
	for transport, cfg := range map[string]tool.MCPServer{
		"stdio": selfServer(t, "results", "results"),
		"http":  {Namespace: "results", Transport: tool.TransportStreamableHTTP, URL: srv.URL},
	} {
		p, err := Connect(context.Background(), cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		tools, err := p.ListTools(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(tools) != len(mcptest.Tools) {
			t.Fatalf("%s: %d tools listed, want %d", transport, len(tools), len(mcptest.Tools))
		}
		out[transport] = p
	}
	return out
}

// Every block kind of the spec reaches the model as docs/mcp.md (Results)
// says, and Content keeps each block for the app and the journal.
func TestResultBlocks(t *testing.T) {
	for transport, p := range resultsProviders(t) {
		t.Run(transport, func(t *testing.T) {
			ctx := context.Background()
			out, err := p.CallTool(ctx, "text_html", nil, nil)
			if err != nil || out.ModelText() != mcptest.HTML || out.Structured != nil {
				t.Errorf("text_html = %q / %s, %v; want the text as sent", out.ModelText(), out.Structured, err)
			}

			out, err = p.CallTool(ctx, "blocks", nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			wantText := strings.Join([]string{
				"Here is everything:",
				"[audio audio/wav, 44 bytes, not shown]",
				`[resource link file:///srv/report.pdf "report.pdf", title "Q3 <report>", MIME type application/pdf, 2048 bytes, description "the quarterly report"]`,
				"[embedded resource file:///srv/notes.txt, MIME type text/plain]\n" + mcptest.EmbeddedText,
				"[embedded resource file:///srv/data.bin, MIME type application/octet-stream, 300 bytes, not shown]",
			}, "\n")
			if d := cmp.Diff(wantText, out.ModelText()); d != "" {
				t.Errorf("blocks: the model's text (-want +got):\n%s", d)
			}
			wantContent := []tool.Block{
				{Type: tool.BlockText, Text: "Here is everything:"},
				{Type: tool.BlockImage, MIMEType: "image/png", Bytes: int64(len(mcptest.PNG))},
				{Type: tool.BlockAudio, MIMEType: "audio/wav", Bytes: mcptest.AudioBytes},
				{Type: tool.BlockResourceLink, URI: "file:///srv/report.pdf", Name: "report.pdf", Title: "Q3 <report>", Description: "the quarterly report",
					MIMEType: "application/pdf", Bytes: mcptest.LinkSize},
				{Type: tool.BlockResource, URI: "file:///srv/notes.txt", MIMEType: "text/plain", Text: mcptest.EmbeddedText},
				{Type: tool.BlockResource, URI: "file:///srv/data.bin", MIMEType: "application/octet-stream", Bytes: mcptest.BlobBytes},
			}
			if d := cmp.Diff(wantContent, out.Content); d != "" {
				t.Errorf("blocks: Content (-want +got):\n%s", d)
			}
			if len(out.Images) != 1 || !bytes.Equal(out.Images[0].Data, mcptest.PNG) {
				t.Errorf("blocks: %d images, want the PNG", len(out.Images))
			}
		})
	}
}

// structuredContent reaches the model as JSON without HTML escaping, once:
// alone when no block is text, after the other blocks' lines, and not at
// all beside a text block that says something else.
func TestResultStructured(t *testing.T) {
	const html = `{"html":"<b>bold</b> & \"quoted\""}`
	cases := []struct {
		tool, model string
		content     []tool.Block
	}{
		{"structured_only", html, nil},
		{"structured_as_text", html, nil}, // the text repeats the JSON: not twice
		{"structured_note", "The page title is bold.", []tool.Block{{Type: tool.BlockText, Text: "The page title is bold."}}},
		{"structured_link", `[resource link https://example.test/page "page", MIME type text/html]` + "\n" + html,
			[]tool.Block{{Type: tool.BlockResourceLink, URI: "https://example.test/page", Name: "page", MIMEType: "text/html"}}},
		{"no_schema", `{"anything":[1,"<two>"]}`, nil},
	}
	for transport, p := range resultsProviders(t) {
		for _, c := range cases {
			t.Run(transport+"/"+c.tool, func(t *testing.T) {
				out, err := p.CallTool(context.Background(), c.tool, nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				if out.ModelText() != c.model {
					t.Errorf("the model gets %q, want %q", out.ModelText(), c.model)
				}
				if c.tool != "no_schema" && string(out.Structured) != html {
					t.Errorf("Structured = %s, want %s", out.Structured, html)
				}
				if d := cmp.Diff(c.content, out.Content); d != "" {
					t.Errorf("Content (-want +got):\n%s", d)
				}
			})
		}
	}
}

// structuredContent is checked against the tool's outputSchema: a
// violation is a tool error naming the JSON Pointer and the rule; an error
// result is not checked; a schema that cannot be used fails the call.
func TestResultOutputSchema(t *testing.T) {
	cases := []struct {
		tool string
		code string
		want []string // parts of the message
	}{
		{"structured_items", "", nil},
		{"ecma_pattern", "", nil}, // a lookahead pattern is not checked
		{"bad_items", CodeOutputInvalid, []string{
			"structuredContent does not match the tool's outputSchema: ",
			"at the top level: required: missing property 'total'",
			"at /items/1/name: maxLength: ",
			"at /items/1/count: type: got number, want integer",
		}},
		{"missing_structured", CodeOutputInvalid, []string{"the tool declares an outputSchema but its result has no structuredContent"}},
		{"error_bad_items", "mcp_error", []string{"the inventory is offline"}},
		{"unusable_schema", CodeOutputInvalid, []string{"the tool's outputSchema cannot be used", `its $ref "https://schemas.example.test/items.json" is outside the schema; such a $ref is not followed`}},
	}
	for transport, p := range resultsProviders(t) {
		for _, c := range cases {
			t.Run(transport+"/"+c.tool, func(t *testing.T) {
				out, err := p.CallTool(context.Background(), c.tool, nil, nil)
				if c.code == "" {
					if err != nil {
						t.Fatalf("err = %v, want the result accepted", err)
					}
					return
				}
				var te *tool.ToolError
				if !errors.As(err, &te) || te.Code != c.code {
					t.Fatalf("err = %v, want a tool error %s", err, c.code)
				}
				mustContain(t, "message", te.Message, c.want...)
				if c.tool == "bad_items" && !json.Valid(out.Structured) {
					t.Errorf("the broken result is not kept for the journal: %s", out.Structured)
				}
			})
		}
	}
}

// A listing compiles each output schema once; a listing that lists it
// unchanged keeps the compiled one.
func TestOutputSchemaCompiledOncePerListing(t *testing.T) {
	p := resultsProviders(t)["stdio"]
	first := p.outputs.get("bad_items")
	if first == nil || first.schema == nil {
		t.Fatalf("bad_items has no compiled schema after a listing: %+v", first)
	}
	if p.outputs.get("text_html") != nil {
		t.Error("a tool without outputSchema has a schema")
	}
	if _, err := p.ListTools(context.Background()); err != nil {
		t.Fatal(err)
	}
	if again := p.outputs.get("bad_items"); again != first {
		t.Error("an unchanged outputSchema was compiled again")
	}
	p.outputs.set(map[string]json.RawMessage{"bad_items": json.RawMessage(`{"type":"object"}`)})
	if changed := p.outputs.get("bad_items"); changed == first || changed.schema == nil {
		t.Error("a changed outputSchema was not compiled anew")
	}
}

// A server's secret is redacted in the blocks as in Text.
func TestRedactorHidesSecretsInBlocks(t *testing.T) {
	r := newRedactor([]string{"tok-<secret>"})
	out, _ := normalize(&sdk.CallToolResult{
		StructuredContent: map[string]any{"a": "tok-<secret>"},
		Content: []sdk.Content{
			&sdk.ResourceLink{URI: "https://x.test/?k=tok-<secret>", Name: "tok-<secret>", Title: "t tok-<secret>", Description: "d tok-<secret>", MIMEType: "text/tok-<secret>"},
			&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "file:///tok-<secret>", MIMEType: "text/plain", Text: "tok-<secret>"}},
			&sdk.ImageContent{MIMEType: "image/tok-<secret>", Data: mcptest.PNG},
			&sdk.AudioContent{MIMEType: "audio/tok-<secret>", Data: []byte{1}},
		}}, r)
	b, _ := json.Marshal(out)
	if strings.Contains(string(b), "secret") {
		t.Errorf("a secret survives: %s", b)
	}
}

// Schemas in the drafts servers write (draft-07 from zod-to-json-schema,
// draft-04, 2020-12 by default) are checked by their own rules; a $ref to
// a file is never read.
func TestOutputSchemaDrafts(t *testing.T) {
	cases := []struct{ schema, value, want string }{
		{`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`, `{"n":"x"}`, "at /n: type: got string, want integer"},
		{`{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"n":{"maximum":3,"exclusiveMaximum":true}}}`, `{"n":3}`, "at /n: "},
		{`{"type":"object","properties":{"a":{"enum":["x","y"]}}}`, `{"a":"<z>"}`, "at /a: enum: "},
		{`{"type":"object","properties":{"a~b/c":{"const":1}}}`, `{"a~b/c":2}`, "at /a~0b~1c: const: "},
		{`{"$ref":"file:///etc/passwd"}`, `{}`, `its $ref "file:///etc/passwd" is outside the schema; such a $ref is not followed`},
		{`{"type":7}`, `{}`, "the tool's outputSchema cannot be used, so its result was not accepted: it is not a valid JSON Schema: at /type: "},
		{`{"enum":["` + strings.Repeat("é", 400) + `"]}`, `1`, "at the top level: enum: "},
	}
	for _, c := range cases {
		err := compileOutputSchema(json.RawMessage(c.schema)).check(json.RawMessage(c.value))
		var te *tool.ToolError
		if !errors.As(err, &te) || te.Code != CodeOutputInvalid || !strings.Contains(te.Message, c.want) {
			t.Errorf("schema %.80s, value %s: %v; want output_invalid saying %q", c.schema, c.value, err, c.want)
		}
		if te != nil && (len(te.Message) > 800 || !utf8.ValidString(te.Message)) {
			t.Errorf("message of %d bytes (valid UTF-8: %v); want at most 300 per rule", len(te.Message), utf8.ValidString(te.Message))
		}
	}
}
