// Package model talks to language-model providers: any OpenAI-compatible
// Chat Completions endpoint (through github.com/openai/openai-go/v3) and
// Anthropic Messages (through github.com/anthropics/anthropic-sdk-go/v2),
// both streaming (docs/turns.md).
//
// A Provider turns a Request (system text, history, tools under their model
// aliases) into a Response (text and tool calls), reporting text deltas as
// they arrive. It never runs tools; the harness does.
//
//	cfg := model.FromEnv(model.Config{Provider: "openai"}, os.Getenv)
//	p, err := model.New(cfg)
//	resp, err := p.Stream(ctx, model.Request{System: "...", Messages: history, Tools: specs},
//		func(delta string) { fmt.Print(delta) })
//
// Behaviour common to both providers:
//   - One Stream is one HTTP attempt: the SDKs' retries are off, because the
//     harness counts attempts against the turn budget (docs/turns.md). Stream has
//     no timeout of its own; the caller's context bounds it.
//   - Failures other than the caller's context are *RequestError values
//     whose message names the base URL and model and never the API key
//     (the key is scrubbed even from server messages that echo it).
//   - Tool calls are assembled from their streamed pieces by index; their
//     Arguments are returned as the model wrote them, even when they are not
//     valid JSON (empty arguments become "{}"). A response may hold up to
//     MaxToolCalls calls and MaxResponseBytes of text and arguments; past
//     that Stream fails with ErrResponseTooLarge.
//   - A stream that ends without the provider's end marker (finish_reason,
//     message_stop) is an error, never a silently truncated answer.
//
// OpenAI-compatible endpoints cannot put images in "tool" messages: the
// images of a run of tool results follow it in one user message, and an
// IsError result's text is prefixed with "error: " (Chat Completions has no
// error flag). Anthropic gets tool_result blocks with is_error and image
// blocks, consecutive results merged into one user message.
//
// Package modeltest serves scripted models on 127.0.0.1 for tests.
package model

import (
	"context"
	"encoding/json"
)

// Role of a message in the history.
type Role string

const (
	User      Role = "user"
	Assistant Role = "assistant"
	ToolRole  Role = "tool" // a tool result answering one ToolCall
)

// Image is an image attachment for a tool result or user message.
type Image struct {
	MIMEType string // "image/png" or "image/jpeg"
	Data     []byte
}

// ToolCall is one call the model asked for. Name is the model alias
// ("device__battery_status_get"); Arguments is the JSON text exactly as the
// model sent it, which may be malformed.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Message is one entry of the history.
//
// A User message has Text (and maybe Images). An Assistant message has Text
// and/or ToolCalls. A ToolRole message answers the call ToolCallID with Text,
// IsError when the call failed or was refused, and maybe Images.
type Message struct {
	Role       Role       `json:"role"`
	Text       string     `json:"text,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	ToolName   string     `json:"tool_name,omitempty"` // alias of the answered call
	IsError    bool       `json:"is_error,omitempty"`
	Images     []Image    `json:"-"`
}

// ToolSpec is a tool as the model sees it: its alias, description and input
// schema (a JSON Schema object).
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// Request is one provider attempt.
type Request struct {
	System    string // instructions, skills and model_context facts
	Messages  []Message
	Tools     []ToolSpec
	MaxTokens int // 0 means the provider default (4096 for Anthropic)
}

// Response is the model's complete answer to one attempt.
type Response struct {
	Text       string
	ToolCalls  []ToolCall
	StopReason string // as the provider reported it ("stop", "tool_calls", "end_turn", ...)
	// InputTokens and OutputTokens are the usage the provider reported, or 0.
	InputTokens, OutputTokens int64
}

// Provider streams one attempt. Stream calls onText with each text delta as
// it arrives (onText may be nil) and returns the whole response. It returns
// promptly with ctx.Err() when ctx is cancelled. Implementations are safe
// for concurrent use.
type Provider interface {
	// Name is "openai" or "anthropic".
	Name() string
	// Describe says where requests go, e.g. "openai-compatible http://127.0.0.1:11434/v1 model llama3.2";
	// it never includes a key.
	Describe() string
	// CheckToolName reports whether an alias fits the provider's tool-name
	// rules (OpenAI and Anthropic: ^[a-zA-Z0-9_-]{1,64}$).
	CheckToolName(alias string) error
	Stream(ctx context.Context, req Request, onText func(delta string)) (Response, error)
}

// NameOf is the model p asks for (Config.Model) when p says it (the
// providers of New do), else its Describe text.
func NameOf(p Provider) string {
	if n, ok := p.(interface{ ModelName() string }); ok {
		return n.ModelName()
	}
	return p.Describe()
}
