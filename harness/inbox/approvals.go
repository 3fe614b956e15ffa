package inbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/journal"
)

// CheckAnswer reports whether answer fits an item of kind: an approval's
// answer is a consent.Decision as a JSON string ("allow_once",
// "allow_session", "allow_always", "deny"); a budget's is "continue" or
// "stop"; a reconciliation's is "applied" or "not_applied"; a question's
// and a sign-in's are any JSON object.
func CheckAnswer(kind journal.InboxKind, answer json.RawMessage) error {
	var s string
	switch kind {
	case journal.InboxApproval:
		if json.Unmarshal(answer, &s) != nil || !consent.Decision(s).Valid() {
			return fmt.Errorf("an approval's answer is one of %s, not %s", consent.OneOf(consent.Decisions()), clip(answer))
		}
	case journal.InboxBudget:
		if json.Unmarshal(answer, &s) != nil || (s != "continue" && s != "stop") {
			return fmt.Errorf("a budget's answer is \"continue\" or \"stop\", not %s", clip(answer))
		}
	case journal.InboxReconcile:
		if json.Unmarshal(answer, &s) != nil || (s != "applied" && s != "not_applied") {
			return fmt.Errorf("a reconciliation's answer is \"applied\" or \"not_applied\", not %s", clip(answer))
		}
	default:
		var m map[string]any
		if json.Unmarshal(answer, &m) != nil || m == nil {
			return fmt.Errorf("a %s's answer is a JSON object, not %s", kind, clip(answer))
		}
	}
	return nil
}

func clip(b []byte) string {
	if len(b) > 80 {
		return string(b[:80]) + "…"
	}
	return string(b)
}

// Decision is an approval item's answer as a decision; "" when the item
// has none (open, withdrawn) or it is not a decision.
func Decision(it journal.InboxItem) consent.Decision {
	var s string
	if it.Status != journal.InboxAnswered && it.Status != journal.InboxConsumed {
		return ""
	}
	if json.Unmarshal(it.Answer, &s) != nil || !consent.Decision(s).Valid() {
		return ""
	}
	return consent.Decision(s)
}

// AnswerDecision answers an approval item with d.
func (b *Inbox) AnswerDecision(ctx context.Context, id string, d consent.Decision, by string) (journal.InboxItem, error) {
	raw, _ := json.Marshal(string(d))
	return b.Answer(ctx, id, raw, by)
}

// Prompter is a consent.Prompter that asks through the inbox: each prompt
// is an approval item, written before anyone is asked, and consumed when
// the prompt returns its answer. Ask, when set,
// shows the item to a person who can answer now (the terminal, a window)
// and its decision is given as an answer by AskedBy; meanwhile any other
// answer to the item (the stdio protocol's approval.respond, `openworker
// inbox answer` in another process) is taken as well, and the first to
// close the item wins. When the prompt's ctx ends (the consent engine's
// timeout, the turn's end) the item is withdrawn, unless an answer won
// that race.
//
// Ask gets the item's ID (for a person to answer it elsewhere) and a ctx
// that ends when the item is closed by someone else; it returns the
// person's decision, or an error if it cannot ask (no terminal): the item
// is then withdrawn and the error returned, as before the inbox. With Ask
// nil the prompt waits only for answers given to the inbox (the stdio
// protocol: Show announces the item).
type Prompter struct {
	Inbox   *Inbox
	Ask     func(ctx context.Context, id string, r consent.Request) (consent.Decision, error)
	AskedBy string // who Ask's answers are from: "terminal", "window", ...
	// Show, when set, is called once the item is written (for example to
	// send approval.required with the item's ID). It must not block.
	Show func(it journal.InboxItem, r consent.Request)
}

// Prompt implements consent.Prompter.
func (p *Prompter) Prompt(ctx context.Context, r consent.Request) (consent.Decision, error) {
	it, err := p.post(ctx, r)
	if err != nil {
		return consent.Deny, err
	}
	if p.Ask == nil {
		return p.decided(p.Inbox.Wait(ctx, it.ID))
	}
	askCtx, stopAsking := context.WithCancel(ctx)
	defer stopAsking()
	answered := make(chan askReply, 1)
	go func() {
		d, err := p.Ask(askCtx, it.ID, r)
		answered <- askReply{d, err}
	}()
	watchCtx, stopWatching := context.WithCancel(ctx)
	defer stopWatching()
	watched := make(chan journal.InboxItem, 1)
	go func() {
		got, err := p.Inbox.Watch(watchCtx, it.ID)
		if err == nil {
			watched <- got
		}
	}()
	select {
	case got := <-watched: // closed by someone else
		stopAsking()
		return p.decided(got, nil)
	case <-ctx.Done():
		stopAsking()
		return p.decided(p.Inbox.Wait(ctx, it.ID)) // withdraws it, unless an answer came first
	case a := <-answered:
		stopWatching()
		return p.answer(ctx, it.ID, a)
	}
}

