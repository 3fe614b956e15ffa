package harness

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/openworker/desktop/harness/a2a"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/tool"
)

// PollBy is who a reconciliation from an A2A agent's own answer is
// recorded by (docs/a2a.md#durable-handles).
const PollBy = "a2a:poll"

// pollTimeout bounds reading the card and the one tasks/get of a poll.
const pollTimeout = 30 * time.Second

// PollResult is what PollInvocation recorded: the outcome and the
// agent's own words for it.
type PollResult struct {
	Outcome journal.Effect `json:"outcome"`
	Kind    string         `json:"kind"`  // "A2A agent" or "MCP provider"
	Agent   string         `json:"agent"` // the agent's (provider's) namespace
	Task    string         `json:"task"`  // the task ID (the invocation's handle)
	State   string         `json:"state"` // the task's state, e.g. "completed"
	Message string         `json:"message,omitempty"`
}

// PollRefusedError is why an invocation cannot be polled at all: it is
// not unknown, not a call of an A2A agent, has no task ID, or its agent
// is not registered (NotRegistered). Nothing was asked.
type PollRefusedError struct {
	Msg           string
	NotRegistered bool
}

func (e *PollRefusedError) Error() string { return e.Msg }

// PollInvocation asks the A2A agent of the unknown invocation id, with
// one tasks/get of the task ID journaled as its handle (nothing is ever
// sent again), and records the agent's answer (docs/a2a.md#durable-handles):
// a completed task applied, with its artifacts as the result; a failed,
// canceled or rejected one not_applied. A task still working, waiting
// for input, or that the agent does not know leaves the invocation
// unknown for the person: an error that says so and what to do. reg must
// hold the agent's entry (the servers file the call was made with).
func PollInvocation(ctx context.Context, j *journal.Journal, reg *tool.Registry, id string) (PollResult, error) {
	ns, handle, err := pollHandle(ctx, j, id)
	if err != nil {
		return PollResult{}, err
	}
	if mcpNS, ok := strings.CutPrefix(ns, "mcp:"); ok {
		return pollMCPTask(ctx, j, reg, id, mcpNS, handle)
	}
	agent, ok := reg.Agent(ns)
	if !ok {
		if b, broken := reg.BrokenMCP(ns); broken {
			return PollResult{}, &PollRefusedError{Msg: fmt.Sprintf("A2A agent %q cannot be asked: %v", ns, b.Err)}
		}
		return PollResult{}, &PollRefusedError{Msg: fmt.Sprintf("A2A agent %q is not registered", ns), NotRegistered: true}
	}
	ctx, cancel := context.WithTimeout(ctx, pollTimeout)
	defer cancel()
	ag, err := a2a.Fetch(ctx, agent, a2a.Options{})
	if err != nil {
		return PollResult{}, fmt.Errorf("invocation %s stays unknown: %w", id, err)
	}
	res, err := ag.Poll(ctx, handle)
	if err != nil {
		return PollResult{}, fmt.Errorf("invocation %s stays unknown: %w", id, err)
	}
	out := PollResult{Kind: "A2A agent", Agent: ns, Task: handle, State: string(res.State), Message: res.Message}
	if out.Outcome, err = pollOutcome(id, ns, handle, res); err != nil {
		return PollResult{}, err
	}
	var result []byte
	if out.Outcome == journal.EffectApplied {
		result = res.Output.Structured
	}
	if err := j.ReconcileResult(ctx, id, out.Outcome, PollBy, result); err != nil {
		return PollResult{}, pollRefused(err)
	}
	return out, nil
}

// pollRefused is err as a *PollRefusedError when the journal refused the
// invocation (not found, or not in a state to reconcile).
func pollRefused(err error) error {
	if errors.Is(err, journal.ErrNotFound) || errors.Is(err, journal.ErrBadTransition) {
		return &PollRefusedError{Msg: err.Error()}
	}
	return err
}

// pollHandle is the agent namespace and task ID of invocation id, which
// must be an unknown, unreconciled call of an A2A agent with a handle.
func pollHandle(ctx context.Context, j *journal.Journal, id string) (ns, handle string, err error) {
	inv, err := j.Invocation(ctx, id)
	if err != nil {
		return "", "", pollRefused(err)
	}
	if inv.Status != journal.InvUnknown || inv.Reconciled != "" {
		what := string(inv.Status)
		if inv.Reconciled != "" {
			what = "already reconciled as " + string(inv.Reconciled)
		}
		return "", "", &PollRefusedError{Msg: fmt.Sprintf("invocation %s is %s; only an unknown invocation is reconciled", id, what)}
	}
	ns, ok := strings.CutPrefix(inv.Provider, ProviderA2APrefix)
	if !ok && !strings.HasPrefix(inv.Provider, "mcp:") {
		return "", "", &PollRefusedError{Msg: fmt.Sprintf("invocation %s is a call of %s (provider %q); only an A2A agent or an MCP task can be asked: check what happened and record whether it was applied", id, inv.Tool, inv.Provider)}
	}
	handle, err = j.Handle(ctx, id)
	if err != nil {
		return "", "", err
	}
	if !ok { // an MCP call: only a task-augmented one has a handle
		if handle == "" {
			return "", "", &PollRefusedError{Msg: fmt.Sprintf("invocation %s of %s has no task ID: it was not called as an MCP task (or ended before the server returned one), so there is nothing to ask; check what happened and record whether it was applied", id, inv.Tool)}
		}
		return inv.Provider, handle, nil
	}
	if handle == "" {
		return "", "", &PollRefusedError{Msg: fmt.Sprintf("invocation %s has no task ID: the call ended before A2A agent %q returned one, so there is nothing to ask it; the message may or may not have reached it: ask the agent's owner, then record whether it was applied", id, ns)}
	}
	return ns, handle, nil
}

// pollOutcome is the effect the agent's answer settles, or the error that
// says why the invocation stays unknown.
func pollOutcome(id, ns, handle string, res a2a.PollResult) (journal.Effect, error) {
	switch res.Outcome() {
	case a2a.OutcomeApplied:
		return journal.EffectApplied, nil
	case a2a.OutcomeNotApplied:
		return journal.EffectNotApplied, nil
	}
	if !res.Known {
		return "", fmt.Errorf("invocation %s stays unknown: A2A agent %q does not know task %s (it may have forgotten it); ask the agent's owner, then record whether it was applied", id, ns, handle)
	}
	return "", fmt.Errorf("invocation %s stays unknown: A2A agent %q says task %s is %s%s; ask again later", id, ns, handle, res.State, Quoted(res.Message))
}

// Quoted is ": "MSG"" for a message of an agent, at most 200 bytes, or ""
// for none.
func Quoted(msg string) string {
	if msg == "" {
		return ""
	}
	if len(msg) > 200 {
		msg = msg[:200] + "…"
	}
	return fmt.Sprintf(": %q", msg)
}
