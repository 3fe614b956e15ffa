package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/openworker/desktop/harness/elicit"
	"github.com/openworker/desktop/harness/inbox"
	"github.com/openworker/desktop/harness/journal"
)

// The app's side of MCP elicitation (docs/app.md#questions,
// docs/mcp.md#elicitation): a server's question during a tool call is sent
// to the UI as EventElicitationAsked and waits for AnswerElicitation, or
// for its ctx (the call's bound less elicit.Margin, or the turn's cancel),
// which closes the dialog with EventElicitationClosed. The UI shows one
// question at a time, oldest first, whichever chat it belongs to.

// The elicitation events of the UI.
const (
	// EventElicitationAsked carries a PendingElicitation: show (or, for the
	// same question id asked again with a Problem, update) the question dialog.
	EventElicitationAsked EventName = "elicitation:asked"
	// EventElicitationClosed carries an ElicitationClosed: close that dialog.
	EventElicitationClosed EventName = "elicitation:closed"
)

// PendingElicitation is a question waiting for the person: the harness's
// Question (the server, the call, the message, the form; Problem when the
// previous answer was refused) and who it is for.
type PendingElicitation struct {
	Question     elicit.Question `json:"question"`
	Coworker     string          `json:"coworker"`      // the chat's coworker id ("" when the chat is not open here)
	CoworkerName string          `json:"coworker_name"` // its display name
	Asked        time.Time       `json:"asked"`         // when the question (this round of it) was asked
	Item         string          `json:"item"`          // its inbox item (docs/inbox.md#item); "" when it could not be written
}

// ElicitationClosed says a question is over: answered, expired or cancelled.
type ElicitationClosed struct {
	ID        string `json:"id"`
	SessionID string `json:"session_id"`
	Action    string `json:"action"` // accept, decline or cancel
	Reason    string `json:"reason"` // "answered", or why it closed by itself ("the question expired...")
}

// ErrNoSuchElicitation is returned by AnswerElicitation for an id that is
// not waiting (already answered, expired, or never asked).
var ErrNoSuchElicitation = errors.New("this question is no longer waiting (it was answered, it expired, or the call ended)")

// Why a question closed by itself (ElicitationClosed.Reason).
const (
	elicitExpired   = "the question expired: it was not answered within the tool call's time limit, so it was declined"
	elicitCancelled = "the question was withdrawn: the tool call or the turn ended"
	elicitCompleted = "the server says this is done; nothing more is needed from you"
)

// appElicitor is the app's elicit.Elicitor. Safe for concurrent use.
type appElicitor struct {
	emit  Emitter
	inbox func() (*inbox.Inbox, error)
	who   func(sessionID string) (id, name string) // the chat's coworker; "" when unknown
	open  func(url string) error                   // opens a URL question's page (Window.OpenLink)

	mu      sync.Mutex
	pending map[string]*elicitWaiting
}

type elicitWaiting struct {
	p      PendingElicitation
	answer chan elicit.Answer // buffered, 1
}

func newAppElicitor(emit Emitter, box func() (*inbox.Inbox, error), who func(string) (string, string), open func(string) error) *appElicitor {
	return &appElicitor{emit: emit, inbox: box, who: who, open: open, pending: map[string]*elicitWaiting{}}
}

// Elicit implements elicit.Elicitor: it shows q and waits for the answer
// or ctx's end (then the answer is a decline and ctx.Err() is returned).
func (m *appElicitor) Elicit(ctx context.Context, q elicit.Question) (elicit.Answer, error) {
	w := &elicitWaiting{p: PendingElicitation{Question: q, Asked: time.Now().UTC()}, answer: make(chan elicit.Answer, 1)}
	if m.who != nil {
		w.p.Coworker, w.p.CoworkerName = m.who(q.SessionID)
	}
	m.mu.Lock()
	if prev := m.pending[q.ID]; prev != nil {
		w.p.Item = prev.p.Item // asked again: the same item
	}
	m.pending[q.ID] = w // a question asked again (q.Problem) replaces its earlier round
	m.mu.Unlock()
	if w.p.Item == "" {
		w.p.Item = m.post(ctx, q, w.p.Coworker) // the native notification comes with it (inboxwatch.go)
	}
	m.emit.Emit(EventElicitationAsked, w.p)
	select {
	case a := <-w.answer:
		m.closeItem(w.p.Item, &a, "")
		m.emit.Emit(EventElicitationClosed, ElicitationClosed{ID: q.ID, SessionID: q.SessionID, Action: string(a.Action), Reason: "answered"})
		return a, nil
	case <-ctx.Done():
		m.mu.Lock()
		if m.pending[q.ID] == w {
			delete(m.pending, q.ID)
		}
		m.mu.Unlock()
		c := ElicitationClosed{ID: q.ID, SessionID: q.SessionID, Action: string(elicit.Cancel), Reason: elicitCancelled}
		switch {
		case errors.Is(context.Cause(ctx), elicit.ErrCompleted):
			c.Reason = elicitCompleted
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			c.Action, c.Reason = string(elicit.Decline), elicitExpired
		}
		m.closeItem(w.p.Item, nil, c.Reason)
		m.emit.Emit(EventElicitationClosed, c)
		return elicit.Answer{Action: elicit.Decline}, ctx.Err()
	}
}

