// Package inbox is the harness's one way to ask the person and wait
// (docs/inbox.md): everything that waits on the person — a tool approval,
// a server's question, a sign-in, a budget pause, a reconciliation — is an
// item in the journal's inbox table, written before anyone is asked and
// closed by one compare-and-set, so an answer from the window, the
// terminal, the stdio protocol or `openworker inbox answer` in another
// process reaches the same item and exactly one of them wins.
//
//	b := inbox.New(j, nil)
//	it, err := b.Add(ctx, journal.InboxItem{Kind: journal.InboxApproval, Coworker: "demo", Asked: req})
//	... show it; an answer arrives by b.Answer(ctx, it.ID, answer, "stdio") ...
//	it, err = b.Wait(ctx, it.ID) // the winning answer, or ctx's end (the item is then withdrawn)
//
// An Inbox is safe for concurrent use. Answers given through the same Inbox
// wake its waiters at once; answers from other processes are seen within
// Options.Poll.
package inbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/openworker/desktop/harness/journal"
)

// DefaultPoll is how often Wait reads an item to see answers given by
// other processes.
const DefaultPoll = 500 * time.Millisecond

// Options configures an Inbox; the zero value is usable.
type Options struct {
	Poll time.Duration // 0: DefaultPoll
	// OnAdd, when set, is called after an item is written (for example to
	// send an inbox.item event). It must not block.
	OnAdd func(journal.InboxItem)
	// OnClose, when set, is called after this Inbox closed an item
	// (answered it, or withdrew it). It must not block.
	OnClose func(journal.InboxItem)
}

// Inbox reads and answers the inbox items of one journal.
type Inbox struct {
	j    *journal.Journal
	opts Options

	mu      sync.Mutex
	waiters map[string][]chan struct{}
}

// New returns the inbox of j; o may be nil.
func New(j *journal.Journal, o *Options) *Inbox {
	b := &Inbox{j: j, waiters: map[string][]chan struct{}{}}
	if o != nil {
		b.opts = *o
	}
	if b.opts.Poll <= 0 {
		b.opts.Poll = DefaultPoll
	}
	return b
}

// ErrNoJournal is the error of an inbox with no journal to keep its items
// in (a runtime opened without one): found by FuzzServe (harness/protocol),
// where answering an approval crashed the server.
var ErrNoJournal = errors.New("there is no journal, so there is no inbox")

// Journal returns the journal the items live in.
func (b *Inbox) Journal() *journal.Journal { return b.j }

// Add writes an open item (journal.AddInboxItem) and returns it.
func (b *Inbox) Add(ctx context.Context, it journal.InboxItem) (journal.InboxItem, error) {
	if b.j == nil {
		return it, ErrNoJournal
	}
	it, err := b.j.AddInboxItem(ctx, it)
	if err == nil && b.opts.OnAdd != nil {
		b.opts.OnAdd(it)
	}
	return it, err
}

// Item returns one item.
func (b *Inbox) Item(ctx context.Context, id string) (journal.InboxItem, error) {
	if b.j == nil {
		return journal.InboxItem{}, ErrNoJournal
	}
	return b.j.InboxItem(ctx, id)
}

// Answer closes an open item with answer, by whom, if no one did first.
// The answer must fit the item's kind (CheckAnswer). The loser of a race
// gets an *journal.AnsweredError (errors.Is journal.ErrAlreadyAnswered)
// saying who answered what.
func (b *Inbox) Answer(ctx context.Context, id string, answer json.RawMessage, by string) (journal.InboxItem, error) {
	if b.j == nil {
		return journal.InboxItem{}, ErrNoJournal
	}
	it, err := b.j.InboxItem(ctx, id)
	if err != nil {
		return it, err
	}
	if err := CheckAnswer(it.Kind, answer); err != nil {
		return it, fmt.Errorf("inbox item %s: %w", id, err)
	}
	it, err = b.j.AnswerInboxItem(ctx, id, answer, by)
	if err == nil {
		b.closed(it)
	}
	return it, err
}

// Withdraw closes an open item without an answer (journal.InboxCancelled
// or journal.InboxExpired). If an answer won the race it returns that
// answered item and a nil error: the caller honours the answer.
func (b *Inbox) Withdraw(ctx context.Context, id string, status journal.InboxStatus, by string) (journal.InboxItem, error) {
	if b.j == nil {
		return journal.InboxItem{}, ErrNoJournal
	}
	it, err := b.j.CloseInboxItem(ctx, id, status, by)
	var ae *journal.AnsweredError
	if errors.As(err, &ae) {
		return ae.Item, nil
	}
	if err == nil {
		b.closed(it)
	}
	return it, err
}

func (b *Inbox) closed(it journal.InboxItem) {
	b.mu.Lock()
	ws := b.waiters[it.ID]
	delete(b.waiters, it.ID)
	b.mu.Unlock()
	for _, w := range ws {
		close(w)
	}
	if b.opts.OnClose != nil {
		b.opts.OnClose(it)
	}
}

// Wait returns the item once it is closed (answered, or withdrawn by
// someone). If ctx ends first, Wait withdraws the item — expired when
// ctx's deadline passed, cancelled otherwise — unless an answer wins that
// race, in which case it returns the answered item; otherwise it returns
// the withdrawn item and ctx's error.
func (b *Inbox) Wait(ctx context.Context, id string) (journal.InboxItem, error) {
	it, err := b.Watch(ctx, id)
	if err == nil || ctx.Err() == nil {
		return it, err
	}
	status, by := journal.InboxCancelled, "the asker stopped waiting: "+ctx.Err().Error()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		status, by = journal.InboxExpired, "nobody answered in time"
	}
	it, err = b.Withdraw(ctx, id, status, by)
	if err == nil && it.Status == journal.InboxAnswered {
		return it, nil
	}
	if err == nil {
		err = ctx.Err()
	}
	return it, err
}

// Watch returns the item once it is closed, or ctx's error when ctx ends
// first (the item is left as it is).
func (b *Inbox) Watch(ctx context.Context, id string) (journal.InboxItem, error) {
	if b.j == nil {
		return journal.InboxItem{}, ErrNoJournal
	}
	wake := make(chan struct{})
	b.mu.Lock()
	b.waiters[id] = append(b.waiters[id], wake)
	b.mu.Unlock()
	defer b.forget(id, wake)
	tick := time.NewTicker(b.opts.Poll)
	defer tick.Stop()
	for {
		it, err := b.j.InboxItem(context.WithoutCancel(ctx), id)
		if err != nil || !it.Open() {
			return it, err
		}
		select {
		case <-wake:
		case <-tick.C:
		case <-ctx.Done():
			return it, ctx.Err()
		}
	}
}

func (b *Inbox) forget(id string, wake chan struct{}) {
	b.mu.Lock()
	defer b.mu.Unlock()
	ws := b.waiters[id]
	for i, w := range ws {
		if w == wake {
			b.waiters[id] = append(ws[:i:i], ws[i+1:]...)
			break
		}
	}
	if len(b.waiters[id]) == 0 {
		delete(b.waiters, id)
	}
}
