package elicit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"
)

// Action is how the person answered (MCP ElicitResult.action).
type Action string

// The three answers of a form.
const (
	Accept  Action = "accept"  // submitted; Content holds the values
	Decline Action = "decline" // said no
	Cancel  Action = "cancel"  // dismissed without choosing
)

// Valid reports whether a is one of the three actions.
func (a Action) Valid() bool { return a == Accept || a == Decline || a == Cancel }

// MaxPerCall bounds the questions of one tool call; the next ones are
// declined without asking (a server asking in a loop cannot hold a call
// or the person; docs/mcp.md#elicitation).
const MaxPerCall = 10

// Margin is how long before the call's bound an unanswered question is
// declined, so that the server's answer to the decline still fits in the
// bound (docs/mcp.md#elicitation).
const Margin = 2 * time.Second

// Question is one form a server asks the person during a tool call. The
// host shows Message, names the server (ServerName, or Namespace) and the
// call (Tool, Invocation), and builds the form from Fields. Problem is set
// when the same question is asked again because the previous answer
// (Previous, to fill the form with) did not pass Check.
type Question struct {
	ID         string         `json:"id"`          // "eli_..." unique
	Namespace  string         `json:"namespace"`   // the provider's namespace
	ServerName string         `json:"server_name"` // what the server calls itself (initialize), may be ""
	SessionID  string         `json:"session_id"`
	TurnID     string         `json:"turn_id"`
	Invocation string         `json:"invocation"`     // the journal's invocation id of the call that asks
	CallID     string         `json:"call_id"`        // the model's tool call id
	Tool       string         `json:"tool"`           // qualified name, NS.TOOL
	Mode       string         `json:"mode"`           // ModeForm ("" is taken as form) or ModeURL
	URL        string         `json:"url,omitempty"`  // URL mode: the page to open (CheckURL passed; punycode host)
	Host       string         `json:"host,omitempty"` // URL mode: its host as shown (punycode), to emphasise
	Message    string         `json:"message"`        // at most MaxMessage bytes
	Fields     []Field        `json:"fields"`
	Deadline   time.Time      `json:"deadline"`           // when it is declined unanswered
	Seq        int            `json:"seq"`                // 1 for the call's first question
	Problem    string         `json:"problem,omitempty"`  // why the previous answer was refused
	Previous   map[string]any `json:"previous,omitempty"` // the refused answer's content
	form       *Form
}

// NewQuestion makes the question of a parsed form; the caller fills in who
// asks.
func NewQuestion(id, message string, f *Form) Question {
	return Question{ID: id, Mode: ModeForm, Message: clipMessage(message), Fields: f.Fields, form: f}
}

// Check validates an accepted content against the question's schema (see
// Form.Check); a host may use it to re-ask at once. A URL-mode question
// takes no content (accept means "I open it").
func (q Question) Check(content map[string]any) error {
	if q.Mode == ModeURL {
		if len(content) > 0 {
			return fmt.Errorf("a URL question takes no content")
		}
		return nil
	}
	if q.form == nil {
		return fmt.Errorf("the question has no form")
	}
	return q.form.Check(content)
}

// Names returns the field names (what the journal keeps of a question).
func (q Question) Names() []string {
	out := make([]string, len(q.Fields))
	for i, f := range q.Fields {
		out[i] = f.Name
	}
	return out
}

// Answer is the person's answer: Content only with Accept, the values by
// field name (string, float64 or json.Number, bool, []string or []any).
type Answer struct {
	Action  Action         `json:"action"`
	Content map[string]any `json:"content,omitempty"`
}

// Elicitor is what a host implements to ask the person (the app's dialog,
// the CLI's terminal, the stdio protocol's elicitation.required event).
// Elicit blocks until the person answers or ctx ends (at q.Deadline, or
// when the turn is cancelled); an error, or an answer after ctx ended,
// declines. An accepted answer that fails q.Check is not sent: the harness
// asks again with q.Problem and q.Previous set, until the answer passes,
// is not an accept, or the deadline comes. Implementations must be safe
// for concurrent use (two calls may ask at once; one call's questions
// come one after another).
type Elicitor interface {
	Elicit(ctx context.Context, q Question) (Answer, error)
}

// ContentJSON is the content as JSON (for the result sent to the server).
func (a Answer) ContentJSON() json.RawMessage {
	if a.Content == nil {
		return nil
	}
	b, _ := json.Marshal(a.Content)
	return b
}

func clipMessage(s string) string {
	if len(s) <= MaxMessage {
		return s
	}
	cut := MaxMessage
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// ErrNoPerson is returned by an Elicitor that has no one to ask (a CLI
// without a terminal); the question is declined and journaled so.
var ErrNoPerson = errors.New("no one to ask: the question is declined")
