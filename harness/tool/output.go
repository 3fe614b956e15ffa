package tool

import (
	"context"
	"encoding/json"
	"fmt"
)

// Tool is a native tool: trusted host code the harness calls in-process.
//
// Call must be safe for concurrent sessions, must not block without watching
// ctx, and must return promptly when ctx is cancelled. It must not leave
// goroutines or child processes running after it returns. args is the JSON
// object the model sent, already validated against the input schema.
//
// Return a *ToolError for an expected failure the model may act on; any
// other error, a panic or a limit breach stops the turn (docs/partner-tools.md, docs/limits.md).
type Tool interface {
	Descriptor() Descriptor
	Call(ctx context.Context, c *Call, args json.RawMessage) (Output, error)
}

// ModelContexter is implemented by a tool that offers model-safe live facts.
// The harness calls it on every provider attempt, only for tools the coworker
// selected, with a 50 ms budget; a fact over 4 KB (16 KB for all tools
// together) is dropped with a journaled warning. Never return credentials,
// pixels or private control payloads.
type ModelContexter interface {
	ModelContext(sessionID string) json.RawMessage
}

// Revoker is implemented by a tool that holds live access per session (an
// app's consent, an open handle). Cancellation and session close always call
// Revoke.
type Revoker interface {
	Revoke(sessionID string)
}

// TurnFinisher is implemented by a tool that wants to decide what to keep at
// the end of a turn. A tool without it gets Revoke instead.
type TurnFinisher interface {
	TurnFinished(sessionID string, completed bool)
}

// Image is an ephemeral image attachment: PNG or JPEG bytes. The harness
// forwards it to the model only after rechecking consent, and journals only
// its digest and size.
type Image struct {
	MIMEType string `json:"mime_type"` // "image/png" or "image/jpeg"
	Data     []byte `json:"-"`
}

// Output is the result of a successful call.
//
// Structured is a JSON value (usually an object); Text is the form given to
// the model, derived from Structured when empty. Never put base64 images in
// Text: use Images. Structured and Text together are bounded to 256 KB, and
// so are the texts and names of Content (docs/limits.md).
//
// Content lists the result's blocks in the order the provider sent them,
// for a host to show (the app's tool cards) and for the journal; the model
// gets Text, Structured and Images, never Content. An MCP provider fills it
// (docs/mcp.md#results); a native tool may leave it nil.
type Output struct {
	Structured json.RawMessage `json:"structured,omitempty"`
	Text       string          `json:"text,omitempty"`
	Content    []Block         `json:"content,omitempty"`
	Images     []Image         `json:"-"`
}

// Block types: the content block kinds of MCP (docs/mcp.md#results).
const (
	BlockText         = "text"
	BlockImage        = "image"
	BlockAudio        = "audio"
	BlockResourceLink = "resource_link"
	BlockResource     = "resource" // an embedded resource
)

// Block is one content block of a result, as its provider sent it. It never
// holds pixels or other binary data: an image block stands for the Output's
// next Image (the n-th image block is Images[n]), and audio and binary
// resources are named with their MIME type and size only.
type Block struct {
	Type        string `json:"type"`                  // one of the Block constants; another kind the provider sent is kept by its name
	Text        string `json:"text,omitempty"`        // text: the text; resource: the embedded text
	URI         string `json:"uri,omitempty"`         // resource_link, resource
	Name        string `json:"name,omitempty"`        // resource_link
	Title       string `json:"title,omitempty"`       // resource_link
	Description string `json:"description,omitempty"` // resource_link
	MIMEType    string `json:"mime_type,omitempty"`   // image, audio, resource_link, resource
	// Bytes is the decoded size of an image, an audio clip or a binary
	// resource, and the size a resource link declares (0: not given).
	Bytes int64 `json:"bytes,omitempty"`
	// Audience is whom the provider meant the block for
	// (docs/mcp.md#audience): AudienceUser (the person only: never sent
	// to the model), AudienceAssistant (the model only: a host shows it
	// as secondary), or "" for both.
	Audience string `json:"audience,omitempty"`
}

// Block audiences (Block.Audience).
const (
	AudienceUser      = "user"
	AudienceAssistant = "assistant"
)

// ModelImages returns the images the model gets: Images without those of
// image blocks meant for the user only (Block.Audience).
func (o Output) ModelImages() []Image {
	var out []Image
	n := 0
	for _, b := range o.Content {
		if b.Type != BlockImage {
			continue
		}
		if n < len(o.Images) && b.Audience != AudienceUser {
			out = append(out, o.Images[n])
		}
		n++
	}
	if n == 0 { // a tool that sends Images without blocks for them
		return o.Images
	}
	return out
}

// Size is the number of bytes of text and names the block holds, as
// counted against the result bound (docs/limits.md): Text, URI, Name,
// Title, Description and MIMEType, except an image's MIME type (images
// have bounds of their own).
func (b Block) Size() int {
	n := len(b.Text) + len(b.URI) + len(b.Name) + len(b.Title) + len(b.Description)
	if b.Type != BlockImage {
		n += len(b.MIMEType)
	}
	return n
}

// ModelText returns the text the model sees: Text, or else Structured
// verbatim.
func (o Output) ModelText() string {
	if o.Text != "" {
		return o.Text
	}
	return string(o.Structured)
}

// ToolError is an expected, recoverable failure whose outcome the tool can
// describe honestly. It goes back to the model as an error result and does
// not stop the turn. Code is a short machine-readable word ("not_found");
// Message is safe to show the model and the user and holds no secrets.
type ToolError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *ToolError) Error() string {
	if e.Code == "" {
		return e.Message
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// Errorf returns a *ToolError with the given code and formatted message.
func Errorf(code, format string, args ...any) *ToolError {
	return &ToolError{Code: code, Message: fmt.Sprintf(format, args...)}
}
