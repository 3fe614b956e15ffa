package mcp

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/internal/jsonenc"
	"github.com/openworker/desktop/harness/tool"
)

// normalize turns a tools/call result into a tool.Output, as docs/mcp.md
// (Results) describes it:
//
//   - Structured: structuredContent, encoded by jsonenc (no HTML escaping);
//   - Content: every block, in the server's order (a text block that only
//     repeats structuredContent as JSON is left out: Structured holds it);
//   - Images: the image blocks' bytes;
//   - Text: what the model reads: the blocks in order, joined with "\n":
//     a text block as it is; an audio block, a resource link and an
//     embedded resource as a bracketed line naming its URI, name, MIME type
//     and size; an embedded text resource followed by its text; a text
//     block that repeats structuredContent as the structured JSON; images
//     not at all (the model gets them as images). When no block is text,
//     structuredContent's JSON comes last. Text that is exactly the
//     structured JSON is left empty: the model then reads Structured
//     (tool.Output.ModelText), and the result bound counts it once.
//
// Binary data (audio, blobs) never reaches the model or the journal; its
// size does. The result bound (256 KB, docs/limits.md) is the harness's.
func normalize(res *sdk.CallToolResult) tool.Output {
	var out tool.Output
	if res.StructuredContent != nil {
		if b, err := jsonenc.Marshal(res.StructuredContent); err == nil && string(b) != "null" {
			out.Structured = b
		}
	}
	var parts []string
	texts := 0
	for _, c := range res.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			texts++
			if out.Structured != nil && sameJSON(out.Structured, c.Text) {
				parts = append(parts, string(out.Structured))
				continue
			}
			out.Content = append(out.Content, tool.Block{Type: tool.BlockText, Text: c.Text})
			parts = append(parts, c.Text)
		case *sdk.ImageContent:
			out.Content = append(out.Content, tool.Block{Type: tool.BlockImage, MIMEType: c.MIMEType, Bytes: int64(len(c.Data))})
			out.Images = append(out.Images, tool.Image{MIMEType: c.MIMEType, Data: c.Data})
		case *sdk.AudioContent:
			b := tool.Block{Type: tool.BlockAudio, MIMEType: c.MIMEType, Bytes: int64(len(c.Data))}
			out.Content = append(out.Content, b)
			parts = append(parts, describe(b))
		case *sdk.ResourceLink:
			b := tool.Block{Type: tool.BlockResourceLink, URI: c.URI, Name: c.Name, Title: c.Title, Description: c.Description, MIMEType: c.MIMEType}
			if c.Size != nil && *c.Size > 0 {
				b.Bytes = *c.Size
			}
			out.Content = append(out.Content, b)
			parts = append(parts, describe(b))
		case *sdk.EmbeddedResource:
			b := tool.Block{Type: tool.BlockResource}
			if r := c.Resource; r != nil {
				b.URI, b.MIMEType, b.Text, b.Bytes = r.URI, r.MIMEType, r.Text, int64(len(r.Blob))
			}
			out.Content = append(out.Content, b)
			parts = append(parts, describe(b))
		default:
			b := tool.Block{Type: contentType(c)}
			out.Content = append(out.Content, b)
			parts = append(parts, describe(b))
		}
	}
	if out.Structured != nil && texts == 0 {
		parts = append(parts, string(out.Structured))
	}
	out.Text = strings.Join(parts, "\n")
	if out.Text == string(out.Structured) {
		out.Text = ""
	}
	return out
}

// describe is the text the model reads for a block other than text and
// image (docs/mcp.md#results).
func describe(b tool.Block) string {
	var s strings.Builder
	switch b.Type {
	case tool.BlockAudio:
		fmt.Fprintf(&s, "[audio %s, %d bytes, not shown]", b.MIMEType, b.Bytes)
	case tool.BlockResourceLink:
		fmt.Fprintf(&s, "[resource link %s %s", b.URI, strconv.Quote(b.Name))
		if b.Title != "" {
			fmt.Fprintf(&s, ", title %s", strconv.Quote(b.Title))
		}
		if b.MIMEType != "" {
			fmt.Fprintf(&s, ", MIME type %s", b.MIMEType)
		}
		if b.Bytes > 0 {
			fmt.Fprintf(&s, ", %d bytes", b.Bytes)
		}
		if b.Description != "" {
			fmt.Fprintf(&s, ", description %s", strconv.Quote(b.Description))
		}
		s.WriteString("]")
	case tool.BlockResource:
		if b.URI == "" && b.MIMEType == "" && b.Text == "" && b.Bytes == 0 {
			return "[embedded resource, empty]"
		}
		fmt.Fprintf(&s, "[embedded resource %s", b.URI)
		if b.MIMEType != "" {
			fmt.Fprintf(&s, ", MIME type %s", b.MIMEType)
		}
		if b.Bytes > 0 {
			fmt.Fprintf(&s, ", %d bytes, not shown]", b.Bytes)
			return s.String()
		}
		s.WriteString("]")
		if b.Text != "" {
			s.WriteString("\n" + b.Text)
		}
	default:
		fmt.Fprintf(&s, "[%s content, not shown]", b.Type)
	}
	return s.String()
}

// contentType names a block kind the model is not given (a sampling
// tool_use or tool_result block in a tools/call result).
func contentType(c sdk.Content) string {
	switch c.(type) {
	case *sdk.ToolUseContent:
		return "tool_use"
	case *sdk.ToolResultContent:
		return "tool_result"
	}
	return fmt.Sprintf("%T", c)
}

// sameJSON reports whether text is a JSON serialization of the value in b.
func sameJSON(b json.RawMessage, text string) bool {
	t := strings.TrimSpace(text)
	if t == "" || (b[0] == '{' || b[0] == '[') && t[0] != b[0] { // cheap: most text is no JSON
		return false
	}
	var x, y any
	if json.Unmarshal(b, &x) != nil || json.Unmarshal([]byte(t), &y) != nil {
		return false
	}
	bx, _ := jsonenc.Marshal(x)
	by, _ := jsonenc.Marshal(y)
	return string(bx) == string(by)
}