// askReply is what Ask returned.
type askReply struct {
	d   consent.Decision
	err error
}

// post writes r as an approval item (bounded by ctx's deadline) and shows
// it.
func (p *Prompter) post(ctx context.Context, r consent.Request) (journal.InboxItem, error) {
	asked, err := json.Marshal(r)
	if err != nil {
		return journal.InboxItem{}, err
	}
	it := journal.InboxItem{Kind: journal.InboxApproval, Coworker: r.Coworker, SessionID: r.SessionID, TurnID: r.TurnID,
		CallID: r.CallID, Tool: r.Tool, Asked: asked}
	if r.Sampling != nil {
		it.Tool = ""
	}
	if dl, ok := ctx.Deadline(); ok {
		it.Deadline = dl
	}
	it, err = p.Inbox.Add(ctx, it)
	if err != nil {
		return it, fmt.Errorf("the approval could not be put in the inbox, so no one was asked: %w", err)
	}
	if p.Show != nil {
		p.Show(it, r)
	}
	return it, nil
}

// answer records Ask's reply a as the answer to item id: without a
// decision the item is withdrawn; an answer given elsewhere first stands.
func (p *Prompter) answer(ctx context.Context, id string, a askReply) (consent.Decision, error) {
	if ctx.Err() != nil {
		return p.decided(p.Inbox.Wait(ctx, id))
	}
	if a.err != nil || !a.d.Valid() {
		got, err := p.Inbox.Withdraw(context.WithoutCancel(ctx), id, journal.InboxCancelled, "could not ask: "+errText(a.err))
		if err == nil && got.Status == journal.InboxAnswered {
			return p.decided(got, nil) // answered elsewhere meanwhile
		}
		return a.d, a.err
	}
	got, err := p.Inbox.AnswerDecision(context.WithoutCancel(ctx), id, a.d, p.AskedBy)
	var ae *journal.AnsweredError
	if errors.As(err, &ae) {
		return p.decided(ae.Item, nil) // someone else answered first; theirs stands
	}
	if err != nil {
		return consent.Deny, err
	}
	return p.decided(got, nil)
}

func errText(err error) string {
	if err == nil {
		return "no decision"
	}
	return err.Error()
}

// decided turns a closed item into the prompter's answer: its decision,
// or Deny with why it has none.
func (p *Prompter) decided(it journal.InboxItem, err error) (consent.Decision, error) {
	if d := Decision(it); d != "" {
		// The waiting prompt takes the answer: the item is done, and no
		// parked run will look for it (docs/inbox.md#rules).
		if it.Status == journal.InboxAnswered {
			if _, cerr := p.Inbox.j.ConsumeInboxItem(context.Background(), it.ID); cerr != nil && !errors.Is(cerr, journal.ErrAlreadyConsumed) {
				return consent.Deny, fmt.Errorf("the answer to inbox item %s could not be recorded as taken: %w", it.ID, cerr)
			}
		}
		return d, nil
	}
	if err == nil {
		err = fmt.Errorf("inbox item %s was %s (%s) without an answer", it.ID, it.Status, it.AnsweredBy)
	}
	return consent.Deny, err
}

// Parker is the consent.Prompter of an unattended run
// (docs/inbox.md#unattended): it never waits. Each approval becomes an
// open inbox item and Prompt returns an error wrapping consent.ErrParked
// that names it, so the run parks and continues once the item is answered
// (harness.Session.Continue). A sampling request (a server asking to use
// the model from inside a running call) cannot outlive that call: it is
// refused, and nothing is parked.
type Parker struct {
	Inbox *Inbox
}

// Prompt implements consent.Prompter.
func (p *Parker) Prompt(ctx context.Context, r consent.Request) (consent.Decision, error) {
	if r.Sampling != nil {
		return consent.Deny, fmt.Errorf("an unattended run asks no one whether %s may use your model; the sampling request is refused", r.Sampling.Namespace)
	}
	asked, err := json.Marshal(r)
	if err != nil {
		return consent.Deny, err
	}
	it, err := p.Inbox.Add(ctx, journal.InboxItem{Kind: journal.InboxApproval, Coworker: r.Coworker, SessionID: r.SessionID,
		TurnID: r.TurnID, CallID: r.CallID, Tool: r.Tool, Asked: asked})
	if err != nil {
		return consent.Deny, fmt.Errorf("the approval could not be put in the inbox: %w", err)
	}
	return consent.Deny, fmt.Errorf("%w: inbox item %s asks whether %s may run", consent.ErrParked, it.ID, r.Tool)
}
