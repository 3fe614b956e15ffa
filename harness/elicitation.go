package harness

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/elicit"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/mcp"
)

// Elicitation, form mode (docs/mcp.md#elicitation): an MCP server's
// question during a call is asked through SessionOptions.Elicitor, one
// question of a call at a time, at most elicit.MaxPerCall per call, never
// past the call's bound less elicit.Margin, never in bypass mode. Each
// question is journaled (journal.Elicitation: who asked, the invocation,
// the field names and the action, never the values) and reported with
// EventElicitationRequired and EventElicitationAnswered.

// callAsker is the mcp.Asker of one call.
type callAsker struct {
	t               *turn
	inv, callID, nm string // invocation, the model's call id, the qualified tool name
	mu              sync.Mutex
	asked           int
	now             func() time.Time
}

func (t *turn) asker(inv, callID, tool string) *callAsker {
	return &callAsker{t: t, inv: inv, callID: callID, nm: tool, now: time.Now}
}

// Refused journals a question that was refused before anyone saw it.
func (a *callAsker) Refused(q mcp.Asked, why error) {
	a.mu.Lock()
	a.asked++
	seq := a.asked
	a.mu.Unlock()
	var names []string
	if q.Form != nil {
		names = q.Form.Names()
	}
	a.finish(q, "", seq, names, elicit.Decline, journal.ElicitByRefused, why.Error())
}

// Ask asks the session's Elicitor and returns the answer to send; see the
// rules above.
func (a *callAsker) Ask(ctx context.Context, q mcp.Asked) elicit.Answer {
	a.mu.Lock() // one question of a call at a time
	defer a.mu.Unlock()
	a.asked++
	seq := a.asked
	names := q.Form.Names()
	id := journal.NewID("eli_")
	s := a.t.s
	decline := elicit.Answer{Action: elicit.Decline}
	switch {
	case seq > elicit.MaxPerCall:
		a.finish(q, id, seq, names, elicit.Decline, journal.ElicitByLimit,
			fmt.Sprintf("the call asked more than %d questions; the rest are declined without asking", elicit.MaxPerCall))
		return decline
	case s.opts.Approve == consent.Bypass:
		a.finish(q, id, seq, names, elicit.Decline, journal.ElicitByBypass, "bypass mode never answers a question: questions are for the person")
		return decline
	case s.opts.Elicitor == nil:
		a.finish(q, id, seq, names, elicit.Decline, journal.ElicitByNoOne, "no one to ask: the host has no elicitor")
		return decline
	}
	deadline := a.now().Add(s.rt.opts.Limits.CallTimeout)
	if d, ok := ctx.Deadline(); ok {
		deadline = d
	}
	deadline = deadline.Add(-elicit.Margin)
	qctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	eq := elicit.NewQuestion(id, q.Message, q.Form)
	eq.Namespace, eq.ServerName, eq.SessionID, eq.TurnID = q.Namespace, q.ServerName, s.id, a.t.id
	eq.Invocation, eq.CallID, eq.Tool, eq.Deadline, eq.Seq = a.inv, a.callID, a.nm, deadline, seq
	a.t.sink.emit(Event{Type: EventElicitationRequired, SessionID: s.id, TurnID: a.t.id, CallID: a.callID, Invocation: a.inv, Tool: a.nm, Elicitation: id})
	for {
		ans, err := s.opts.Elicitor.Elicit(qctx, eq)
		switch {
		case qctx.Err() != nil && ctx.Err() == nil && errors.Is(qctx.Err(), context.DeadlineExceeded):
			a.finish(q, id, seq, names, elicit.Decline, journal.ElicitByBound,
				"unanswered before the call's time bound; declined (the bound is not extended)")
			return decline
		case qctx.Err() != nil:
			a.finish(q, id, seq, names, elicit.Cancel, journal.ElicitByCancelled, "the call ended while the question was open")
			return elicit.Answer{Action: elicit.Cancel}
		case errors.Is(err, elicit.ErrNoPerson):
			a.finish(q, id, seq, names, elicit.Decline, journal.ElicitByNoOne, err.Error())
			return decline
		case err != nil:
			a.finish(q, id, seq, names, elicit.Decline, journal.ElicitByPerson, "the host failed to ask: "+err.Error())
			return decline
		case !ans.Action.Valid():
			a.finish(q, id, seq, names, elicit.Decline, journal.ElicitByPerson, fmt.Sprintf("the host answered %q, not accept, decline or cancel", ans.Action))
			return decline
		case ans.Action != elicit.Accept:
			a.finish(q, id, seq, names, ans.Action, journal.ElicitByPerson, "")
			return elicit.Answer{Action: ans.Action}
		}
		if ans.Content == nil {
			ans.Content = map[string]any{}
		}
		if cerr := eq.Check(ans.Content); cerr != nil {
			eq.Problem, eq.Previous = cerr.Error(), ans.Content // asked again (docs/mcp.md#elicitation)
			continue
		}
		a.finish(q, id, seq, names, elicit.Accept, journal.ElicitByPerson, "")
		return ans
	}
}

// finish journals one question and reports it.
func (a *callAsker) finish(q mcp.Asked, id string, seq int, names []string, act elicit.Action, source, reason string) {
	s := a.t.s
	e := journal.Elicitation{SessionID: s.id, TurnID: a.t.id, InvocationID: a.inv, Namespace: q.Namespace, ServerName: q.ServerName,
		Mode: q.Mode, Seq: seq, Fields: names, Action: string(act), Source: source, Reason: reason}
	if err := s.rt.journal.RecordElicitation(context.Background(), e); err != nil {
		s.rt.opts.Logger.Error("journal elicitation", "invocation", a.inv, "err", err)
	}
	a.t.sink.emit(Event{Type: EventElicitationAnswered, SessionID: s.id, TurnID: a.t.id, CallID: a.callID, Invocation: a.inv, Tool: a.nm,
		Elicitation: id, Status: string(act), Source: source, Text: reason})
}

// strayQuestion journals a question no running call asked (declined).
func (rt *Runtime) strayQuestion(q mcp.Asked, why string) {
	var names []string
	if q.Form != nil {
		names = q.Form.Names()
	}
	e := journal.Elicitation{Namespace: q.Namespace, ServerName: q.ServerName, Mode: q.Mode, Fields: names,
		Action: string(elicit.Decline), Source: journal.ElicitByStray, Reason: why}
	if err := rt.journal.RecordElicitation(context.Background(), e); err != nil {
		rt.opts.Logger.Error("journal stray elicitation", "namespace", q.Namespace, "err", err)
	}
}
