package journal

import (
	"context"
	"fmt"
	"strings"
)

// SessionDetail is everything journaled about one session, for the history
// view and `openworker sessions show`.
type SessionDetail struct {
	Session
	Turns       []Turn       `json:"turns"`
	Messages    []Message    `json:"messages"`
	Invocations []Invocation `json:"invocations"`
	Approvals   []Approval   `json:"approvals"`
	Warnings    []Warning    `json:"warnings"`
}

// RunStatus says, honestly, where the session's run is
// (docs/journal.md#run-status): "waiting on you: ITEM (what)" while an
// inbox item is open — never "succeeded"; "answered, waiting to resume"
// once the items a parked run waits on are answered and it has not
// continued yet; else from the last turn:
// "running", "succeeded", "stopped: why", "failed: why", "cancelled";
// "not started" before a turn.
//
// items are the session's inbox items (Journal.Inbox with its SessionID).
func RunStatus(d SessionDetail, items []InboxItem) string {
	var open, answered []string
	for _, it := range items {
		switch it.Status {
		case InboxOpen:
			what := string(it.Kind)
			if it.Tool != "" {
				what += " of " + it.Tool
			}
			open = append(open, it.ID+" ("+what+")")
		case InboxAnswered:
			answered = append(answered, it.ID)
		}
	}
	switch {
	case len(open) > 0:
		return "waiting on you: " + strings.Join(open, ", ")
	case len(answered) > 0:
		return "answered, waiting to resume"
	case len(d.Turns) == 0:
		return "not started"
	}
	t := d.Turns[len(d.Turns)-1]
	switch t.Status {
	case TurnRunning:
		return "running"
	case TurnCompleted:
		return "succeeded"
	case TurnCancelled:
		return "cancelled"
	case TurnStopped:
		return "stopped: " + t.Reason
	}
	return "failed: " + t.Reason
}

// Detail returns a session with its turns, messages, invocations,
// approvals and warnings, or ErrNotFound. The parts are read one after the
// other, not in one snapshot: a session being written may show a turn
// whose messages are not all there yet.
func (j *Journal) Detail(ctx context.Context, sessionID string) (SessionDetail, error) {
	var d SessionDetail
	var err error
	if d.Session, err = j.Session(ctx, sessionID); err != nil {
		return d, err
	}
	if d.Turns, err = j.Turns(ctx, sessionID); err != nil {
		return d, err
	}
	if d.Messages, err = j.Messages(ctx, sessionID); err != nil {
		return d, err
	}
	if d.Invocations, err = j.Invocations(ctx, sessionID); err != nil {
		return d, err
	}
	if d.Approvals, err = j.Approvals(ctx, sessionID); err != nil {
		return d, err
	}
	if d.Warnings, err = j.Warnings(ctx, sessionID); err != nil {
		return d, fmt.Errorf("journal: detail of %s: %w", sessionID, err)
	}
	return d, nil
}
