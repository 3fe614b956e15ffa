package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/tool"
)

// Sampling (docs/mcp.md#sampling). A provider started with Use.Sampling
// (and Options.Sampling set) advertises the sampling capability, without
// its tools or context sub-capabilities; any other provider advertises
// none, and a server's sampling/createMessage gets "client does not
// support CreateMessage". A request goes to the Sampler of the call it
// belongs to (WithSampler on the ctx given to CallTool), found as a
// question is (elicit.go): the request's own ctx (multi round-trip), else
// the one running call of the provider. A request with tools, toolChoice
// or tool_use / tool_result content, or outside a running call, is refused
// with a JSON-RPC error before any Sampler is asked.

// Use says what one provider process is for: the workspace it offers as
// its root ("" for none, docs/mcp.md#roots) and whether it advertises
// sampling. A Manager runs one process per configuration and Use.
// NoRoot keeps Workspace the process's workspace (a sandbox's
// ${workspace}) but offers no root for it: the app's default workspace,
// a folder the person did not choose (docs/mcp.md#roots).
type Use struct {
	Workspace string
	NoRoot    bool
	Sampling  bool
}

// SampledMessage is one message of a sampling request, as shown to the
// person and sent to the model: Role "user" or "assistant", Text the
// text blocks (redacted), with a non-text block as a placeholder such as
// "[image image/png, 2.1 KB: not sent]".
type SampledMessage struct {
	Role string `json:"role"`
	Text string `json:"text"`
}

// Sampled is one sampling/createMessage request as a provider received it.
type Sampled struct {
	Namespace    string           `json:"namespace"`
	ServerName   string           `json:"server_name,omitempty"` // from the server's initialize answer, redacted
	Messages     []SampledMessage `json:"messages"`
	SystemPrompt string           `json:"system_prompt,omitempty"` // redacted
	MaxTokens    int64            `json:"max_tokens"`              // as the server asked
	Tools        int              `json:"tools,omitempty"`         // tools the request offered (it is refused)
}

// Sampling is the answer a Sampler gives: the model's text and name.
type Sampling struct {
	Text       string
	Model      string // the model that answered, e.g. "openai-compatible http://127.0.0.1:11434/v1 model llama3.2"
	StopReason string // MCP's "endTurn" or "maxTokens"
}

// Sampler answers the sampling requests of one tools/call; the harness
// puts one in the call's ctx. Sample blocks until the person decided and
// the model answered (ctx carries the call's bound); an error is sent to
// the server as the request's JSON-RPC error. Refused is told of a request
// refused before anyone saw it, and why.
type Sampler interface {
	Sample(ctx context.Context, q Sampled) (Sampling, error)
	Refused(q Sampled, why error)
}

// SamplingOptions turn on sampling for the providers a Manager starts
// with Use.Sampling.
type SamplingOptions struct {
	// Stray is told of a request no running call could be found for (why
	// says so); it was refused. May be nil.
	Stray func(q Sampled, why string)
}

// CodeSamplingRefused is the JSON-RPC error code of a refused or denied
// sampling request (MCP: -1, "user rejected sampling request").
const CodeSamplingRefused = -1

// ErrSamplingTools is the refusal of a sampling request that offers tools.
var ErrSamplingTools = errors.New("sampling requests with tools are not supported: openworker answers with the session's model and no tools; send the request without tools, toolChoice and tool_use/tool_result content")

type samplerKey struct{}

// WithSampler returns ctx carrying s, the Sampler of the call made with it.
func WithSampler(ctx context.Context, s Sampler) context.Context {
	return context.WithValue(ctx, samplerKey{}, s)
}

func samplerOf(ctx context.Context) Sampler {
	s, _ := ctx.Value(samplerKey{}).(Sampler)
	return s
}

// samplingHandler is the SDK's CreateMessageWithToolsHandler (so that a
// request's tools are seen and refused, not silently dropped), or nil.
func (p *Provider) samplingHandler(u Use) func(context.Context, *sdk.CreateMessageWithToolsRequest) (*sdk.CreateMessageWithToolsResult, error) {
	if !u.Sampling || p.opts.Sampling == nil {
		return nil
	}
	return p.onSample
}

// samplingCapability adds sampling, without tools or context, to caps.
func samplingCapability(caps *sdk.ClientCapabilities, u Use, o Options) *sdk.ClientCapabilities {
	if u.Sampling && o.Sampling != nil {
		caps.Sampling = &sdk.SamplingCapabilities{}
	}
	return caps
}

// Sampling reports whether the provider advertised sampling.
func (p *Provider) Sampling() bool { return p.use.Sampling && p.opts.Sampling != nil }

