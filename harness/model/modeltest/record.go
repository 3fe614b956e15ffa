package modeltest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/openworker/desktop/harness/model"
)

// RecordedRequest is one model request as the server understood it, in a
// shape common to both APIs.
type RecordedRequest struct {
	Kind Kind
	Path string
	// APIKey is the bearer token (Authorization) or x-api-key header value.
	APIKey    string
	Model     string
	Stream    bool
	MaxTokens int
	// System is the Anthropic system parameter, or the text of the OpenAI
	// system/developer messages joined by a blank line.
	System string
	Tools  []RecordedTool
	// Messages are the conversation without OpenAI system messages.
	Messages []RecordedMessage
	// Body is the raw request body.
	Body json.RawMessage
	// Reply is the index of the scripted reply served, or -1 when none was left.
	Reply int
	// ParseError is set when the body could not be understood; the request
	// was then answered with HTTP 400.
	ParseError string
}

// RecordedTool is one tool offered to the model.
type RecordedTool struct {
	Name        string
	Description string
	Schema      json.RawMessage // OpenAI parameters / Anthropic input_schema
}

// RecordedMessage is one message of the conversation.
type RecordedMessage struct {
	Role   string // "user", "assistant" or "tool" (OpenAI only)
	Text   string // all text parts joined by "\n"
	Images []RecordedImage
	// ToolCalls are an assistant's tool_calls (OpenAI) or tool_use blocks
	// (Anthropic, Arguments being the input JSON).
	ToolCalls []model.ToolCall
	// ToolCallID is an OpenAI "tool" message's tool_call_id.
	ToolCallID string
	// ToolResults are Anthropic tool_result blocks; an OpenAI "tool" message
	// has exactly one (never IsError: that API has no such flag).
	ToolResults []RecordedToolResult
}

// RecordedToolResult is one tool result as the model saw it.
type RecordedToolResult struct {
	ToolCallID string // tool_call_id / tool_use_id
	Text       string
	IsError    bool
	Images     []RecordedImage
}

// RecordedImage is a decoded image attachment (data: URL or base64 source).
type RecordedImage struct {
	MIMEType string
	Data     []byte
}

// ToolNames returns the names of the tools offered, in order.
func (r RecordedRequest) ToolNames() []string {
	names := make([]string, len(r.Tools))
	for i, t := range r.Tools {
		names[i] = t.Name
	}
	return names
}

// ToolResults returns every tool result in the conversation, in order.
func (r RecordedRequest) ToolResults() []RecordedToolResult {
	var out []RecordedToolResult
	for _, m := range r.Messages {
		out = append(out, m.ToolResults...)
	}
	return out
}

// LastMessage returns the last message, or the zero message when there is none.
func (r RecordedRequest) LastMessage() RecordedMessage {
	if len(r.Messages) == 0 {
		return RecordedMessage{}
	}
	return r.Messages[len(r.Messages)-1]
}

// wire shapes shared by both APIs, loose enough for either.
type wireRequest struct {
	Model               string          `json:"model"`
	Stream              bool            `json:"stream"`
	MaxTokens           int             `json:"max_tokens"`
	MaxCompletionTokens int             `json:"max_completion_tokens"`
	System              json.RawMessage `json:"system"`
	Messages            []wireMessage   `json:"messages"`
	Tools               []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"input_schema"`
		Function    *struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
	StreamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

type wireMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// wireBlock is an OpenAI content part or an Anthropic content block.
type wireBlock struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	ImageURL struct {
		URL string `json:"url"`
	} `json:"image_url"`
	Source struct {
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
	} `json:"source"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
	Content   json.RawMessage `json:"content"`
}

// parseRequest turns a body into a RecordedRequest; wire is returned too
// for the reply writers (stream flag, stream_options).
func parseRequest(kind Kind, r *http.Request, body []byte) (RecordedRequest, wireRequest, error) {
	rec := RecordedRequest{Kind: kind, Path: r.URL.Path, Body: json.RawMessage(body)}
	rec.APIKey = strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	if k := r.Header.Get("X-Api-Key"); k != "" {
		rec.APIKey = k
	}
	var w wireRequest
	if err := json.Unmarshal(body, &w); err != nil {
		return rec, w, fmt.Errorf("request body is not JSON: %v", err)
	}
	rec.Model, rec.Stream, rec.MaxTokens = w.Model, w.Stream, w.MaxTokens
	if w.MaxCompletionTokens != 0 {
		rec.MaxTokens = w.MaxCompletionTokens
	}
	rec.Tools = w.recordedTools()
	if len(w.System) > 0 {
		text, _, _, err := parseContent(w.System)
		if err != nil {
			return rec, w, fmt.Errorf("system: %v", err)
		}
		rec.System = text
	}
	msgs, system, err := recordMessages(w.Messages)
	rec.Messages = msgs
	if err != nil {
		return rec, w, err
	}
	if len(system) > 0 {
		rec.System = strings.Join(system, "\n\n")
	}
	return rec, w, nil
}

