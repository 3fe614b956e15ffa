package a2a

import (
	"context"
	"errors"
	"fmt"

	"github.com/a2aproject/a2a-go/a2a"

	"github.com/openworker/desktop/harness/tool"
)

// Outcomes of a poll, as `journal reconcile --poll` records them
// (docs/journal.md#reconciling).
const (
	OutcomeApplied    = "applied"
	OutcomeNotApplied = "not-applied"
)

// PollResult is the agent's answer about one task.
type PollResult struct {
	TaskID string
	// Known is false when the agent answered that it does not know the
	// task (JSON-RPC error -32001, TaskNotFound).
	Known bool
	// State is the agent's state of the task ("completed", "working", …);
	// "" when not Known.
	State string
	// Message is the text of the agent's status message, if any.
	Message string
	// Output holds the task's artifacts as Call would return them.
	Output tool.Output
}

// Outcome is OutcomeApplied for a completed task, OutcomeNotApplied for
// a failed, canceled or rejected one, and "" while the agent still works
// on it, waits for input, or does not know it: then the outcome stays for
// the person (docs/a2a.md#durable-handles).
func (r PollResult) Outcome() string {
	switch a2a.TaskState(r.State) {
	case a2a.TaskStateCompleted:
		return OutcomeApplied
	case a2a.TaskStateFailed, a2a.TaskStateCanceled, a2a.TaskStateRejected:
		return OutcomeNotApplied
	}
	return ""
}

// Poll asks the agent for the state of taskID with one tasks/get, bounded
// by ctx. It never sends the message again. A task the agent does not know
// is a PollResult with Known false and a nil error; an agent that cannot
// be reached or answers something else is an error.
func (a *Agent) Poll(ctx context.Context, taskID string) (PollResult, error) {
	r := PollResult{TaskID: taskID}
	if taskID == "" {
		return r, errors.New("poll: no task ID")
	}
	task, err := a.rpc.GetTask(ctx, &a2a.TaskQueryParams{ID: a2a.TaskID(taskID)})
	if errors.Is(err, a2a.ErrTaskNotFound) {
		return r, nil
	}
	if err != nil {
		if ctx.Err() != nil {
			return r, fmt.Errorf("A2A agent %q: tasks/get %s at %s: %w", a.cfg.Namespace, taskID, redactURL(a.endpoint), context.Cause(ctx))
		}
		return r, fmt.Errorf("A2A agent %q: tasks/get %s at %s: %v", a.cfg.Namespace, taskID, redactURL(a.endpoint), scrub(err, a.endpoint))
	}
	r.Known = true
	r.State = string(task.Status.State)
	r.Message = a.secrets.text(messageText(task.Status.Message))
	r.Output = a.secrets.output(outputOf(string(task.ID), r.State, task.Artifacts, nil))
	return r, nil
}
