package app

// setNotice shows n (or, keyed without a message, removes the banner of
// its key), both in the notices Info returns and as an event.
func (a *App) setNotice(n Notice) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.setNoticeLocked(n)
}

// setNoticeLocked is setNotice with a.mu held. Emit does not block, so
// the event is sent under a.mu, in the order of the changes.
func (a *App) setNoticeLocked(n Notice) {
	kept := a.notices[:0]
	for _, o := range a.notices {
		if n.Key == "" || o.Key != n.Key {
			kept = append(kept, o)
		}
	}
	a.notices = kept
	if n.Message != "" {
		a.notices = append(a.notices, n)
	}
	a.log.Info("notice", "level", n.Level, "message", n.Message, "key", n.Key)
	a.emit.Emit(EventNotice, n)
}
