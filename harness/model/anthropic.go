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

	var col collector
	var resp Response
	stopped := false
	for err == nil && stream.Next() {
		ev := stream.Current()
		switch ev.Type {
		case "message_start":
			resp.InputTokens = ev.Message.Usage.InputTokens
			resp.OutputTokens = ev.Message.Usage.OutputTokens
		case "content_block_start":
			err = p.blockStart(&col, ev, onText)
		case "content_block_delta":
			switch ev.Delta.Type {
			case "text_delta":
				if err = col.addText(ev.Delta.Text); err == nil && onText != nil && ev.Delta.Text != "" {
					onText(ev.Delta.Text)
				}
			case "input_json_delta":
				var cb *callBuilder
				if cb, err = col.call(ev.Index, ""); err == nil {
					err = col.addArgs(cb, ev.Delta.PartialJSON)
				}
			}
		case "message_delta":
			if ev.Delta.StopReason != "" {
				resp.StopReason = string(ev.Delta.StopReason)
			}
			if ev.Usage.OutputTokens != 0 {
				resp.OutputTokens = ev.Usage.OutputTokens
			}
			if ev.Usage.InputTokens != 0 {
				resp.InputTokens = ev.Usage.InputTokens
			}
		case "message_stop":
			stopped = true
		}
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
	if !stopped {
		return Response{}, p.fail(errors.New("the stream ended before message_stop (connection closed early?)"))
	}
	resp.Text = col.text.String()
	resp.ToolCalls = col.toolCalls()
	return resp, nil
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
	// add appends blocks to the last message when it has the same role
	// (the API wants roles to alternate), else starts a new message.
	add := func(user bool, blocks []anthropic.ContentBlockParamUnion) {
		if len(blocks) == 0 {
			return
		}
		if n := len(params.Messages); n > 0 {
			last := &params.Messages[n-1]
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
			params.Messages = append(params.Messages, anthropic.NewUserMessage(blocks...))
		} else {
			params.Messages = append(params.Messages, anthropic.NewAssistantMessage(blocks...))
		}
	}
	for i, m := range req.Messages {
		var blocks []anthropic.ContentBlockParamUnion
		switch m.Role {
		case User:
			if m.Text != "" {
				blocks = append(blocks, anthropic.NewTextBlock(m.Text))
			}
			for _, img := range m.Images {
				blocks = append(blocks, anthropic.NewImageBlockBase64(imageMIME(img), base64.StdEncoding.EncodeToString(img.Data)))
			}
			add(true, blocks)
		case Assistant:
			if m.Text != "" {
				blocks = append(blocks, anthropic.NewTextBlock(m.Text))
			}
			for _, tc := range m.ToolCalls {
				blocks = append(blocks, anthropic.NewToolUseBlock(tc.ID, toolInput(tc.Arguments), tc.Name))
			}
			add(false, blocks)
		case ToolRole:
			add(true, []anthropic.ContentBlockParamUnion{anthropicToolResult(m)})
		default:
			return params, fmt.Errorf("model: message %d has unknown role %q (want user, assistant or tool)", i, m.Role)
		}
	}
	for _, t := range req.Tools {
		if err := p.CheckToolName(t.Name); err != nil {
			return params, err
		}
		schema, err := schemaMap(t)
		if err != nil {
			return params, err
		}
		tp := anthropic.ToolParam{Name: t.Name, InputSchema: inputSchema(schema)}
		if t.Description != "" {
			tp.Description = anthropic.String(t.Description)
		}
		params.Tools = append(params.Tools, anthropic.ToolUnionParam{OfTool: &tp})
	}
	return params, nil
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
