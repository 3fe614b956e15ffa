package protocol

import (
	"encoding/json"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
)

// Methods a client may call.
const (
	MethodSessionOpen     = "session.open"
	MethodTurnSend        = "turn.send"
	MethodApprovalRespond = "approval.respond"
	MethodTurnCancel      = "turn.cancel"
	MethodSessionClose    = "session.close"
)

// Error codes of a response.
const (
	CodeBadRequest = "bad_request" // malformed line, unknown method, bad params
	CodeNotFound   = "not_found"   // unknown session or approval
	CodeBusy       = "busy"        // a turn is already running in the session, or another process holds it
	CodeFailed     = "failed"      // the runtime failed (model unreachable, ...)
)

// MaxLineBytes bounds one request line.
const MaxLineBytes = 1 << 20

// Request is one line from the client.
type Request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// Response answers one request: Result or Error.
type Response struct {
	ID     json.RawMessage `json:"id"`
	Result any             `json:"result,omitempty"`
	Error  *Error          `json:"error,omitempty"`
}

// Error is a failed request.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// EventLine carries one event.
type EventLine struct {
	Event any `json:"event"`
}

// ApprovalEvent is sent when the harness needs an answer; reply with
// approval.respond and the same approval_id.
type ApprovalEvent struct {
	Type       harness.EventType `json:"type"` // "approval.required"
	ApprovalID string            `json:"approval_id"`
	Request    consent.Request   `json:"request"`
}

// SessionOpenParams opens a new session with a coworker, or resumes the
// journaled session SessionID (refused when its execution identity changed).
type SessionOpenParams struct {
	Coworker  string `json:"coworker,omitempty"`
	SessionID string `json:"session_id,omitempty"`
}

// SessionOpenResult describes the opened session.
type SessionOpenResult struct {
	SessionID string                 `json:"session_id"`
	Identity  string                 `json:"identity"`
	Tools     []harness.ResolvedTool `json:"tools"`
}

// TurnSendParams runs one turn.
type TurnSendParams struct {
	SessionID string `json:"session_id"`
	Text      string `json:"text"`
}

// ApprovalRespondParams answers an approval.required event.
type ApprovalRespondParams struct {
	ApprovalID string           `json:"approval_id"`
	Decision   consent.Decision `json:"decision"`
}

// SessionParams names a session (turn.cancel, session.close).
type SessionParams struct {
	SessionID string `json:"session_id"`
}
