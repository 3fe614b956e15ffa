package protocol

import (
	"context"
	"fmt"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/elicit"
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
	Question      elicit.Question   `json:"question"`
}

// ElicitationRespondParams answers an elicitation.required event: action
// accept (with content, the values by field name), decline or cancel.
type ElicitationRespondParams struct {
	ElicitationID string         `json:"elicitation_id"`
	Action        elicit.Action  `json:"action"`
	Content       map[string]any `json:"content,omitempty"`
}

type pendingQuestion struct {
	q  elicit.Question
	ch chan elicit.Answer
}

// Elicit implements elicit.Elicitor: it sends elicitation.required and
// waits for elicitation.respond, or for ctx (the question's deadline, a
// cancelled turn). An accept whose content does not pass the form is
// answered bad_request with the reason and the question stays open.
func (srv *Server) Elicit(ctx context.Context, q elicit.Question) (elicit.Answer, error) {
	ch := make(chan elicit.Answer, 1)
	srv.mu.Lock()
	if srv.questions == nil {
		srv.questions = map[string]pendingQuestion{}
	}
	srv.questions[q.ID] = pendingQuestion{q, ch}
	srv.mu.Unlock()
	defer func() {
		srv.mu.Lock()
		delete(srv.questions, q.ID)
		srv.mu.Unlock()
	}()
	srv.write(EventLine{Event: ElicitationEvent{Type: harness.EventElicitationRequired, ElicitationID: q.ID, Question: q}})
	select {
	case a := <-ch:
		return a, nil
	case <-ctx.Done():
		return elicit.Answer{}, ctx.Err()
	}
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
	if ok && p.Action == elicit.Accept {
		if cerr := pq.q.Check(p.Content); cerr != nil {
			srv.mu.Unlock()
			srv.bad(req, "the answer does not fit the form, and the question is still open: %v", cerr)
			return
		}
	}
	if ok {
		delete(srv.questions, p.ElicitationID)
	}
	srv.mu.Unlock()
	if !ok {
		srv.respond(req.ID, nil, &Error{CodeNotFound, fmt.Sprintf("no open question %q (answered already, or its call's time ran out)", p.ElicitationID)})
		return
	}
	a := elicit.Answer{Action: p.Action}
	if p.Action == elicit.Accept {
		a.Content = p.Content
		if a.Content == nil {
			a.Content = map[string]any{}
		}
	}
	pq.ch <- a
	srv.respond(req.ID, map[string]string{"elicitation_id": p.ElicitationID, "action": string(p.Action)}, nil)
}
