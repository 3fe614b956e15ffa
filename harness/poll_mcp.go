package harness

import (
	"context"
	"fmt"

	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/tool"
)

// PollMCPBy is who a reconciliation from an MCP server's own answer about
// a task is recorded by (docs/mcp.md#tasks).
const PollMCPBy = "mcp:poll"

// pollMCPTask asks the MCP provider ns about task handle of the unknown
// invocation id with one tasks/get (and tasks/result for a completed
// task): completed applied, with the result; failed or cancelled
// not_applied; working, waiting for input or unknown to the server stays
// unknown, with an error that says so. The provider is started from its
// entry in reg for the poll only, and closed after.
func pollMCPTask(ctx context.Context, j *journal.Journal, reg *tool.Registry, id, ns, handle string) (PollResult, error) {
	srv, ok := reg.Server(ns)
	if !ok {
		if b, broken := reg.BrokenMCP(ns); broken {
			return PollResult{}, &PollRefusedError{Msg: fmt.Sprintf("MCP provider %q cannot be asked: %v", ns, b.Err)}
		}
		return PollResult{}, &PollRefusedError{Msg: fmt.Sprintf("MCP provider %q is not registered", ns), NotRegistered: true}
	}
	ctx, cancel := context.WithTimeout(ctx, pollTimeout+mcp.DownloadStartTimeout)
	defer cancel()
	p, err := mcp.Connect(ctx, srv, nil)
	if err != nil {
		return PollResult{}, fmt.Errorf("invocation %s stays unknown: %w", id, err)
	}
	defer p.Close()
	pctx, pcancel := context.WithTimeout(ctx, pollTimeout)
	defer pcancel()
	res, err := p.PollTask(pctx, handle)
	if err != nil {
		return PollResult{}, fmt.Errorf("invocation %s stays unknown: %w", id, err)
	}
	out := PollResult{Kind: "MCP provider", Agent: ns, Task: handle, State: res.Task.Status, Message: res.Task.StatusMessage}
	var result []byte
	switch {
	case !res.Known:
		return PollResult{}, fmt.Errorf("invocation %s stays unknown: MCP provider %q does not know task %s (it may have forgotten it, or restarted); ask the server's owner, then record whether it was applied", id, ns, handle)
	case res.Task.Status == mcp.TaskCompleted && res.Err == nil:
		out.Outcome, result = journal.EffectApplied, resultJSON(res.Output)
	case res.Task.Status == mcp.TaskCompleted, res.Task.Status == mcp.TaskFailed, res.Task.Status == mcp.TaskCancelled:
		// A completed task whose result is an error did not do the work.
		out.Outcome = journal.EffectNotApplied
	default:
		return PollResult{}, fmt.Errorf("invocation %s stays unknown: MCP provider %q says task %s is %s%s; ask again later", id, ns, handle, res.Task.Status, Quoted(res.Task.StatusMessage))
	}
	if err := j.ReconcileResult(ctx, id, out.Outcome, PollMCPBy, result); err != nil {
		return PollResult{}, pollRefused(err)
	}
	return out, nil
}
