package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/journal"
)

// Inbox is the Inbox screen (docs/app.md#inbox): every open inbox item
// of the journal — asked by a chat here, a parked unattended chat, a
// schedule, or another process on the same journal — with its coworker,
// what it asks and since when, answerable there. An answer to an item a
// run parked on continues that run at once (Chats.continueParked). It has
// no state of its own: the items are the journal's.
type Inbox struct {
	*env
	engine   *engine
	inboxes  *inboxWatch
	prompter *modalPrompter
	elicitor *appElicitor
	chats    *Chats
}

// InboxEntry is one open item as the Inbox screen shows it.
type InboxEntry struct {
	ID        string          `json:"id"`
	Kind      string          `json:"kind"` // approval, question, signin, budget, reconcile
	Coworker  string          `json:"coworker"`
	SessionID string          `json:"session_id"`
	Tool      string          `json:"tool"`
	What      string          `json:"what"`  // what it asks, in words
	Asked     json.RawMessage `json:"asked"` // exactly what is asked (docs/inbox.md#item)
	CreatedAt time.Time       `json:"created_at"`
	Deadline  time.Time       `json:"deadline"` // zero: it waits until answered
	// Parked: the run stopped and goes on once this is answered; else a
	// run waits on it now (its dialog is up in a chat).
	Parked bool `json:"parked"`
	// Answers are the answers the screen offers (a question or a sign-in:
	// "show", which brings up its dialog).
	Answers []string `json:"answers"`
}

// Items lists the open items, oldest first.
func (x *Inbox) Items() ([]InboxEntry, error) {
	b, err := x.inboxes.inbox()
	if err != nil {
		return nil, err
	}
	items, err := b.Journal().Inbox(x.base, journal.InboxFilter{})
	if err != nil {
		return nil, err
	}
	out := make([]InboxEntry, 0, len(items))
	for _, it := range items {
		out = append(out, entryOf(it))
	}
	return out, nil
}

// Count is how many items are open (the sidebar's badge).
func (x *Inbox) Count() (int, error) {
	items, err := x.Items()
	return len(items), err
}

// entryOf describes an item for the screen.
func entryOf(it journal.InboxItem) InboxEntry {
	e := InboxEntry{ID: it.ID, Kind: string(it.Kind), Coworker: it.Coworker, SessionID: it.SessionID, Tool: it.Tool, Asked: it.Asked,
		CreatedAt: it.CreatedAt, Deadline: it.Deadline, Parked: it.Deadline.IsZero() && it.Kind == journal.InboxApproval}
	switch it.Kind {
	case journal.InboxApproval:
		r, _ := askedRequest(it)
		e.What = fmt.Sprintf("May it run %s %s?", r.Tool, clipText(strings.TrimSpace(string(r.Arguments)), 200))
		if r.Sampling != nil {
			e.What, e.Answers = samplingNotice(r), []string{"allow_once", "deny"}
		} else {
			e.Answers = []string{"allow_once", "allow_session", "deny"}
		}
	case journal.InboxQuestion:
		var q questionAsked
		_ = json.Unmarshal(it.Asked, &q)
		e.What, e.Answers = fmt.Sprintf("%s asks: %s", q.Namespace, clipText(q.Message, 200)), []string{"show"}
	case journal.InboxSignIn:
		var s struct {
			Server     string `json:"server"`
			SignInHost string `json:"sign_in_host"`
		}
		_ = json.Unmarshal(it.Asked, &s)
		e.What = fmt.Sprintf("Sign in to %s (at %s); the sign-in dialog is open in the window.", s.Server, s.SignInHost)
	case journal.InboxBudget:
		e.What, e.Answers = "It reached a limit: continue or stop? "+clipText(string(it.Asked), 200), []string{"continue", "stop"}
	case journal.InboxReconcile:
		e.What, e.Answers = "Was this call applied? "+clipText(string(it.Asked), 200), []string{"applied", "not_applied"}
	}
	return e
}

// Answer answers the open item id from the Inbox screen (answered_by
// "window"): for an approval "allow_once", "allow_session",
// "allow_always" or "deny"; for a budget "continue" or "stop"; for a
// reconciliation "applied" or "not_applied"; for a question "show"
// brings up its dialog (its values are typed there, never stored in the
// item). An item answered first elsewhere is an error saying by whom and
// with what (journal.ErrAlreadyAnswered). Answering the last open item a
// parked run waits on continues that run at once, in the background; its
// events stream to its chat.
func (x *Inbox) Answer(id, answer string) error {
	b, err := x.inboxes.inbox()
	if err != nil {
		return err
	}
	it, err := b.Item(x.base, id)
	if err != nil {
		return err
	}
	switch it.Kind {
	case journal.InboxApproval:
		err = x.prompter.Respond(id, consent.Decision(answer))
	case journal.InboxQuestion:
		p, ok := x.elicitor.byItem(id)
		if !ok || answer != "show" {
			return errors.New("this question is answered in its dialog, while the tool call that asks it runs; that call has ended")
		}
		x.emit.Emit(EventElicitationAsked, p)
		return nil
	case journal.InboxSignIn:
		return errors.New("a sign-in is answered in its dialog in the window")
	default:
		raw, _ := json.Marshal(answer)
		_, err = b.Answer(x.base, id, raw, "window")
	}
	if err != nil {
		var ae *journal.AnsweredError
		if errors.As(err, &ae) && !strings.Contains(err.Error(), "no longer waiting") {
			err = fmt.Errorf("this item is no longer waiting: %w", err)
		}
		return err
	}
	x.inboxes.changed()
	if it.SessionID != "" && it.Deadline.IsZero() {
		go x.chats.continueParked(context.WithoutCancel(x.base), it.SessionID)
	}
	return nil
}
