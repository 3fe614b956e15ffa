package model

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// openAIProvider streams Chat Completions from any OpenAI-compatible
// endpoint (OpenAI, Ollama, LM Studio, llama.cpp server, vLLM).
//
// Mapping of the history (the API has no other place for these):
//   - Request.System becomes one leading "system" message.
//   - A ToolRole message becomes a "tool" message with tool_call_id; when
//     IsError is set its content is prefixed with "error: ", since Chat
//     Completions has no error flag.
//   - Tool messages cannot carry images, so the images of a run of
//     consecutive tool messages follow that run in one "user" message: for
//     each result a text part "Images returned by tool call ID (NAME):" and
//     its images as image_url parts with data: URLs.
//   - Request.MaxTokens is sent as max_completion_tokens to api.openai.com
//     and as max_tokens elsewhere (what compatible servers understand).
//
// Each Stream is exactly one HTTP attempt: retries are disabled, because the
// harness counts attempts against the turn budget (docs/turns.md).
type openAIProvider struct {
	cfg Config
	svc openai.ChatCompletionService
}

func newOpenAI(c Config) *openAIProvider {
	// A service built directly, not through openai.NewClient, reads no
	// OPENAI_* variables: FromEnv already decided everything.
	svc := openai.NewChatCompletionService(
		option.WithBaseURL(c.BaseURL),
		option.WithAPIKey(c.APIKey),
		option.WithHTTPClient(c.HTTPClient),
		option.WithMaxRetries(0),
	)
	return &openAIProvider{cfg: c, svc: svc}
}

func (p *openAIProvider) Name() string { return ProviderOpenAI }

// ModelName is the model requests ask for (Config.Model).
func (p *openAIProvider) ModelName() string { return p.cfg.Model }

func (p *openAIProvider) Describe() string {
	return fmt.Sprintf("openai-compatible %s model %s", RedactURL(p.cfg.BaseURL), p.cfg.Model)
}

// CheckToolName enforces ^[a-zA-Z0-9_-]{1,64}$ (OpenAI function names).
func (p *openAIProvider) CheckToolName(alias string) error {
	return checkToolName(ProviderOpenAI, alias)
}

