package model

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/openworker/desktop/harness/internal/jsonenc"
)

// anthropicProvider streams Anthropic Messages.
//
// Mapping of the history:
//   - Request.System is the system parameter.
//   - An Assistant message becomes text and tool_use blocks. Arguments that
//     are not a JSON object (the model wrote malformed JSON) are sent back as
//     the input {} because the API accepts only objects; the tool result
//     that refused them tells the model what was wrong.
//   - A ToolRole message becomes a tool_result block (is_error when IsError,
//     text and image blocks as its content). Consecutive tool results, and
//     user text right after them, are merged into one user message, as the
//     API requires; empty messages are dropped (the API rejects them).
//   - MaxTokens is Request.MaxTokens or 4096.
//
// Each Stream is exactly one HTTP attempt (retries disabled, docs/turns.md).
type anthropicProvider struct {
	cfg Config
	svc anthropic.MessageService
}

func newAnthropic(c Config) *anthropicProvider {
	// A service built directly, not through anthropic.NewClient, reads no
	// ANTHROPIC_* variables or profile files: FromEnv already decided.
	opts := []option.RequestOption{
		option.WithBaseURL(c.BaseURL),
		option.WithHTTPClient(c.HTTPClient),
		option.WithMaxRetries(0),
	}
	if c.APIKey != "" {
		opts = append(opts, option.WithAPIKey(c.APIKey))
	}
	return &anthropicProvider{cfg: c, svc: anthropic.NewMessageService(opts...)}
}

func (p *anthropicProvider) Name() string { return ProviderAnthropic }

// ModelName is the model requests ask for (Config.Model).
func (p *anthropicProvider) ModelName() string { return p.cfg.Model }

func (p *anthropicProvider) Describe() string {
	return fmt.Sprintf("anthropic %s model %s", RedactURL(p.cfg.BaseURL), p.cfg.Model)
}

// CheckToolName enforces ^[a-zA-Z0-9_-]{1,64}$ (Anthropic tool names).
func (p *anthropicProvider) CheckToolName(alias string) error {
	return checkToolName(ProviderAnthropic, alias)
}

func (p *anthropicProvider) Stream(ctx context.Context, req Request, onText func(string)) (Response, error) {
	params, err := p.params(req)
	if err != nil {
		return Response{}, err
	}
	stream := p.svc.NewStreaming(ctx, params)
	defer stream.Close()

	r := anthropicReader{p: p, onText: onText}
	for err == nil && stream.Next() {
		err = r.event(stream.Current())
	}
	if ctx.Err() != nil {
		return Response{}, ctx.Err()
	}
	if err == nil {
		err = stream.Err()
	}
	if err != nil {
		return Response{}, p.fail(err)
	}
	if !r.stopped {
		return Response{}, p.fail(errors.New("the stream ended before message_stop (connection closed early?)"))
	}
	r.resp.Text = r.col.text.String()
	r.resp.ToolCalls = r.col.toolCalls()
	return r.resp, nil
}

// anthropicReader folds the events of one stream into a Response: usage
// from message_start and message_delta, text and tool calls from the
// content blocks, and whether message_stop came.
type anthropicReader struct {
	p       *anthropicProvider
	onText  func(string)
	col     collector
	resp    Response
	stopped bool
}

func (r *anthropicReader) event(ev anthropic.MessageStreamEventUnion) error {
	switch ev.Type {
	case "message_start":
		r.resp.InputTokens = ev.Message.Usage.InputTokens
		r.resp.OutputTokens = ev.Message.Usage.OutputTokens
	case "content_block_start":
		return r.p.blockStart(&r.col, ev, r.onText)
	case "content_block_delta":
		return r.delta(ev)
	case "message_delta":
		r.messageDelta(ev)
	case "message_stop":
		r.stopped = true
	}
	return nil
}

