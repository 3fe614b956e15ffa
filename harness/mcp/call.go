package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/tool"
)

// exitWait is how long a failed call waits for the session to report that
// the provider exited, so its error can name the exit status and stderr.
const exitWait = 2 * time.Second

// ProgressFunc receives one progress notification of a call: the server's
// message and data {"progress":N,"total":M} (total omitted when unknown).
// It is usually tool.Call.Progress; an error wrapping tool.ErrLimit cancels
// the call.
type ProgressFunc func(message string, data json.RawMessage) error

// CallTool makes exactly one tools/call of the remote tool name with args (a
// JSON object; empty means {}), forwarding the server's progress
// notifications to progress (may be nil) until it returns; none is
// forwarded after it returns. The server's secrets are redacted from the
// output, progress and errors (docs/mcp.md#secrets).
//
// Results (docs/mcp.md#results):
//   - success: the normalized output (see normalize) and nil;
//   - a result flagged isError: the normalized output and a *tool.ToolError
//     with Code "mcp_error" and the result's text as Message;
//   - a success whose structuredContent breaks the outputSchema the latest
//     ListTools gave the tool (or is missing while it declares one): the
//     output and a *tool.ToolError with Code CodeOutputInvalid naming the
//     JSON Pointer and the rule of each violation. A tool without an
//     outputSchema, or not listed yet, is not checked;
//   - a JSON-RPC error answer (a raw handler's error, mark3labs/mcp-go's
//     `return nil, err`, an unknown tool): a *tool.ToolError with Code
//     "mcp_error" and the server's message; the session is fine;
//   - progress returned an error (e.g. wrapping tool.ErrLimit): the call is
//     cancelled (the server is notified) and that error is returned;
//   - a JSON-RPC error -32042 (URLElicitationRequired): the pages it
//     names are asked through the ctx's Asker and the call is retried
//     once when all were accepted; else, or when the retry answers -32042
//     again, a *tool.ToolError saying why (docs/mcp.md#url-required);
//   - ctx done: the server is sent notifications/cancelled and an error
//     wrapping ctx.Err() returns at once;
//   - the provider crashed or the connection broke: a plain error holding
//     the exit status and the stderr tail; the Provider is then dead
//     (Alive reports false) and the Manager starts a new one on next use.
//
// Bounds on the result size and the call time are the harness's (docs/limits.md).
func (p *Provider) CallTool(ctx context.Context, name string, args json.RawMessage, progress func(msg string, data json.RawMessage) error) (tool.Output, error) {
	if progress != nil && p.secrets.active() {
		inner := progress
		progress = func(msg string, data json.RawMessage) error {
			return inner(p.secrets.text(msg), p.secrets.json(data))
		}
	}
	out, err := p.callTool(ctx, name, args, progress)
	return out, p.secrets.err(err)
}

func (p *Provider) callTool(ctx context.Context, name string, args json.RawMessage, progress func(msg string, data json.RawMessage) error) (tool.Output, error) {
	if !p.Alive() {
		return tool.Output{}, p.deadError(fmt.Sprintf("tools/call %q", name))
	}
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	} else if err := checkObject(args); err != nil {
		return tool.Output{}, fmt.Errorf("mcp provider %q: tools/call %q: arguments %w", p.srv.Namespace, name, err)
	}
	defer p.running.add(ctx)() // a server's question finds its call (elicit.go)
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	params := &sdk.CallToolParams{Name: name, Arguments: args}
	st, untrack := p.trackProgress(params, progress, cancel)
	defer untrack()
	if raw, ok := p.useTask(cctx, name); ok { // docs/mcp.md#tasks
		token, _ := params.GetProgressToken().(string)
		out, err := p.callAsTask(cctx, raw, name, args, token, progress)
		if st != nil {
			if perr := st.finish(ctx); perr != nil {
				return tool.Output{}, perr
			}
		}
		return out, err
	}
	res, err, failed := p.callAnsweringURLRequired(ctx, cctx, name, params)
	if st != nil {
		if perr := st.finish(ctx); perr != nil {
			return tool.Output{}, perr
		}
	}
	if failed != nil {
		return tool.Output{}, failed
	}
	if err != nil {
		return tool.Output{}, p.toolCallError(ctx, name, err)
	}
	return p.toolResult(name, res)
}

