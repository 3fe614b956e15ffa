package harness

import (
	"context"
	"fmt"
	"net/url"
	"sync"

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
}

func (t *turn) asker(inv, callID, tool string) *callAsker {
	return &callAsker{t: t, inv: inv, callID: callID, nm: tool}
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
	var eq elicit.Question
	if q.Mode == elicit.ModeURL {
		u, _ := url.Parse(q.URL) // the provider's elicit.CheckURL passed it
		eq = elicit.NewURLQuestion(id, q.Message, u, q.Host)
	} else {
		eq = elicit.NewQuestion(id, q.Message, q.Form)
	}
	eq.Namespace, eq.ServerName, eq.SessionID, eq.TurnID = q.Namespace, q.ServerName, s.id, a.t.id
	eq.Invocation, eq.CallID, eq.Tool, eq.Seq = a.inv, a.callID, a.nm, seq
	a.t.sink.emit(Event{Type: EventElicitationRequired, SessionID: s.id, TurnID: a.t.id, CallID: a.callID, Invocation: a.inv, Tool: a.nm, Elicitation: id})
	ans, source, reason := elicit.Ask(ctx, s.opts.Elicitor, eq) // ctx carries the call's bound
	a.finish(q, id, seq, names, ans.Action, string(source), reason)
	return ans
}

// finish journals one question and reports it.
func (a *callAsker) finish(q mcp.Asked, id string, seq int, names []string, act elicit.Action, source, reason string) {
	s := a.t.s
	e := journal.Elicitation{SessionID: s.id, TurnID: a.t.id, InvocationID: a.inv, Namespace: q.Namespace, ServerName: q.ServerName,
		Mode: q.Mode, Host: q.Host, Seq: seq, Fields: names, Action: string(act), Source: source, Reason: reason}
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
	e := journal.Elicitation{Namespace: q.Namespace, ServerName: q.ServerName, Mode: q.Mode, Host: q.Host, Fields: names,
		Action: string(elicit.Decline), Source: journal.ElicitByStray, Reason: why}
	if err := rt.journal.RecordElicitation(context.Background(), e); err != nil {
		rt.opts.Logger.Error("journal stray elicitation", "namespace", q.Namespace, "err", err)
	}
}
