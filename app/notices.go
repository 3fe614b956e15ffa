package app

import (
	"log/slog"
	"sync"
)

// noticeBoard holds the banners Info returns (problems found at start,
// and keyed banners kept up to date since) and sends each change to the
// window as EventNotice. mu guards the list and is held only to change or
// copy it; Emit does not block (it queues the event for the window's
// thread), so a change is sent under it, in the order of the changes. The
// log line is written after mu is let go.
type noticeBoard struct {
	log  *slog.Logger
	emit Emitter

	mu   sync.Mutex
	list []Notice
}

// add keeps n for Info without sending it: at start, before the window
// listens (it reads them with Info).
func (b *noticeBoard) add(n Notice) {
	if n.Key != "" {
		b.log.Info("notice", "level", n.Level, "message", n.Message, "key", n.Key)
	} else {
		b.log.Info("notice", "level", n.Level, "message", n.Message)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.list = append(b.list, n)
}

// set shows n (or, keyed without a message, removes the banner of its
// key), both in the notices Info returns and as an event.
func (b *noticeBoard) set(n Notice) {
	b.setIf(n, nil)
}

// setIf is set when current (nil: always) says, under b.mu, that n is
// still the banner to show: a part that decides its banner under its own
// lock and sets it after letting that lock go passes the check, so an
// older decision never replaces a newer one. current must take no lock
// that is held while b.mu is taken.
func (b *noticeBoard) setIf(n Notice, current func() bool) {
	b.mu.Lock()
	if current != nil && !current() {
		b.mu.Unlock()
		return
	}
	kept := b.list[:0]
	for _, o := range b.list {
		if n.Key == "" || o.Key != n.Key {
			kept = append(kept, o)
		}
	}
	b.list = kept
	if n.Message != "" {
		b.list = append(b.list, n)
	}
	b.emit.Emit(EventNotice, n)
	b.mu.Unlock()
	b.log.Info("notice", "level", n.Level, "message", n.Message, "key", n.Key)
}

// all returns a copy of the notices shown now, oldest first.
func (b *noticeBoard) all() []Notice {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Notice{}, b.list...)
}
