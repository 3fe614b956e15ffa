package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
)

// Parked runs (docs/inbox.md#unattended). A run with a prompter that does
// not wait (inbox.Parker) puts an approval in the inbox and the consent
// engine reports it with consent.SourceParked: the call is neither run
// nor refused (nothing of it is journaled but the inbox item), no answer
// is given to the model for it, and the turn stops with CodeParked. The
// session's state is the journal: the model's message asking for the
// call, without an answer.
//
// ResumeSession finds such a call (a call without an answer whose inbox
// item is open or answered) and keeps it pending instead of giving it the
// "not run" answer of a lost call. The next turn (Continue, or Send)
// first settles each pending call from its item: an approved call runs
// through the usual path, its executing row committed in the same commit
// that consumes the item (journal.Approval.InboxItem), so it runs at most
// once whatever crashes; a denied one is refused with the person's
// decision and the model is told so. Then the model continues.

// CodeParked: the turn stopped because a call waits on the person
// (TurnResult.Code, EventTurnFinished.Code); its inbox item says what.
const CodeParked = "waiting_on_you"

// ErrNothingToContinue is returned by Continue when no call of the
// session waits on an answered inbox item and the model has answered the
// last tool result.
var ErrNothingToContinue = errors.New("nothing to continue: no call of this session waits on an answered inbox item")

// ErrPendingCalls is returned by Send and Retry on a resumed session
// whose model message asked for calls that are parked in the inbox: their
// answers must come first, so Continue the session (once the items are
// answered) before sending.
var ErrPendingCalls = errors.New("calls of this session wait on the inbox; continue the session once they are answered, then send")

// WaitingError is returned by Continue while a pending call's inbox item
// is still open.
type WaitingError struct {
	SessionID string
	Items     []string // the open items' IDs
}

func (e *WaitingError) Error() string {
	return fmt.Sprintf("session %s still waits on you: inbox item %s is not answered yet", e.SessionID, strings.Join(e.Items, ", "))
}

// pendingCall is a call of the model parked in the inbox, found on resume.
type pendingCall struct {
	turnID string // the turn of the asking message
	call   model.ToolCall
	item   string // the inbox item's ID
}

type sendMode int

const (
	sendPrompt   sendMode = iota // a new user message
	sendRetry                    // the last prompt again (Retry)
	sendContinue                 // no message: settle the parked calls, then the model goes on (Continue)
)

// Pending returns the IDs of the inbox items this session's parked calls
// wait on (empty when none).
func (s *Session) Pending() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []string
	for _, p := range s.pending {
		ids = append(ids, p.item)
	}
	if s.budgetItem != "" {
		ids = append(ids, s.budgetItem)
	}
	return ids
}

// Continue runs a turn with no new user message: it settles the calls
// that were parked in the inbox (their items answered: an approved call
// runs once, a denied one is refused) and lets the model go on from their
// answers; with none parked, it lets the model go on from a last tool
// result it never replied to (a continuation whose process died). It
// returns *WaitingError while an item is still open and
// ErrNothingToContinue when there is nothing to go on from. The turn is
// journaled with an empty prompt.
func (s *Session) Continue(ctx context.Context, sink Sink) (*TurnResult, error) {
	s.turnMu.Lock()
	defer s.turnMu.Unlock()
	s.mu.Lock()
	pending := append([]pendingCall(nil), s.pending...)
	budget := s.budgetItem
	s.mu.Unlock()
	items := make([]string, 0, len(pending)+1)
	for _, p := range pending {
		items = append(items, p.item)
	}
	if budget != "" {
		items = append(items, budget)
	}
	if len(items) == 0 {
		// A continuation that stopped (its process died) after a parked
		// call was answered: the model has not replied to the last answer
		// yet, so it goes on from there.
		h := s.historyCopy()
		if len(h) == 0 || h[len(h)-1].Role != model.ToolRole {
			return nil, ErrNothingToContinue
		}
	}
	var open []string
	for _, id := range items {
		it, err := s.rt.journal.InboxItem(ctx, id)
		if err != nil {
			return nil, err
		}
		if it.Open() {
			open = append(open, it.ID)
		}
	}
	if len(open) > 0 {
		return nil, &WaitingError{SessionID: s.id, Items: open}
	}
	return s.send(ctx, "", sink, sendContinue)
}

// parkedItems returns, for a session being resumed, the inbox items that
// still hold a call (open or answered), by turn and call ID.
func (rt *Runtime) parkedItems(ctx context.Context, sessionID string) (map[string]journal.InboxItem, error) {
	items, err := rt.journal.Inbox(ctx, journal.InboxFilter{SessionID: sessionID,
		Statuses: []journal.InboxStatus{journal.InboxOpen, journal.InboxAnswered}})
	if err != nil {
		return nil, err
	}
	out := map[string]journal.InboxItem{}
	for _, it := range items {
		if it.Kind == journal.InboxApproval && it.CallID != "" {
			out[it.TurnID+"\x00"+it.CallID] = it
		}
	}
	return out, nil
}