// Answer answers the question id with action "accept" (content: the values
// by field name; for a URL question, none: the page is opened in the
// default browser now, and only now), "decline" or "cancel". An accept whose content fails the
// question's schema (q.Check) is refused with that error and the question
// stays open, so the dialog can show it; ErrNoSuchElicitation when the
// question is not waiting.
func (m *appElicitor) Answer(id, action string, content map[string]any) error {
	act := elicit.Action(action)
	if !act.Valid() {
		return fmt.Errorf("%q is not an answer; use accept, decline or cancel", action)
	}
	m.mu.Lock()
	w, ok := m.pending[id]
	m.mu.Unlock()
	if !ok {
		return ErrNoSuchElicitation
	}
	a := elicit.Answer{Action: act}
	if act == elicit.Accept && w.p.Question.Mode == elicit.ModeURL {
		// The person chose "Open": only now is the page opened (a program
		// starts: no lock is held). If it cannot be, the question stays
		// open and the dialog says why.
		if m.open == nil {
			return errors.New("this window cannot open links")
		}
		if err := m.open(w.p.Question.URL); err != nil {
			return fmt.Errorf("the page did not open: %w", err)
		}
	} else if act == elicit.Accept {
		if content == nil {
			content = map[string]any{}
		}
		if err := w.p.Question.Check(content); err != nil {
			return fmt.Errorf("the answer does not fit the form: %w", err)
		}
		a.Content = content
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.pending[id] != w { // answered, expired or asked again meanwhile
		return ErrNoSuchElicitation
	}
	delete(m.pending, id)
	w.answer <- a
	return nil
}

// Pending returns the questions waiting now, oldest first.
func (m *appElicitor) Pending() []PendingElicitation {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]PendingElicitation, 0, len(m.pending))
	for _, w := range m.pending {
		out = append(out, w.p)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Asked.Equal(out[j].Asked) {
			return out[i].Asked.Before(out[j].Asked)
		}
		return out[i].Question.ID < out[j].Question.ID
	})
	return out
}

// questionAsked is what a question item records (docs/inbox.md#next): the
// server, the message and the form's field names, never a value.
type questionAsked struct {
	Question   string   `json:"question"` // the elicitation's ID (the dialog's)
	Namespace  string   `json:"namespace"`
	ServerName string   `json:"server_name,omitempty"`
	Mode       string   `json:"mode"`
	Host       string   `json:"host,omitempty"`
	Message    string   `json:"message"`
	Fields     []string `json:"fields,omitempty"`
}

// post writes q as an open question item and returns its ID ("" when the
// journal cannot take it: the dialog still asks).
func (m *appElicitor) post(ctx context.Context, q elicit.Question, coworker string) string {
	if m.inbox == nil {
		return ""
	}
	b, err := m.inbox()
	if err != nil {
		return ""
	}
	a := questionAsked{Question: q.ID, Namespace: q.Namespace, ServerName: q.ServerName, Mode: q.Mode, Host: q.Host, Message: q.Message}
	for _, f := range q.Fields {
		a.Fields = append(a.Fields, f.Name)
	}
	raw, _ := json.Marshal(a)
	if coworker == "" {
		coworker = q.Namespace
	}
	it, err := b.Add(ctx, journal.InboxItem{Kind: journal.InboxQuestion, Coworker: coworker, SessionID: q.SessionID, TurnID: q.TurnID,
		InvocationID: q.Invocation, CallID: q.CallID, Tool: q.Tool, Asked: raw, Deadline: q.Deadline})
	if err != nil {
		return ""
	}
	return it.ID
}

// closeItem closes a question's item: answered by the window with the
// action only (the values go to the waiting call, never to the journal),
// or withdrawn with why.
func (m *appElicitor) closeItem(id string, a *elicit.Answer, why string) {
	if id == "" || m.inbox == nil {
		return
	}
	b, err := m.inbox()
	if err != nil {
		return
	}
	ctx := context.Background()
	if a != nil {
		raw, _ := json.Marshal(map[string]string{"action": string(a.Action)})
		if _, err := b.Answer(ctx, id, raw, "window"); err == nil {
			_, _ = b.Journal().ConsumeInboxItem(ctx, id)
		}
		return
	}
	status := journal.InboxCancelled
	if why == elicitExpired {
		status = journal.InboxExpired
	}
	_, _ = b.Withdraw(ctx, id, status, why)
}

// byItem returns the question whose inbox item is id.
func (m *appElicitor) byItem(id string) (PendingElicitation, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, w := range m.pending {
		if w.p.Item == id {
			return w.p, true
		}
	}
	return PendingElicitation{}, false
}
