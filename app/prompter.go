package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/inbox"
	"github.com/openworker/desktop/harness/journal"
)

// PendingApproval is a consent prompt waiting for the person
// (docs/consent.md): ID is its inbox item's (docs/inbox.md#item).
type PendingApproval struct {
	ID       string          `json:"id"`
	Request  consent.Request `json:"request"`
	Deadline time.Time       `json:"deadline"` // when it is taken as a deny; zero if none
}

// ApprovalClosed says a prompt is over: answered (here or elsewhere),
// timed out or cancelled.
type ApprovalClosed struct {
	ID        string           `json:"id"`
	SessionID string           `json:"session_id"`
	Decision  consent.Decision `json:"decision"`
	Reason    string           `json:"reason"`
}

// ErrNoSuchApproval is returned by Respond for an id that is no inbox
// approval. An item answered or withdrawn first is an error matching
// journal.ErrAlreadyAnswered that says by whom and with what.
var ErrNoSuchApproval = errors.New("this approval is no longer waiting (it was answered, timed out or cancelled)")

// modalPrompter is the in-app consent.Prompter, an inbox prompter
// (docs/inbox.md#askers): each prompt is an approval item, written before
// the UI is told (EventApprovalRequest with the item's ID), answered by
// Respond (answered_by "window"), by the Inbox screen, or by anyone else
// on the same journal (`openworker inbox answer`): the first answer wins.
// When ctx ends (the engine's timeout, a cancelled turn) the item is
// withdrawn and the prompt is a deny. A chat that runs on its own
// (unattended) parks instead of asking (inbox.Parker). Safe for
// concurrent use; it holds no question in memory but which chats run on
// their own.
type modalPrompter struct {
	emit  Emitter
	inbox func() (*inbox.Inbox, error)

	mu         sync.Mutex
	unattended map[string]bool // sessions that run on their own
}

func newModalPrompter(emit Emitter, box func() (*inbox.Inbox, error)) *modalPrompter {
	return &modalPrompter{emit: emit, inbox: box, unattended: map[string]bool{}}
}

// setUnattended marks a chat as running on its own (or not).
func (m *modalPrompter) setUnattended(sessionID string, on bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if on {
		m.unattended[sessionID] = true
	} else {
		delete(m.unattended, sessionID)
	}
}

func (m *modalPrompter) isUnattended(sessionID string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.unattended[sessionID]
}

// Prompt implements consent.Prompter.
func (m *modalPrompter) Prompt(ctx context.Context, req consent.Request) (consent.Decision, error) {
	b, err := m.inbox()
	if err != nil {
		return consent.Deny, err
	}
	if m.isUnattended(req.SessionID) {
		return (&inbox.Parker{Inbox: b}).Prompt(ctx, req)
	}
	var id string
	p := &inbox.Prompter{Inbox: b, Show: func(it journal.InboxItem, r consent.Request) {
		id = it.ID
		m.emit.Emit(EventApprovalRequest, PendingApproval{ID: it.ID, Request: r, Deadline: it.Deadline.UTC()})
	}}
	d, err := p.Prompt(ctx, req)
	if id == "" { // never shown: the item could not be written
		return d, err
	}
	c := ApprovalClosed{ID: id, SessionID: req.SessionID, Decision: d, Reason: "answered"}
	switch {
	case err == nil:
		if it, ierr := b.Item(context.WithoutCancel(ctx), id); ierr == nil && it.AnsweredBy != "window" {
			c.Reason = "answered by " + it.AnsweredBy
		}
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		c.Decision, c.Reason = consent.Deny, "nobody answered in time; denied"
	case ctx.Err() != nil:
		c.Decision, c.Reason = consent.Deny, "the turn was cancelled"
	default:
		c.Decision, c.Reason = consent.Deny, err.Error()
	}
	m.emit.Emit(EventApprovalClosed, c)
	return d, err
}

// Respond answers the approval item id from the window. It fails with
// ErrNoSuchApproval when there is no such approval, with an error matching
// journal.ErrAlreadyAnswered (saying who answered what) when it was closed
// first, for a decision that is not one of the five answers of
// docs/consent.md, and for allow_session or allow_always on a sampling
// prompt (docs/consent.md#sampling; the prompt stays open).
func (m *modalPrompter) Respond(id string, d consent.Decision) error {
	if _, err := consent.ParseDecision(string(d)); err != nil {
		return err
	}
	b, err := m.inbox()
	if err != nil {
		return err
	}
	ctx := context.Background()
	it, err := b.Item(ctx, id)
	if errors.Is(err, journal.ErrNotFound) || (err == nil && it.Kind != journal.InboxApproval) {
		return ErrNoSuchApproval
	}
	if err != nil {
		return err
	}
	if r, ok := askedRequest(it); ok && r.Sampling != nil && d != consent.AllowOnce && d != consent.Deny {
		return errSamplingOnce(d) // sampling.go
	}
	_, err = b.AnswerDecision(ctx, id, d, "window")
	var ae *journal.AnsweredError
	if errors.As(err, &ae) {
		return fmt.Errorf("this approval is no longer waiting: %w", err)
	}
	return err
}

// Pending returns the prompts the window is asked now, oldest first: the
// open approval items of chats open here that do not run on their own
// (parked items are in the Inbox screen).
func (m *modalPrompter) Pending(live func(sessionID string) bool) ([]PendingApproval, error) {
	b, err := m.inbox()
	if err != nil {
		return nil, err
	}
	items, err := b.Journal().Inbox(context.Background(), journal.InboxFilter{})
	if err != nil {
		return nil, err
	}
	out := []PendingApproval{}
	for _, it := range items {
		r, ok := askedRequest(it)
		if !ok || it.Deadline.IsZero() || m.isUnattended(it.SessionID) || (live != nil && !live(it.SessionID)) {
			continue
		}
		out = append(out, PendingApproval{ID: it.ID, Request: r, Deadline: it.Deadline.UTC()})
	}
	return out, nil
}

// askedRequest is an approval item's consent request.
func askedRequest(it journal.InboxItem) (consent.Request, bool) {
	var r consent.Request
	if it.Kind != journal.InboxApproval || json.Unmarshal(it.Asked, &r) != nil {
		return r, false
	}
	return r, true
}
