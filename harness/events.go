package harness

import (
	"encoding/json"

	"github.com/openworker/desktop/harness/tool"
)

// EventType names an event a session reports while a turn runs. The names are
// part of the stdio protocol (docs/stdio-protocol.md) and are mirrored by the desktop UI.
type EventType string

// Events of a turn, in the order they usually happen.
const (
	EventTurnStarted      EventType = "turn.started"
	EventText             EventType = "assistant.delta"   // Text holds a delta of assistant text
	EventAssistantMessage EventType = "assistant.message" // Text holds the whole text of one attempt
	EventToolProposed     EventType = "tool.proposed"     // the model asked for a call
	EventApprovalRequired EventType = "approval.required" // the Prompter is being asked
	EventApprovalDecided  EventType = "approval.decided"  // Status holds the decision
	EventToolStarted      EventType = "tool.started"      // the executing row is committed
	EventToolProgress     EventType = "tool.progress"     // Text holds the progress message, Data its data
	// A server asks the person a question during the call (Elicitation:
	// the question's id); then answered: Status accept | decline | cancel,
	// Source who chose it (journal.ElicitBy*), Text why (docs/mcp.md#elicitation).
	EventElicitationRequired EventType = "elicitation.required"
	EventElicitationAnswered EventType = "elicitation.answered"
	EventToolFinished        EventType = "tool.finished" // Status: succeeded | failed | unknown | refused
	EventWarning             EventType = "warning"
	EventTurnFinished        EventType = "turn.finished" // Status: completed | stopped | failed | cancelled
	EventError               EventType = "error"
)

// EventTypes lists every EventType, in declaration order: the stdio
// protocol and the desktop window take the list from here
// (app.HarnessEvents, frontend/src/lib/events.ts).
func EventTypes() []EventType {
	return []EventType{
		EventTurnStarted, EventText, EventAssistantMessage, EventToolProposed,
		EventApprovalRequired, EventApprovalDecided, EventToolStarted, EventToolProgress,
		EventElicitationRequired, EventElicitationAnswered,
		EventToolFinished, EventWarning, EventTurnFinished, EventError,
	}
}

// Codes say, for a program, why an EventError or EventWarning was sent or
// why a turn failed (Event.Code, TurnResult.Code): a host decides by the
// code, never by matching the text, which is for people and may change.
// Warnings use the codes of the journal's warnings (for example
// "catalog_changed", "tool_missing", "model_context_dropped",
// "tool_calls_dropped").
const (
	// CodeModelUnreachable: nothing answered at the model's address (the
	// connection was refused, the host was not found, or the dial failed).
	CodeModelUnreachable = "model_unreachable"
	// CodeModelFailed: the model provider answered with an error or broke
	// off (HTTP status, malformed stream, response over the limits).
	CodeModelFailed = "model_failed"
	// CodeProviderFailed: an MCP provider of the selection did not start or
	// did not list its tools at turn preparation.
	CodeProviderFailed = "provider_failed"
	// CodeJournalFailed: the journal refused a record, so the turn stopped.
	CodeJournalFailed = "journal_failed"
)

// Event is one thing that happened in a session. Fields not meaningful for a
// type are empty. Events flow one way, harness → subscriber; a sink must not
// block for long (it runs on the turn's goroutine).
type Event struct {
	Type       EventType `json:"type"`
	SessionID  string    `json:"session_id"`
	TurnID     string    `json:"turn_id,omitempty"`
	CallID     string    `json:"call_id,omitempty"`
	Invocation string    `json:"invocation_id,omitempty"`
	// Elicitation is the question's id ("eli_...") of the elicitation events.
	Elicitation string          `json:"elicitation_id,omitempty"`
	Tool        string          `json:"tool,omitempty"`  // qualified name
	Alias       string          `json:"alias,omitempty"` // the name the model used
	Text        string          `json:"text,omitempty"`
	Arguments   json.RawMessage `json:"arguments,omitempty"`
	Data        json.RawMessage `json:"data,omitempty"`
	Status      string          `json:"status,omitempty"`
	Error       string          `json:"error,omitempty"`
	Code        string          `json:"code,omitempty"` // EventError and EventWarning, a failed EventTurnFinished (one of the Code constants), and a refused EventToolFinished (the refusal's error code, e.g. "not_selected")
	// Source of an EventApprovalDecided: who decided, as the journal's
	// approval records it ("policy:user" for a saved "always allow",
	// "prompt", "grant", "bypass", ...; docs/consent.md).
	Source     string `json:"source,omitempty"`
	DurationMS int64  `json:"duration_ms,omitempty"`
	Attempt    int    `json:"attempt,omitempty"`

	// The result of a succeeded call (EventToolFinished), for a host to
	// show: its structured value and its blocks in the provider's order
	// (tool.Output; docs/mcp.md#results). Images holds the pixels of the
	// image blocks, for a host in the same process; it is never encoded
	// (the stdio protocol carries no pixels, the journal only digests).
	Structured json.RawMessage `json:"structured,omitempty"`
	Content    []tool.Block    `json:"content,omitempty"`
	Images     []tool.Image    `json:"-"`

	// Origin of the events of a call asked by an app view: "view:<invocation
	// id>" of the call whose view asked, as journaled; "" for the model
	// (docs/mcp-apps.md#view-calls).
	Origin string `json:"origin,omitempty"`
	// UIResource is set on the EventToolFinished of a succeeded call whose
	// tool has an app view: the view's URI and digest, or why it is not
	// shown (docs/mcp-apps.md#resources).
	UIResource *UIResourceRef `json:"ui_resource,omitempty"`
}

// UIResourceRef names the app view of a call (docs/mcp-apps.md#resources):
// its ui:// URI, the SHA-256 digest ("sha256:<hex>") and size in bytes of its
// HTML; or, when the view was refused (over 2 MB, not HTML, a bad CSP, a
// failed read), Error says why and Digest and Size are empty. A host shows
// the view with Session.UIResource.
type UIResourceRef struct {
	URI    string `json:"uri"`
	Digest string `json:"digest,omitempty"`
	Size   int    `json:"size,omitempty"`
	Error  string `json:"error,omitempty"`
}

// Sink receives events. It may be nil.
type Sink func(Event)

func (s Sink) emit(e Event) {
	if s != nil {
		s(e)
	}
}