// recordedTools reads the tools in either API's shape (OpenAI's function
// or Anthropic's name and input_schema).
func (w wireRequest) recordedTools() []RecordedTool {
	var tools []RecordedTool
	for _, t := range w.Tools {
		if t.Function != nil {
			tools = append(tools, RecordedTool{Name: t.Function.Name, Description: t.Function.Description, Schema: t.Function.Parameters})
		} else {
			tools = append(tools, RecordedTool{Name: t.Name, Description: t.Description, Schema: t.InputSchema})
		}
	}
	return tools
}

// recordMessages reads the messages; the texts of OpenAI system and
// developer messages are returned apart, as system.
func recordMessages(wire []wireMessage) (msgs []RecordedMessage, system []string, err error) {
	for i, m := range wire {
		text, images, blocks, err := parseContent(m.Content)
		if err != nil {
			return msgs, system, fmt.Errorf("messages[%d]: %v", i, err)
		}
		if m.Role == "system" || m.Role == "developer" {
			system = append(system, text)
			continue
		}
		rm, err := m.record(text, images, blocks)
		if err != nil {
			return msgs, system, fmt.Errorf("messages[%d] tool_result: %v", i, err)
		}
		msgs = append(msgs, rm)
	}
	return msgs, system, nil
}

// record builds the RecordedMessage of a message whose content parsed to
// text, images and blocks: OpenAI tool_calls and tool messages, Anthropic
// tool_use and tool_result blocks. The error is a tool_result's content.
func (m wireMessage) record(text string, images []RecordedImage, blocks []wireBlock) (RecordedMessage, error) {
	rm := RecordedMessage{Role: m.Role, Text: text, Images: images, ToolCallID: m.ToolCallID}
	for _, tc := range m.ToolCalls {
		rm.ToolCalls = append(rm.ToolCalls, model.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	if m.Role == "tool" {
		rm.ToolResults = []RecordedToolResult{{ToolCallID: m.ToolCallID, Text: text, Images: images}}
	}
	for _, b := range blocks {
		switch b.Type {
		case "tool_use":
			rm.ToolCalls = append(rm.ToolCalls, model.ToolCall{ID: b.ID, Name: b.Name, Arguments: string(b.Input)})
		case "tool_result":
			rt, rimg, _, err := parseContent(b.Content)
			if err != nil {
				return rm, err
			}
			rm.ToolResults = append(rm.ToolResults, RecordedToolResult{ToolCallID: b.ToolUseID, Text: rt, IsError: b.IsError, Images: rimg})
		}
	}
	return rm, nil
}

// parseContent reads a string or an array of parts/blocks, returning the
// joined text, the images and the blocks themselves.
func parseContent(raw json.RawMessage) (string, []RecordedImage, []wireBlock, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil, nil, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil, nil, nil
	}
	var blocks []wireBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return "", nil, nil, fmt.Errorf("content is neither a string nor an array of parts: %v", err)
	}
	var texts []string
	var images []RecordedImage
	for _, b := range blocks {
		switch b.Type {
		case "text":
			texts = append(texts, b.Text)
		case "image_url":
			img, err := decodeDataURL(b.ImageURL.URL)
			if err != nil {
				return "", nil, nil, err
			}
			images = append(images, img)
		case "image":
			data, err := base64.StdEncoding.DecodeString(b.Source.Data)
			if err != nil {
				return "", nil, nil, fmt.Errorf("image source data is not base64: %v", err)
			}
			images = append(images, RecordedImage{MIMEType: b.Source.MediaType, Data: data})
		}
	}
	return strings.Join(texts, "\n"), images, blocks, nil
}

func decodeDataURL(u string) (RecordedImage, error) {
	rest, ok := strings.CutPrefix(u, "data:")
	meta, data, ok2 := strings.Cut(rest, ",")
	mime, isB64 := strings.CutSuffix(meta, ";base64")
	if !ok || !ok2 || !isB64 {
		return RecordedImage{}, fmt.Errorf("image_url %.40q is not a base64 data: URL", u)
	}
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return RecordedImage{}, fmt.Errorf("image_url data is not base64: %v", err)
	}
	return RecordedImage{MIMEType: mime, Data: b}, nil
}
