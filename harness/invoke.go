package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/tool"
)

// How a tool call reaches its provider (native, MCP, skill, A2A) under its
// bound, and the checks of what comes back (docs/turns.md); the call's
// life from proposal to journaled result is execute.go.

// invoke makes exactly one provider call under the time bound. A native
// panic is recovered; its stack goes to the log, never to the model.
func (t *turn) invoke(ctx context.Context, rt *ResolvedTool, c *tool.Call, args json.RawMessage, invID string) (tool.Output, error) {
	bound, cause := t.callBound(rt)
	cctx, cancel := context.WithTimeoutCause(ctx, bound, cause)
	defer cancel()
	if rt.agent != nil { // its error wraps the bound's cause and says how tasks/cancel went
		return t.callAgent(cctx, rt, c, args, invID)
	}
	if rt.native == nil {
		return t.callMCP(ctx, t.journalTask(cctx, invID), rt, c, args)
	}
	return t.callNative(ctx, cctx, rt, c, args)
}

// journalTask gives ctx the hook that journals the ID of an MCP task as
// the invocation's handle as soon as the server returns it, before the
// call follows the task (docs/mcp.md#tasks, docs/journal.md#handles).
func (t *turn) journalTask(ctx context.Context, invID string) context.Context {
	j := t.s.rt.journal
	return mcp.WithTaskHandle(ctx, func(id string) {
		if err := j.SetHandle(ctx, invID, id); err != nil {
			t.s.rt.opts.Logger.Error("journal the MCP task ID", "invocation", invID, "task", id, "err", err)
		}
	})
}

// callMCP calls rt's MCP provider within cctx, the call's bound: a call
// cut by the bound (not by ctx) ends with the bound's cause.
func (t *turn) callMCP(ctx, cctx context.Context, rt *ResolvedTool, c *tool.Call, args json.RawMessage) (tool.Output, error) {
	ns, _, _ := tool.SplitName(rt.Name)
	p, err := t.s.provider(cctx, ns)
	if err != nil {
		return tool.Output{}, err
	}
	out, err := p.CallTool(cctx, rt.Remote, args, c.Progress)
	if err != nil && cctx.Err() != nil && ctx.Err() == nil {
		return out, context.Cause(cctx)
	}
	return out, err
}

// callNative calls rt's native tool within cctx, the call's bound,
// recovering a panic; a tool still running 2 s past the bound is
// abandoned.
func (t *turn) callNative(ctx, cctx context.Context, rt *ResolvedTool, c *tool.Call, args json.RawMessage) (tool.Output, error) {
	type result struct {
		out tool.Output
		err error
	}
	ch := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				t.s.rt.opts.Logger.Error("native tool panicked", "tool", rt.Name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				ch <- result{err: fmt.Errorf("the tool panicked (the stack is in the log)")}
			}
		}()
		out, err := rt.native.Call(cctx, c, args)
		ch <- result{out, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil && cctx.Err() != nil && ctx.Err() == nil {
			var te *tool.ToolError
			if !errors.As(r.err, &te) {
				return r.out, context.Cause(cctx)
			}
		}
		return r.out, r.err
	case <-cctx.Done():
		// Give a cooperative tool a moment to return; then abandon it.
		select {
		case r := <-ch:
			if r.err == nil {
				return r.out, nil
			}
		case <-time.After(2 * time.Second):
		}
		if ctx.Err() != nil {
			return tool.Output{}, ctx.Err()
		}
		return tool.Output{}, context.Cause(cctx)
	}
}

// callBound is the time bound of one call and the error it ends with: the
// runtime's Limits.CallTimeout, or the MCP provider's own timeout (a
// config file's "timeout", tool.MCPServer.Timeout) when that is smaller
// (docs/limits.md).
func (t *turn) callBound(rt *ResolvedTool) (time.Duration, error) {
	bound := t.s.rt.opts.Limits.CallTimeout
	if rt.native == nil {
		ns, _, _ := tool.SplitName(rt.Name)
		if a, ok := t.s.gen.reg.Agent(ns); ok && a.Timeout > 0 && a.Timeout < bound {
			return a.Timeout, fmt.Errorf("the call took longer than %s (the timeout of A2A agent %q at %s): %w", a.Timeout, ns, orDefault(a.Source, "its registration"), tool.ErrLimit)
		}
		if srv, ok := t.s.gen.reg.Server(ns); ok && srv.Timeout > 0 && srv.Timeout < bound {
			where := "its entry"
			if srv.Source != "" {
				where = srv.Source
			}
			return srv.Timeout, fmt.Errorf("the call took longer than %s (the timeout of MCP provider %q at %s): %w", srv.Timeout, ns, where, tool.ErrLimit)
		}
	}
	return bound, fmt.Errorf("the call took longer than %s: %w", bound, tool.ErrLimit)
}

func errorCode(ctx context.Context, err error) string {
	switch {
	case ctx.Err() != nil:
		return "cancelled"
	case errors.Is(err, tool.ErrLimit):
		return "limit_exceeded"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	}
	return "tool_failure"
}

// checkOutput bounds a result: valid structured JSON and at most
// Limits.ResultBytes of structured + text (docs/limits.md).
func checkOutput(o tool.Output, l tool.Limits) error {
	if len(o.Structured) > 0 && !json.Valid(o.Structured) {
		return fmt.Errorf("the result's structured value is not valid JSON: %w", tool.ErrLimit)
	}
	if n := len(o.Structured) + len(o.Text); n > l.ResultBytes {
		return fmt.Errorf("the result is %d bytes, over the limit of %d: %w", n, l.ResultBytes, tool.ErrLimit)
	}
	n, images := 0, 0
	for _, b := range o.Content {
		n += b.Size()
		if b.Type == tool.BlockImage {
			images++
		}
	}
	if n > l.ResultBytes {
		return fmt.Errorf("the result's content blocks hold %d bytes of text, over the limit of %d: %w", n, l.ResultBytes, tool.ErrLimit)
	}
	if images != 0 && images != len(o.Images) {
		return fmt.Errorf("the result has %d image blocks for %d images; each image block stands for one image (tool.Block)", images, len(o.Images))
	}
	if len(o.Images) > MaxImages {
		return fmt.Errorf("the result has %d images, over the limit of %d: %w", len(o.Images), MaxImages, tool.ErrLimit)
	}
	for i, im := range o.Images {
		if im.MIMEType != "image/png" && im.MIMEType != "image/jpeg" {
			return fmt.Errorf("image %d has MIME type %q; only image/png and image/jpeg: %w", i, im.MIMEType, tool.ErrLimit)
		}
		if len(im.Data) > MaxImageBytes {
			return fmt.Errorf("image %d is %d bytes, over the limit of %d: %w", i, len(im.Data), MaxImageBytes, tool.ErrLimit)
		}
	}
	return nil
}