func (p *openAIProvider) Stream(ctx context.Context, req Request, onText func(string)) (Response, error) {
	params, err := p.params(req)
	if err != nil {
		return Response{}, err
	}
	stream := p.svc.NewStreaming(ctx, params)
	defer stream.Close()

	var col collector
	var resp Response
	for stream.Next() {
		chunk := stream.Current()
		if chunk.Usage.PromptTokens != 0 || chunk.Usage.CompletionTokens != 0 {
			resp.InputTokens, resp.OutputTokens = chunk.Usage.PromptTokens, chunk.Usage.CompletionTokens
		}
		for _, ch := range chunk.Choices {
			if ch.Index != 0 {
				continue // we never ask for n > 1
			}
			if err = p.addDelta(&col, ch.Delta, onText); err != nil {
				break
			}
			if ch.FinishReason != "" {
				resp.StopReason = ch.FinishReason
			}
		}
		if err != nil {
			break
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
	if resp.StopReason == "" {
		return Response{}, p.fail(errors.New("the stream ended before the model finished (no finish_reason; connection closed early?)"))
	}
	resp.Text = col.text.String()
	resp.ToolCalls = col.toolCalls()
	return resp, nil
}

func (p *openAIProvider) addDelta(col *collector, d openai.ChatCompletionChunkChoiceDelta, onText func(string)) error {
	for _, s := range []string{d.Content, d.Refusal} {
		if s == "" {
			continue
		}
		if err := col.addText(s); err != nil {
			return err
		}
		if onText != nil {
			onText(s)
		}
	}
	for _, tc := range d.ToolCalls {
		cb, err := col.call(tc.Index, tc.ID)
		if err != nil {
			return err
		}
		if err := col.addName(cb, tc.Function.Name); err != nil {
			return err
		}
		if err := col.addArgs(cb, tc.Function.Arguments); err != nil {
			return err
		}
	}
	return nil
}

// fail turns an SDK, network or limit error into a RequestError.
func (p *openAIProvider) fail(err error) error {
	status, detail := 0, ""
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		status = apiErr.StatusCode
		detail = apiErr.Message
		if detail == "" {
			detail = apiErr.RawJSON()
		}
	}
	return requestError(ProviderOpenAI, p.cfg.BaseURL, p.cfg.Model, p.cfg.APIKey, status, detail, err)
}

// params maps a Request onto Chat Completions parameters (see the type doc).
func (p *openAIProvider) params(req Request) (openai.ChatCompletionNewParams, error) {
	params := openai.ChatCompletionNewParams{
		Model:         shared.ChatModel(p.cfg.Model),
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	if req.MaxTokens > 0 {
		if u, err := url.Parse(p.cfg.BaseURL); err == nil && u.Hostname() == "api.openai.com" {
			params.MaxCompletionTokens = openai.Int(int64(req.MaxTokens))
		} else {
			params.MaxTokens = openai.Int(int64(req.MaxTokens))
		}
	}
	if req.System != "" {
		params.Messages = append(params.Messages, openai.SystemMessage(req.System))
	}
	msgs, err := openAIMessages(params.Messages, req.Messages)
	params.Messages = msgs
	if err != nil {
		return params, err
	}
	params.Tools, err = p.tools(req.Tools)
	return params, err
}

// openAIMessages appends the history to out (see the type doc).
func openAIMessages(out []openai.ChatCompletionMessageParamUnion, msgs []Message) ([]openai.ChatCompletionMessageParamUnion, error) {
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		switch m.Role {
		case User:
			out = append(out, openAIUser(m.Text, m.Images))
		case Assistant:
			out = append(out, openAIAssistant(m))
		case ToolRole:
			var n int
			out, n = openAIToolRun(out, msgs[i:])
			i += n - 1
		default:
			return out, fmt.Errorf("model: message %d has unknown role %q (want user, assistant or tool)", i, m.Role)
		}
	}
	return out, nil
}

// openAIToolRun appends the run of tool messages msgs starts with, then
// their images in one user message (tool messages carry text only); it
// returns how many messages the run was.
func openAIToolRun(out []openai.ChatCompletionMessageParamUnion, msgs []Message) ([]openai.ChatCompletionMessageParamUnion, int) {
	var images []openai.ChatCompletionContentPartUnionParam
	n := 0
	for ; n < len(msgs) && msgs[n].Role == ToolRole; n++ {
		t := msgs[n]
		text := t.Text
		if t.IsError {
			text = "error: " + text
		}
		out = append(out, openai.ToolMessage(text, t.ToolCallID))
		if len(t.Images) > 0 {
			images = append(images, openai.TextContentPart(fmt.Sprintf("Images returned by tool call %s (%s):", t.ToolCallID, t.ToolName)))
			images = append(images, openAIImages(t.Images)...)
		}
	}
	if len(images) > 0 {
		out = append(out, openai.UserMessage(images))
	}
	return out, n
}

// tools maps the tool specs onto function tools, checking each name.
func (p *openAIProvider) tools(specs []ToolSpec) ([]openai.ChatCompletionToolUnionParam, error) {
	var tools []openai.ChatCompletionToolUnionParam
	for _, t := range specs {
		if err := p.CheckToolName(t.Name); err != nil {
			return tools, err
		}
		schema, err := schemaMap(t)
		if err != nil {
			return tools, err
		}
		fn := shared.FunctionDefinitionParam{Name: t.Name, Parameters: shared.FunctionParameters(schema)}
		if t.Description != "" {
			fn.Description = openai.String(t.Description)
		}
		tools = append(tools, openai.ChatCompletionFunctionTool(fn))
	}
	return tools, nil
}

func openAIUser(text string, images []Image) openai.ChatCompletionMessageParamUnion {
	if len(images) == 0 {
		return openai.UserMessage(text)
	}
	var parts []openai.ChatCompletionContentPartUnionParam
	if text != "" {
		parts = append(parts, openai.TextContentPart(text))
	}
	return openai.UserMessage(append(parts, openAIImages(images)...))
}

func openAIImages(images []Image) []openai.ChatCompletionContentPartUnionParam {
	parts := make([]openai.ChatCompletionContentPartUnionParam, 0, len(images))
	for _, img := range images {
		parts = append(parts, openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: dataURL(img)}))
	}
	return parts
}

func openAIAssistant(m Message) openai.ChatCompletionMessageParamUnion {
	var a openai.ChatCompletionAssistantMessageParam
	if m.Text != "" || len(m.ToolCalls) == 0 {
		a.Content.OfString = openai.String(m.Text)
	}
	for _, tc := range m.ToolCalls {
		a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
			OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
				ID: tc.ID,
				Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
					Name:      tc.Name,
					Arguments: tc.Arguments, // sent back exactly as the model wrote it
				},
			},
		})
	}
	return openai.ChatCompletionMessageParamUnion{OfAssistant: &a}
}

// dataURL encodes an image as a data: URL ("data:image/png;base64,...").
func dataURL(img Image) string {
	return "data:" + imageMIME(img) + ";base64," + base64.StdEncoding.EncodeToString(img.Data)
}

// schemaMap decodes a tool's input schema into a JSON object; an empty
// schema means "no parameters".
func schemaMap(t ToolSpec) (map[string]any, error) {
	if len(strings.TrimSpace(string(t.InputSchema))) == 0 {
		return map[string]any{"type": "object", "properties": map[string]any{}}, nil
	}
	var m map[string]any
	if err := json.Unmarshal(t.InputSchema, &m); err != nil || m == nil {
		return nil, fmt.Errorf("model: tool %q: input schema is not a JSON object: %v", t.Name, err)
	}
	return m, nil
}