// delta adds a content block's text or tool-input JSON.
func (r *anthropicReader) delta(ev anthropic.MessageStreamEventUnion) error {
	switch ev.Delta.Type {
	case "text_delta":
		if err := r.col.addText(ev.Delta.Text); err != nil {
			return err
		}
		if r.onText != nil && ev.Delta.Text != "" {
			r.onText(ev.Delta.Text)
		}
	case "input_json_delta":
		cb, err := r.col.call(ev.Index, "")
		if err != nil {
			return err
		}
		return r.col.addArgs(cb, ev.Delta.PartialJSON)
	}
	return nil
}

// messageDelta takes the stop reason and the usage counts that are set.
func (r *anthropicReader) messageDelta(ev anthropic.MessageStreamEventUnion) {
	if ev.Delta.StopReason != "" {
		r.resp.StopReason = string(ev.Delta.StopReason)
	}
	if ev.Usage.OutputTokens != 0 {
		r.resp.OutputTokens = ev.Usage.OutputTokens
	}
	if ev.Usage.InputTokens != 0 {
		r.resp.InputTokens = ev.Usage.InputTokens
	}
}

func (p *anthropicProvider) blockStart(col *collector, ev anthropic.MessageStreamEventUnion, onText func(string)) error {
	b := ev.ContentBlock
	switch b.Type {
	case "text":
		if b.Text == "" {
			return nil
		}
		if err := col.addText(b.Text); err != nil {
			return err
		}
		if onText != nil {
			onText(b.Text)
		}
	case "tool_use":
		cb, err := col.call(ev.Index, b.ID)
		if err != nil {
			return err
		}
		if err := col.addName(cb, b.Name); err != nil {
			return err
		}
		// Streaming sends input {} here and the JSON in deltas; a compatible
		// server may instead send the whole input here.
		if in, ok := b.Input.(map[string]any); ok && len(in) > 0 {
			raw, _ := jsonenc.Marshal(in)
			if err := col.grow(len(raw)); err != nil {
				return err
			}
			cb.fallback = string(raw)
		}
	}
	return nil
}

// fail turns an SDK, network or limit error into a RequestError.
func (p *anthropicProvider) fail(err error) error {
	status, detail := 0, ""
	var apiErr *anthropic.Error
	if errors.As(err, &apiErr) {
		status = apiErr.StatusCode
		if status == 200 {
			status = 0 // an error event inside a stream that started fine
		}
		detail = apiErr.Message
		if detail == "" {
			detail = apiErr.RawJSON()
		}
	}
	return requestError(ProviderAnthropic, p.cfg.BaseURL, p.cfg.Model, p.cfg.APIKey, status, detail, err)
}

// params maps a Request onto Messages parameters (see the type doc).
func (p *anthropicProvider) params(req Request) (anthropic.MessageNewParams, error) {
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(p.cfg.Model),
		MaxTokens: DefaultAnthropicMaxTokens,
	}
	if req.MaxTokens > 0 {
		params.MaxTokens = int64(req.MaxTokens)
	}
	if req.System != "" {
		params.System = []anthropic.TextBlockParam{{Text: req.System}}
	}
	msgs, err := anthropicMessages(req.Messages)
	params.Messages = msgs
	if err != nil {
		return params, err
	}
	params.Tools, err = p.tools(req.Tools)
	return params, err
}

// anthropicMessages maps the history onto user and assistant messages,
// merging consecutive blocks of one role (see the type doc).
func anthropicMessages(history []Message) ([]anthropic.MessageParam, error) {
	var msgs anthropicHistory
	for i, m := range history {
		var blocks []anthropic.ContentBlockParamUnion
		switch m.Role {
		case User:
			if m.Text != "" {
				blocks = append(blocks, anthropic.NewTextBlock(m.Text))
			}
			for _, img := range m.Images {
				blocks = append(blocks, anthropic.NewImageBlockBase64(imageMIME(img), base64.StdEncoding.EncodeToString(img.Data)))
			}
			msgs.add(true, blocks)
		case Assistant:
			if m.Text != "" {
				blocks = append(blocks, anthropic.NewTextBlock(m.Text))
			}
			for _, tc := range m.ToolCalls {
				blocks = append(blocks, anthropic.NewToolUseBlock(tc.ID, toolInput(tc.Arguments), tc.Name))
			}
			msgs.add(false, blocks)
		case ToolRole:
			msgs.add(true, []anthropic.ContentBlockParamUnion{anthropicToolResult(m)})
		default:
			return msgs, fmt.Errorf("model: message %d has unknown role %q (want user, assistant or tool)", i, m.Role)
		}
	}
	return msgs, nil
}

