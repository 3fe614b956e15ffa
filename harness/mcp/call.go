package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
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
// forwarded after it returns.
//
// Results:
//   - success: the normalized output (see normalize) and nil;
//   - a result flagged isError: the normalized output and a *tool.ToolError
//     with Code "mcp_error" and the result's text as Message;
//   - a JSON-RPC error answer (a raw handler's error, mark3labs/mcp-go's
//     `return nil, err`, an unknown tool): a *tool.ToolError with Code
//     "mcp_error" and the server's message; the session is fine;
//   - progress returned an error (e.g. wrapping tool.ErrLimit): the call is
//     cancelled (the server is notified) and that error is returned;
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
	return p.secrets.output(out), p.secrets.err(err)
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
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	params := &sdk.CallToolParams{Name: name, Arguments: args}
	var st *callState
	if progress != nil {
		st = &callState{progress: progress, cancel: cancel, wake: make(chan struct{}, 1)}
		token := p.srv.Namespace + "-" + strconv.FormatUint(p.seq.Add(1), 10)
		params.SetProgressToken(token)
		p.mu.Lock()
		p.calls[token] = st
		p.mu.Unlock()
		defer func() {
			p.mu.Lock()
			delete(p.calls, token)
			p.mu.Unlock()
		}()
	}
	res, err := p.sessionCall(cctx, params)
	if st != nil {
		if perr := st.finish(ctx); perr != nil {
			return tool.Output{}, perr
		}
	}
	what := fmt.Sprintf("tools/call %q", name)
	var wire *jsonrpc.Error
	if err != nil && ctx.Err() == nil && errors.As(err, &wire) && p.Alive() {
		// A JSON-RPC error answer (a raw handler's or mcp-go's `return nil,
		// err`) is a definite answer: the tool failed, the session is fine.
		msg := wire.Message
		if msg == "" {
			msg = fmt.Sprintf("the server answered with JSON-RPC error %d and no message", wire.Code)
		}
		return tool.Output{}, &tool.ToolError{Code: "mcp_error", Message: msg}
	}
	if err != nil {
		return tool.Output{}, p.callError(ctx, what, err)
	}
	out := normalize(res)
	if res.IsError {
		msg := out.Text
		if msg == "" {
			msg = "the tool reported an error without a message"
		}
		return out, &tool.ToolError{Code: "mcp_error", Message: msg}
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

// normalize turns a tools/call result into a tool.Output: Structured is the
// structuredContent, Text the text blocks joined with "\n", Images the
// image blocks; other blocks (audio, resource links, embedded resources)
// are described in a short line of Text. When a result has structured
// content and text that is only its JSON serialization, the text is dropped
// (the harness derives it from Structured).
func normalize(res *sdk.CallToolResult) tool.Output {
	var out tool.Output
	if res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil && string(b) != "null" {
			out.Structured = b
		}
	}
	var text []string
	for _, c := range res.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			text = append(text, c.Text)
		case *sdk.ImageContent:
			out.Images = append(out.Images, tool.Image{MIMEType: c.MIMEType, Data: c.Data})
		case *sdk.AudioContent:
			text = append(text, fmt.Sprintf("[audio %s, %d bytes, not shown]", c.MIMEType, len(c.Data)))
		case *sdk.ResourceLink:
			text = append(text, fmt.Sprintf("[resource link %s %q]", c.URI, c.Name))
		case *sdk.EmbeddedResource:
			text = append(text, describeResource(c.Resource))
		default:
			text = append(text, fmt.Sprintf("[%T content, not shown]", c))
		}
	}
	out.Text = strings.Join(text, "\n")
	if out.Structured != nil && sameJSON(out.Structured, out.Text) {
		out.Text = ""
	}
	return out
}

func describeResource(r *sdk.ResourceContents) string {
	switch {
	case r == nil:
		return "[embedded resource]"
	case r.Text != "":
		return fmt.Sprintf("[resource %s]\n%s", r.URI, r.Text)
	default:
		return fmt.Sprintf("[resource %s, %s, %d bytes, not shown]", r.URI, r.MIMEType, len(r.Blob))
	}
}

// sameJSON reports whether text is a JSON serialization of the value in b.
func sameJSON(b json.RawMessage, text string) bool {
	var x, y any
	if json.Unmarshal(b, &x) != nil || json.Unmarshal([]byte(text), &y) != nil {
		return false
	}
	bx, _ := json.Marshal(x)
	by, _ := json.Marshal(y)
	return string(bx) == string(by)
}