// settlePending settles the parked calls at the start of a turn (see the
// comment at the top of this file). A call whose item was withdrawn or
// whose answer another process took gets the answer a lost call gets.
func (t *turn) settlePending(ctx context.Context) {
	s := t.s
	s.mu.Lock()
	pending := s.pending
	s.pending = nil
	s.mu.Unlock()
	bg := context.WithoutCancel(ctx)
	for _, p := range pending {
		pt := &turn{s: s, id: p.turnID, sink: t.sink} // the call is journaled with the turn that asked for it
		var msg model.Message
		it, err := s.rt.journal.InboxItem(bg, p.item)
		d := consent.Decision("")
		if err == nil && it.Status == journal.InboxAnswered {
			var raw string
			if json.Unmarshal(it.Answer, &raw) == nil && consent.Decision(raw).Valid() {
				d = consent.Decision(raw)
			}
		}
		if d == "" || t.stop != "" {
			msg = model.Message{Role: model.ToolRole, ToolCallID: p.call.ID, ToolName: p.call.Name, IsError: true, Text: pt.settledElsewhere(bg, p)}
		} else {
			msg = pt.answered(ctx, p, it, d)
			t.calls += pt.calls
			if pt.stop != "" && t.stop == "" {
				t.stop, t.code = pt.stop, pt.code
			}
		}
		pt.appendAnswer(bg, msg)
	}
}

// settledElsewhere is the answer of a parked call that is not run here:
// what the journal knows of it (its item withdrawn, or its answer taken by
// another process that then began the call).
func (t *turn) settledElsewhere(ctx context.Context, p pendingCall) string {
	invs, err := t.s.rt.journal.Invocations(ctx, t.s.id)
	if err == nil {
		for i := range invs {
			if invs[i].TurnID == p.turnID && invs[i].CallID == p.call.ID {
				return lostAnswer(&invs[i])
			}
		}
	}
	return "not run: the question about this call was withdrawn before anyone answered it, so it did not happen; ask for it again if it is still needed."
}

// answered runs (or refuses) a parked call with the decision of its inbox
// item.
func (t *turn) answered(ctx context.Context, p pendingCall, it journal.InboxItem, d consent.Decision) model.Message {
	s := t.s
	rtool, selected := s.res.ByAlias(p.call.Name)
	if !selected {
		rtool = nil
	}
	done := t.execCall(ctx, callReq{
		invID: journal.NewID("inv_"), callID: p.call.ID, alias: p.call.Name, rawArgs: p.call.Arguments, rtool: rtool,
		budget:      func() (string, string) { return "", "" }, // counted when it was asked
		notSelected: fmt.Sprintf("there is no tool %q for this coworker; use only the tools you were given", p.call.Name),
		forModel:    true,
		answered: &journal.Approval{Decision: string(d), Source: "inbox", InboxItem: it.ID,
			Reason: fmt.Sprintf("answered in the inbox by %s (item %s)", it.AnsweredBy, it.ID)},
	})
	return model.Message{Role: model.ToolRole, ToolCallID: p.call.ID, ToolName: p.call.Name, Text: done.text, IsError: done.isErr, Images: done.images}
}

// consentFromInbox is the consent phase of a parked call: the decision is
// its inbox item's answer. It returns the refusal's code and message, or
// "".
func (x *execution) consentFromInbox() (code, msg string) {
	s, t, r := x.s, x.t, x.r
	x.desc = r.rtool.Descriptor
	a := *r.answered
	a.SessionID, a.TurnID, a.InvocationID, a.CallID, a.Tool, a.Identity = s.id, t.id, r.invID, r.callID, r.rtool.Name, s.identity
	x.approval = &a
	if consent.Decision(a.Decision) == consent.DenyAlways {
		x.never(&a)
	}
	t.sink.emit(Event{Type: EventApprovalDecided, SessionID: s.id, TurnID: t.id, CallID: r.callID, Invocation: r.invID, Tool: r.rtool.Name,
		Status: a.Decision, Text: a.Reason, Source: a.Source, Origin: r.origin})
	if !consent.Decision(a.Decision).Allows() {
		return "denied", "you denied this call (" + a.Reason + ")"
	}
	return "", ""
}

// never applies a "Never" answered in the inbox (docs/consent.md#never):
// the deny policy is saved as the consent engine saves it, and the
// approval is journaled as deny.
func (x *execution) never(a *journal.Approval) {
	rt := x.r.rtool
	a.Decision = string(consent.Deny)
	a.Reason = fmt.Sprintf("you chose Never for %s in chats with this coworker (%s)", rt.Name, a.Reason)
	err := x.s.rt.journal.SaveUserPolicy(x.bg, x.s.res.Bundle.ID, rt.Name, consent.ApprovalDigest(rt.Pin.Digest, rt.Placement), string(consent.PolicyDeny))
	if err != nil {
		a.Reason += "; saving it failed: " + err.Error()
	}
}

// park reports a call parked in the inbox; nothing of it is journaled but
// its item, and the model is given no answer for it.
func (x *execution) park(msg string) callDone {
	x.t.sink.emit(Event{Type: EventToolFinished, SessionID: x.s.id, TurnID: x.t.id, CallID: x.r.callID, Invocation: x.r.invID, Tool: x.name,
		Alias: x.r.alias, Status: "parked", Error: msg, Code: CodeParked, Origin: x.r.origin})
	return callDone{text: "waiting on you: " + msg, isErr: true, code: CodeParked, errMsg: msg}
}

// parkedCode is the consent phase's code for a call put in the inbox.
const parkedCode = "parked"