// anthropicHistory is the messages being built; add keeps roles alternating.
type anthropicHistory []anthropic.MessageParam

// add appends blocks to the last message when it has the same role (the
// API wants roles to alternate), else starts a new message; no blocks, no
// message (the API rejects empty ones).
func (h *anthropicHistory) add(user bool, blocks []anthropic.ContentBlockParamUnion) {
	if len(blocks) == 0 {
		return
	}
	if n := len(*h); n > 0 {
		last := &(*h)[n-1]
		if user && last.OfUser != nil {
			last.OfUser.Content = append(last.OfUser.Content, blocks...)
			return
		}
		if !user && last.OfAssistant != nil {
			last.OfAssistant.Content = append(last.OfAssistant.Content, blocks...)
			return
		}
	}
	if user {
		*h = append(*h, anthropic.NewUserMessage(blocks...))
	} else {
		*h = append(*h, anthropic.NewAssistantMessage(blocks...))
	}
}

// tools maps the tool specs onto tool parameters, checking each name.
func (p *anthropicProvider) tools(specs []ToolSpec) ([]anthropic.ToolUnionParam, error) {
	var tools []anthropic.ToolUnionParam
	for _, t := range specs {
		if err := p.CheckToolName(t.Name); err != nil {
			return tools, err
		}
		schema, err := schemaMap(t)
		if err != nil {
			return tools, err
		}
		tp := anthropic.ToolParam{Name: t.Name, InputSchema: inputSchema(schema)}
		if t.Description != "" {
			tp.Description = anthropic.String(t.Description)
		}
		tools = append(tools, anthropic.ToolUnionParam{OfTool: &tp})
	}
	return tools, nil
}

func anthropicToolResult(m Message) anthropic.ContentBlockParamUnion {
	r := anthropic.ToolResultBlockParam{ToolUseID: m.ToolCallID}
	if m.IsError {
		r.IsError = anthropic.Bool(true)
	}
	if m.Text != "" {
		r.Content = append(r.Content, anthropic.ToolResultBlockParamContentUnion{OfText: &anthropic.TextBlockParam{Text: m.Text}})
	}
	for _, img := range m.Images {
		r.Content = append(r.Content, anthropic.ToolResultBlockParamContentUnion{OfImage: &anthropic.ImageBlockParam{
			Source: anthropic.ImageBlockParamSourceUnion{OfBase64: &anthropic.Base64ImageSourceParam{
				Data:      base64.StdEncoding.EncodeToString(img.Data),
				MediaType: anthropic.Base64ImageSourceMediaType(imageMIME(img)),
			}},
		}})
	}
	return anthropic.ContentBlockParamUnion{OfToolResult: &r}
}

// toolInput is the tool_use input for arguments the model wrote: the JSON
// object itself, or {} when they are not a JSON object.
func toolInput(args string) json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(args), &obj) != nil || obj == nil {
		return json.RawMessage(`{}`)
	}
	return json.RawMessage(args)
}

// inputSchema splits a JSON Schema object into the SDK's typed fields.
func inputSchema(schema map[string]any) anthropic.ToolInputSchemaParam {
	s := anthropic.ToolInputSchemaParam{ExtraFields: map[string]any{}}
	for k, v := range schema {
		switch k {
		case "type":
			// always "object"
		case "properties":
			s.Properties = v
		case "required":
			if list, ok := v.([]any); ok {
				for _, r := range list {
					if name, ok := r.(string); ok {
						s.Required = append(s.Required, name)
					}
				}
			}
		default:
			s.ExtraFields[k] = v
		}
	}
	if s.Properties == nil {
		s.Properties = map[string]any{}
	}
	return s
}

func imageMIME(img Image) string {
	if img.MIMEType == "" {
		return "image/png"
	}
	return img.MIMEType
}
