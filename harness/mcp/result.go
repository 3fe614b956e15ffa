package mcp

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/internal/jsonenc"
	"github.com/openworker/desktop/harness/tool"
)

// normalize turns a tools/call result into a tool.Output, as docs/mcp.md
// (Results) describes it, with the server's secrets replaced by r in every
// string (docs/mcp.md#secrets), and also returns structuredContent as the
// server sent it, for the outputSchema check:
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
// A block whose annotations name only the user as its audience
// (docs/mcp.md#audience) is in Content with Audience "user" (its image
// in Images, which tool.Output.ModelImages leaves out), and the model
// reads only "[KIND content for the user only, not shown to you]" in its
// place; one that names only the assistant has Audience "assistant".
//
// Adjacent text blocks are redacted together (redactor.texts): a secret
// split across them is redacted in each. Binary data (audio, blobs, image
// pixels) never reaches the journal and is not redacted; audio and blobs
// never reach the model either, only their size does. The result bound
// (256 KB, docs/limits.md) is the harness's.
func normalize(res *sdk.CallToolResult, r redactor) (out tool.Output, structured json.RawMessage) {
	structured = structuredJSON(res)
	if structured != nil {
		out.Structured = r.json(structured)
	}
	texts := redactTexts(res.Content, r)
	var parts []string
	modelTexts := 0 // text blocks the model reads
	for i, c := range res.Content {
		aud := audience(c)
		var b tool.Block
		switch c := c.(type) {
		case *sdk.TextContent:
			if aud != tool.AudienceUser && structured != nil && sameJSON(structured, c.Text) {
				parts = append(parts, string(out.Structured))
				modelTexts++
				continue
			}
			b = tool.Block{Type: tool.BlockText, Text: texts[i]}
		case *sdk.ImageContent:
			mime := r.text(c.MIMEType)
			b = tool.Block{Type: tool.BlockImage, MIMEType: mime, Bytes: int64(len(c.Data))}
			out.Images = append(out.Images, tool.Image{MIMEType: mime, Data: c.Data}) // ModelImages leaves out the user's
		default: // described to the model by its kind, size and name
			b = describedBlock(c, r)
		}
		b.Audience = aud
		out.Content = append(out.Content, b)
		if part, ok := modelPart(b); ok {
			parts = append(parts, part)
			if aud != tool.AudienceUser && b.Type == tool.BlockText {
				modelTexts++
			}
		}
	}
	if out.Structured != nil && modelTexts == 0 {
		parts = append(parts, string(out.Structured))
	}
	// Each part is redacted; this catches a secret that spans parts of
	// other kinds too (a secret with a "\n" across two lines).
	out.Text = r.text(strings.Join(parts, "\n"))
	if out.Text == string(out.Structured) {
		out.Text = ""
	}
	return out, structured
}

// structuredJSON is the result's structured content as JSON, or nil for
// none (or a null).
func structuredJSON(res *sdk.CallToolResult) json.RawMessage {
	if res.StructuredContent == nil {
		return nil
	}
	b, err := jsonenc.Marshal(res.StructuredContent)
	if err != nil || string(b) == "null" {
		return nil
	}
	return b
}

// modelPart is what the model reads of block b in the result's text: its
// text, its description, or a note that the person's own block was there;
// ok is false for an image the model gets as an image.
func modelPart(b tool.Block) (part string, ok bool) {
	switch {
	case b.Audience == tool.AudienceUser: // the person's only: the model learns that there was one
		return fmt.Sprintf("[%s content for the user only, not shown to you]", b.Type), true
	case b.Type == tool.BlockText:
		return b.Text, true
	case b.Type != tool.BlockImage:
		return describe(b), true
	}
	return "", false
}

// describedBlock is the block of content that reaches the model only as
// a description (describe): audio, a resource link, an embedded resource,
// a kind the harness does not know; its texts redacted by r.
func describedBlock(c sdk.Content, r redactor) tool.Block {
	switch c := c.(type) {
	case *sdk.AudioContent:
		return tool.Block{Type: tool.BlockAudio, MIMEType: r.text(c.MIMEType), Bytes: int64(len(c.Data))}
	case *sdk.ResourceLink:
		b := tool.Block{Type: tool.BlockResourceLink, URI: r.text(c.URI), Name: r.text(c.Name), Title: r.text(c.Title),
			Description: r.text(c.Description), MIMEType: r.text(c.MIMEType)}
		if c.Size != nil && *c.Size > 0 {
			b.Bytes = *c.Size
		}
		return b
	case *sdk.EmbeddedResource:
		b := tool.Block{Type: tool.BlockResource}
		if res := c.Resource; res != nil {
			b.URI, b.MIMEType, b.Text, b.Bytes = r.text(res.URI), r.text(res.MIMEType), r.text(res.Text), int64(len(res.Blob))
		}
		return b
	}
	return tool.Block{Type: contentType(c)}
}

// audience is whom block c is meant for (docs/mcp.md#audience):
// tool.AudienceUser when its annotations name the user and not the
// assistant, tool.AudienceAssistant for the reverse, "" otherwise (no
// annotations, both, or neither).
func audience(c sdk.Content) string {
	var a *sdk.Annotations
	switch c := c.(type) {
	case *sdk.TextContent:
		a = c.Annotations
	case *sdk.ImageContent:
		a = c.Annotations
	case *sdk.AudioContent:
		a = c.Annotations
	case *sdk.ResourceLink:
		a = c.Annotations
	case *sdk.EmbeddedResource:
		a = c.Annotations
	}
	if a == nil {
		return ""
	}
	user, assistant := slices.Contains(a.Audience, "user"), slices.Contains(a.Audience, "assistant")
	switch {
	case user && !assistant:
		return tool.AudienceUser
	case assistant && !user:
		return tool.AudienceAssistant
	}
	return ""
}

// redactTexts redacts the text blocks of content, each run of adjacent
// ones together (redactor.texts); an image block between two text blocks
// does not part them, since it adds nothing to the model's text. The
// result is indexed like content, and empty when content has no text
// block.
func redactTexts(content []sdk.Content, r redactor) map[int]string {
	out := map[int]string{}
	var run []int
	flush := func() {
		ts := make([]string, len(run))
		for k, i := range run {
			ts[k] = content[i].(*sdk.TextContent).Text
		}
		for k, t := range r.texts(ts) {
			out[run[k]] = t
		}
		run = run[:0]
	}
	for i, c := range content {
		switch c.(type) {
		case *sdk.TextContent:
			run = append(run, i)
		case *sdk.ImageContent:
		default:
			flush()
		}
	}
	flush()
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
