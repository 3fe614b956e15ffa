package protocol

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/elicit"
	"github.com/openworker/desktop/harness/inbox"
	"github.com/openworker/desktop/harness/journal"
)

// MethodElicitationRespond answers an elicitation.required event.
const MethodElicitationRespond = "elicitation.respond"

// ElicitationEvent is sent when an MCP server asks the person a question
// during a call (docs/stdio-protocol.md, docs/mcp.md#elicitation); reply
// with elicitation.respond and the same elicitation_id before
// question.deadline. It is sent again, with question.problem, when an
// answer the harness checked was refused.
type ElicitationEvent struct {
	Type          harness.EventType `json:"type"` // "elicitation.required"
	ElicitationID string            `json:"elicitation_id"`
	ItemID        string            `json:"item_id"` // its question item in the inbox (docs/inbox.md#askers)
	Question      elicit.Question   `json:"question"`
}

// ElicitationRespondParams answers an elicitation.required event: action
// accept (with content, the values by field name), decline or cancel.
type ElicitationRespondParams struct {
	ElicitationID string         `json:"elicitation_id"`
	Action        elicit.Action  `json:"action"`
	Content       map[string]any `json:"content,omitempty"`
}

// pendingQuestion is an open elicitation.required: its question item in
// the inbox decides who answers (a compare-and-set, docs/inbox.md), and
// the waiter only hands the accepted values to the waiting call — they
// are never written to the journal.
type pendingQuestion struct {
	q    elicit.Question
	item string
	mu   sync.Mutex     // held by elicitation.respond from its answer until the values are set
	got  map[string]any // the accepted values of the winning elicitation.respond
}

// Elicit implements elicit.Elicitor: it writes the question as a question
// item (the server, the message, the field names; docs/stdio-protocol.md#asked-items),
// sends elicitation.required with the item's ID and waits for the item's
// answer — elicitation.respond, or inbox.answer from any client — or for
// ctx (the question's deadline: the item expires; a cancelled turn: it is
// withdrawn). An accept whose content does not pass the form is answered
// bad_request with the reason and the question stays open.
func (srv *Server) Elicit(ctx context.Context, q elicit.Question) (elicit.Answer, error) {
	declined := elicit.Answer{Action: elicit.Decline}
	box := srv.box()
	if box == nil || box.Journal() == nil {
		return declined, inbox.ErrNoJournal
	}
	asked := inbox.QuestionAsked{Namespace: q.Namespace, ServerName: q.ServerName, Tool: q.Tool, Mode: q.Mode, Message: q.Message, URL: q.URL}
	for _, f := range q.Fields {
		asked.Fields = append(asked.Fields, f.Name)
	}
	raw, err := json.Marshal(asked)
	if err != nil {
		return declined, err
	}
	coworker := q.Namespace
	if s, err := box.Journal().Session(ctx, q.SessionID); err == nil && s.Coworker != "" {
		coworker = s.Coworker
	}
	it, err := box.Add(ctx, journal.InboxItem{Kind: journal.InboxQuestion, Coworker: coworker, SessionID: q.SessionID, TurnID: q.TurnID,
		InvocationID: q.Invocation, CallID: q.CallID, Tool: q.Tool, Asked: raw, Deadline: q.Deadline})
	if err != nil {
		return declined, fmt.Errorf("the question could not be put in the inbox, so it is declined: %w", err)
	}
	pq := &pendingQuestion{q: q, item: it.ID}
	srv.mu.Lock()
	if srv.questions == nil {
		srv.questions = map[string]*pendingQuestion{}
	}
	srv.questions[q.ID] = pq
	srv.mu.Unlock()
	defer func() {
		srv.mu.Lock()
		if srv.questions[q.ID] == pq {
			delete(srv.questions, q.ID)
		}
		srv.mu.Unlock()
	}()
	srv.write(EventLine{Event: ElicitationEvent{Type: harness.EventElicitationRequired, ElicitationID: q.ID, ItemID: it.ID, Question: q}})
	got, err := box.Wait(ctx, it.ID) // ctx's end withdraws the item: expired at the deadline, cancelled otherwise
	if err != nil || got.Status != journal.InboxAnswered {
		if err == nil {
			err = fmt.Errorf("the question's inbox item was closed without an answer (%s)", got.Status)
		}
		return declined, err
	}
	var a elicit.Answer
	if json.Unmarshal(got.Answer, &a) != nil || !a.Action.Valid() {
		return declined, fmt.Errorf("the question's inbox item has no action in its answer %s, so it is declined", got.Answer)
	}
	if a.Action == elicit.Accept {
		pq.mu.Lock() // an elicitation.respond that won sets its values before it lets go
		if pq.got != nil {
			a.Content = pq.got
		}
		pq.mu.Unlock()
		if a.Content == nil {
			a.Content = map[string]any{}
		}
	} else {
		a.Content = nil
	}
	_, _ = box.Journal().ConsumeInboxItem(context.WithoutCancel(ctx), it.ID)
	return a, nil
}

func (srv *Server) elicitationRespond(req Request) {
	var p ElicitationRespondParams
	err := strictParams(req.Params, &p)
	if err == nil && p.ElicitationID != "" && !p.Action.Valid() {
		err = fmt.Errorf("action %q is not accept, decline or cancel", p.Action)
	}
	if err != nil || p.ElicitationID == "" {
		srv.bad(req, "%selicitation.respond needs {\"elicitation_id\": ID, \"action\": accept|decline|cancel, \"content\": {FIELD: VALUE}}", why(err))
		return
	}
	srv.mu.Lock()
	pq, ok := srv.questions[p.ElicitationID]
	srv.mu.Unlock()
	if !ok {
		srv.respond(req.ID, nil, &Error{CodeNotFound, fmt.Sprintf("no open question %q (already answered, or its call's time ran out)", p.ElicitationID)})
		return
	}
	content := p.Content
	if p.Action == elicit.Accept {
		if content == nil {
			content = map[string]any{}
		}
		if cerr := pq.q.Check(content); cerr != nil {
			srv.bad(req, "the answer does not fit the form, and the question is still open: %v", cerr)
			return
		}
	}
	// The item records the action only; the values go to the waiting call.
	raw, _ := json.Marshal(map[string]string{"action": string(p.Action)})
	pq.mu.Lock()
	_, err = srv.box().Answer(context.Background(), pq.item, raw, "stdio")
	if err == nil && p.Action == elicit.Accept {
		pq.got = content
	}
	pq.mu.Unlock()
	if err != nil {
		srv.respond(req.ID, nil, &Error{CodeNotFound, fmt.Sprintf("no open question %q: %v", p.ElicitationID, err)})
		return
	}
	srv.respond(req.ID, map[string]string{"elicitation_id": p.ElicitationID, "item_id": pq.item, "action": string(p.Action)}, nil)
}