func (p *Provider) sampled(prm *sdk.CreateMessageWithToolsParams) (Sampled, error) {
	q := Sampled{Namespace: p.srv.Namespace, SystemPrompt: p.secrets.text(prm.SystemPrompt), MaxTokens: prm.MaxTokens, Tools: len(prm.Tools)}
	if c := p.conn.Load(); c != nil {
		q.ServerName = c.info.Name
	}
	var err error
	if len(prm.Tools) > 0 || prm.ToolChoice != nil {
		err = ErrSamplingTools
	}
	for _, m := range prm.Messages {
		if m == nil {
			continue
		}
		var text string
		for _, c := range m.Content {
			var part string
			switch c := c.(type) {
			case *sdk.TextContent:
				part = p.secrets.text(c.Text)
			case *sdk.ImageContent:
				part = fmt.Sprintf("[image %s, %d bytes: not sent]", c.MIMEType, len(c.Data))
			case *sdk.AudioContent:
				part = fmt.Sprintf("[audio %s, %d bytes: not sent]", c.MIMEType, len(c.Data))
			case *sdk.ToolUseContent, *sdk.ToolResultContent:
				err = ErrSamplingTools
				part = "[tool content: refused]"
			default:
				part = fmt.Sprintf("[%T: not sent]", c)
			}
			if text != "" {
				text += "\n"
			}
			text += part
		}
		q.Messages = append(q.Messages, SampledMessage{Role: string(m.Role), Text: text})
	}
	return q, err
}

// samplerFor finds the Sampler of the call a request belongs to and that
// call's ctx, as askerFor does.
func (p *Provider) samplerFor(ctx context.Context) (Sampler, context.Context, string) {
	if s := samplerOf(ctx); s != nil {
		return s, ctx, ""
	}
	cctx, why := p.running.only()
	if cctx == nil {
		return nil, nil, why
	}
	if s := samplerOf(cctx); s != nil {
		return s, cctx, ""
	}
	return nil, nil, "the running call has no one to answer sampling requests"
}

func refusal(msg string) error {
	return &jsonrpc.Error{Code: CodeSamplingRefused, Message: "openworker refused the sampling request: " + msg}
}

func (p *Provider) onSample(ctx context.Context, req *sdk.CreateMessageWithToolsRequest) (*sdk.CreateMessageWithToolsResult, error) {
	if req.Params == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "openworker refused the sampling request: it has no params"}
	}
	q, bad := p.sampled(req.Params)
	s, cctx, why := p.samplerFor(ctx)
	if s == nil {
		if st := p.opts.Sampling.Stray; st != nil {
			st(q, why)
		}
		return nil, refusal(why)
	}
	if bad != nil {
		s.Refused(q, bad)
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "openworker refused the sampling request: " + bad.Error()}
	}
	sctx := ctx
	if cctx != ctx { // ends with the server's request and with the call
		var cancel context.CancelFunc
		sctx, cancel = context.WithCancel(ctx)
		defer cancel()
		stop := context.AfterFunc(cctx, cancel)
		defer stop()
		if d, ok := cctx.Deadline(); ok {
			var cancel2 context.CancelFunc
			sctx, cancel2 = context.WithDeadline(sctx, d)
			defer cancel2()
		}
	}
	ans, err := s.Sample(sctx, q)
	if err != nil {
		return nil, refusal(err.Error())
	}
	stop := ans.StopReason
	if stop == "" {
		stop = "endTurn"
	}
	return &sdk.CreateMessageWithToolsResult{Content: []sdk.Content{&sdk.TextContent{Text: ans.Text}}, Model: ans.Model, Role: "assistant", StopReason: stop}, nil
}

// samplingNotOffered explains a call that failed because the server sent a
// sampling request within it (MCP 2026-07-28 input requests) although this
// process does not offer sampling: the coworker's manifest does not list
// the namespace under "sampling" (docs/mcp.md#sampling). go-sdk refuses
// such a request itself ("client does not support CreateMessage"), so no
// one was asked and the model was not called. nil for any other error.
func (p *Provider) samplingNotOffered(err error) *tool.ToolError {
	if p.Sampling() || !strings.Contains(err.Error(), `"sampling/createMessage"`) || !strings.Contains(err.Error(), "does not support CreateMessage") {
		return nil
	}
	ns := p.srv.Namespace
	return &tool.ToolError{Code: "sampling_not_allowed", Message: fmt.Sprintf(
		"%s asked your model for a completion (sampling) during the call, which this coworker does not allow; to allow it, list %s under \"sampling\" in the coworker's manifest (docs/bundles.md#sampling)", ns, ns)}
}
