package tool

import (
	"encoding/json"
	"fmt"
	"sync"
)

// Call is the harness-owned context of one tool call: who is calling, where
// the workspace is, and a bounded progress channel back to the user.
//
// A Call is created by the harness with NewCall; tools only read it and call
// Progress. It is safe for concurrent use.
type Call struct {
	SessionID string
	TurnID    string
	CallID    string
	Workspace string // a directory path the coworker may use; may be empty

	limits Limits
	sink   func(message string, data json.RawMessage)

	mu     sync.Mutex
	events int
	bytes  int
	breach error
}

// NewCall returns a Call whose Progress forwards to sink within limits.
// sink may be nil. It is meant for the harness and for tests of tools.
func NewCall(sessionID, turnID, callID, workspace string, limits Limits, sink func(message string, data json.RawMessage)) *Call {
	return &Call{SessionID: sessionID, TurnID: turnID, CallID: callID, Workspace: workspace, limits: limits.Fill(), sink: sink}
}

// Progress reports progress to the user: a short message and optional JSON
// data. At most 64 events per call, 4 KB per message and 16 KB of progress
// JSON in total (docs/limits.md). Over a limit it returns an error wrapping ErrLimit,
// forwards nothing, and the harness stops the turn when the call ends.
func (c *Call) Progress(message string, data json.RawMessage) error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.breach != nil {
		return c.breach
	}
	if len(data) > 0 && !json.Valid(data) {
		return fmt.Errorf("progress data is not valid JSON")
	}
	switch {
	case c.events+1 > c.limits.ProgressEvents:
		c.breach = fmt.Errorf("progress event %d over the limit of %d per call: %w", c.events+1, c.limits.ProgressEvents, ErrLimit)
	case len(message) > c.limits.ProgressMessage:
		c.breach = fmt.Errorf("progress message of %d bytes over the limit of %d: %w", len(message), c.limits.ProgressMessage, ErrLimit)
	default:
		size := progressSize(message, data)
		if c.bytes+size > c.limits.ProgressTotalBytes {
			c.breach = fmt.Errorf("progress JSON of %d bytes over the limit of %d per call: %w", c.bytes+size, c.limits.ProgressTotalBytes, ErrLimit)
		} else {
			c.events++
			c.bytes += size
		}
	}
	if c.breach != nil {
		return c.breach
	}
	if c.sink != nil {
		c.sink(message, data)
	}
	return nil
}

// Breach returns the first progress limit the call breached, or nil.
func (c *Call) Breach() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.breach
}

// progressSize is the size of one progress event as JSON:
// {"message":...,"data":...}.
func progressSize(message string, data json.RawMessage) int {
	m, _ := json.Marshal(message)
	n := len(`{"message":,"data":}`) + len(m) + len(data)
	if len(data) == 0 {
		n += len("null")
	}
	return n
}
