package app

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/inbox"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/tool"
)

// The app's side of the inbox (docs/inbox.md, docs/app.md#inbox): one
// inbox.Inbox over the journal, shared by the consent modal, the
// questions, the sign-ins, unattended chats and schedules. Every change
// made here is sent to the UI as EventInboxChanged at once; changes made
// by other processes (`openworker inbox answer`, a `schedule run-due`
// timer) are seen by a poll every inboxPoll. A native notification is
// raised when an item arrives while the window is not focused, one per
// run (turn), not one per item.

// EventInboxChanged carries an InboxCount: items were added, answered or
// withdrawn; the sidebar badge and the Inbox screen read again.
const EventInboxChanged EventName = "inbox:changed"

// inboxPoll is how often the app reads the open items to see changes made
// by other processes.
var inboxPoll = 2 * time.Second

// EventInboxOpen carries an InboxOpen: the person clicked the
// notification of an item; the window shows the Inbox at that item
// (docs/app.md#notifications).
const EventInboxOpen EventName = "inbox:open"

// InboxOpen is EventInboxOpen's payload.
type InboxOpen struct {
	Item string `json:"item"` // the inbox item's ID
}

// InboxCount is EventInboxChanged's payload: how many items are open.
type InboxCount struct {
	Open int `json:"open"`
}

// inboxWatch owns the app's Inbox, its events and its notifications.
type inboxWatch struct {
	emit    Emitter
	notify  Notifier
	focused func() bool
	show    func() // brings the window up (a notification was clicked)
	box     atomic.Pointer[inbox.Inbox]

	mu       sync.Mutex
	notified map[string]bool // runs (turn, or session) already notified
	last     []string        // the open items' IDs, as last sent
}

// open makes the Inbox of j; called once, before the app is shared.
func (w *inboxWatch) open(j *journal.Journal) {
	w.box.Store(inbox.New(j, &inbox.Options{
		OnAdd:   func(it journal.InboxItem) { go w.added(it) },
		OnClose: func(it journal.InboxItem) { w.answered(it); go w.changed() },
	}))
}

// inbox returns the Inbox, or errNoJournal.
func (w *inboxWatch) inbox() (*inbox.Inbox, error) {
	if b := w.box.Load(); b != nil {
		return b, nil
	}
	return nil, errNoJournal
}

// added sends the change and, when the window is not focused, one
// notification per run.
func (w *inboxWatch) added(it journal.InboxItem) {
	w.changed()
	if w.notify == nil || (w.focused != nil && w.focused()) {
		return
	}
	run := runOf(it)
	w.mu.Lock()
	seen := run != "" && w.notified[run]
	if run != "" {
		if w.notified == nil {
			w.notified = map[string]bool{}
		}
		w.notified[run] = true
	}
	w.mu.Unlock()
	if seen {
		return
	}
	title, body := inboxNotice(it)
	if c, ok := w.notify.(clickNotifier); ok {
		_ = c.NotifyOpen(title, body, func() { w.openItem(it.ID) })
		return
	}
	_ = w.notify.Notify(title, body)
}

// openItem shows the window at the Inbox, on item id: its notification
// was clicked.
func (w *inboxWatch) openItem(id string) {
	if w.show != nil {
		w.show()
	}
	w.emit.Emit(EventInboxOpen, InboxOpen{Item: id})
}

// runOf is the run an item belongs to, for one notification per run: its
// turn, else its session ("" for neither).
func runOf(it journal.InboxItem) string {
	if it.TurnID != "" {
		return it.TurnID
	}
	return it.SessionID
}

// answered is told an item was closed here: the person has seen its run,
// so the run's next item notifies again.
func (w *inboxWatch) answered(it journal.InboxItem) {
	w.mu.Lock()
	delete(w.notified, runOf(it))
	w.mu.Unlock()
}

// inboxNotice is the notification of an item: who waits and on what, never
// a tool's arguments or a question's text (a lock screen may show it).
func inboxNotice(it journal.InboxItem) (title, body string) {
	switch it.Kind {
	case journal.InboxApproval:
		var r consent.Request
		_ = json.Unmarshal(it.Asked, &r)
		who := r.CoworkerName
		if who == "" {
			who = it.Coworker
		}
		if r.Sampling != nil {
			return "OpenWorker needs your approval", samplingNotice(r)
		}
		where := ""
		if r.Placement != "" && !tool.IsLocalPlacement(r.Placement) {
			where = " on " + r.Placement // a remote host: say so before the window is even seen
		}
		return "OpenWorker needs your approval", fmt.Sprintf("%s wants to run %s%s.", who, r.Tool, where)
	case journal.InboxQuestion:
		return "OpenWorker has a question for you", fmt.Sprintf("%s asks through %s.", it.Coworker, it.Tool)
	case journal.InboxSignIn:
		return "OpenWorker needs you to sign in", fmt.Sprintf("%s needs you to sign in to a server.", it.Coworker)
	}
	return "OpenWorker is waiting on you", fmt.Sprintf("%s waits on you (%s).", it.Coworker, it.Kind)
}

// changed sends EventInboxChanged when the open items differ from the
// last sent.
func (w *inboxWatch) changed() {
	b, err := w.inbox()
	if err != nil {
		return
	}
	items, err := b.Journal().Inbox(context.Background(), journal.InboxFilter{})
	if err != nil {
		return
	}
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = it.ID
	}
	w.mu.Lock()
	same := w.last != nil && slices.Equal(ids, w.last)
	w.last = ids
	w.mu.Unlock()
	if !same {
		w.emit.Emit(EventInboxChanged, InboxCount{Open: len(ids)})
	}
}

// poll sends the changes other processes make until ctx ends.
func (w *inboxWatch) poll(ctx context.Context) {
	t := time.NewTicker(inboxPoll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			w.changed()
		}
	}
}

// focus is told the window's focus: once the person looks, the runs
// notified may notify again.
func (w *inboxWatch) focus(focused bool) {
	if !focused {
		return
	}
	w.mu.Lock()
	w.notified = nil
	w.mu.Unlock()
}
