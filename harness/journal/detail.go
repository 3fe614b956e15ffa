package journal

import (
	"context"
	"fmt"
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