// trackProgress gives the call a progress token and routes the server's
// progress notifications for it to progress (progress.go); untrack forgets
// the token. Without progress it does nothing and st is nil.
func (p *Provider) trackProgress(params *sdk.CallToolParams, progress func(msg string, data json.RawMessage) error, cancel context.CancelCauseFunc) (st *callState, untrack func()) {
	if progress == nil {
		return nil, func() {}
	}
	st = &callState{progress: progress, cancel: cancel, wake: make(chan struct{}, 1)}
	token := p.srv.Namespace + "-" + strconv.FormatUint(p.seq.Add(1), 10)
	params.SetProgressToken(token)
	p.mu.Lock()
	p.calls[token] = st
	p.mu.Unlock()
	return st, func() {
		p.mu.Lock()
		delete(p.calls, token)
		p.mu.Unlock()
	}
}

// callAnsweringURLRequired sends the call; a -32042 answer (the server
// needs the person to visit a URL first, elicit_required.go) is answered
// and the call sent once more, never in a loop. failed is a -32042 that
// was not satisfied.
func (p *Provider) callAnsweringURLRequired(ctx, cctx context.Context, name string, params *sdk.CallToolParams) (res *sdk.CallToolResult, err, failed error) {
	res, err = p.sessionCall(cctx, params)
	w := urlRequiredAnswer(err)
	if w == nil || ctx.Err() != nil || !p.Alive() {
		return res, err, nil
	}
	if failed = p.urlRequired(cctx, name, w); failed != nil {
		return res, err, failed
	}
	res, err = p.sessionCall(cctx, params) // once: never loops
	if w := urlRequiredAnswer(err); w != nil {
		failed = loopedError(name, w)
	}
	return res, err, failed
}

// toolCallError is the error of a tools/call request that got no result:
// a sampling request the provider was not offered, a JSON-RPC error answer
// (the tool failed, the session is fine), or a failed request (callError).
func (p *Provider) toolCallError(ctx context.Context, name string, err error) error {
	if ctx.Err() == nil {
		if te := p.samplingNotOffered(err); te != nil {
			return te
		}
	}
	var wire *jsonrpc.Error
	if ctx.Err() == nil && errors.As(err, &wire) && p.Alive() {
		// A JSON-RPC error answer (a raw handler's or mcp-go's `return nil,
		// err`) is a definite answer: the tool failed, the session is fine.
		msg := wire.Message
		if msg == "" {
			msg = fmt.Sprintf("the server answered with JSON-RPC error %d and no message", wire.Code)
		}
		return &tool.ToolError{Code: "mcp_error", Message: msg}
	}
	return p.callError(ctx, fmt.Sprintf("tools/call %q", name), err)
}

// toolResult is the output of a result: an error result is a ToolError
// with its text; a success is checked against the tool's outputSchema.
func (p *Provider) toolResult(name string, res *sdk.CallToolResult) (tool.Output, error) {
	out, structured := normalize(res, p.secrets)
	if res.IsError { // an error result is not checked against the outputSchema
		msg := out.ModelText()
		if msg == "" {
			msg = "the tool reported an error without a message"
		}
		return out, &tool.ToolError{Code: "mcp_error", Message: msg}
	}
	if o := p.outputs.get(name); o != nil {
		if err := o.check(structured); err != nil { // as the server sent it
			return out, err
		}
	}
	return out, nil
}

func checkObject(args json.RawMessage) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(args, &obj); err != nil || obj == nil {
		return errors.New("must be a JSON object")
	}
	return nil
}

// callError turns a failed request into an error. A cancelled ctx wins; a
// broken session waits briefly for the provider's exit so the error can
// name it and its stderr.
func (p *Provider) callError(ctx context.Context, what string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("mcp provider %q: %s: %w", p.srv.Namespace, what, context.Cause(ctx))
	}
	if p.stdio == nil {
		return scrubURL(fmt.Errorf("mcp provider %q: %s: %w", p.srv.Namespace, what, err), p.srv.URL)
	}
	// The server answered with a JSON-RPC error: the session is fine.
	var wire *jsonrpc.Error
	if !errors.As(err, &wire) {
		// EOF, a closed connection, a failed write: most likely the process
		// is exiting; wait for the session to confirm it.
		select {
		case <-p.done:
		case <-time.After(exitWait):
		}
	}
	if !p.Alive() {
		return p.deadError(what)
	}
	return fmt.Errorf("mcp provider %q: %s: %w%s", p.srv.Namespace, what, err, stderrSuffix(p.StderrTail()))
}

// deadError describes a provider whose session has ended.
func (p *Provider) deadError(what string) error {
	if p.stdio == nil {
		return fmt.Errorf("mcp provider %q: %s: %w", p.srv.Namespace, what, ErrClosed)
	}
	exit := "its connection closed"
	select {
	case <-p.done:
		if s := p.stdio.exitString(); s != "" {
			exit = s
		}
	default:
	}
	return fmt.Errorf("mcp provider %q exited during %s: %s%s: %w", p.srv.Namespace, what, exit, stderrSuffix(p.StderrTail()), ErrClosed)
}
