package app

import (
	"context"

	"github.com/openworker/desktop/platform"
	"github.com/openworker/desktop/platform/darwin"
)

// darwinNotifier notifies through the macOS adapter, whose notifications
// go through the user notification center when the app runs as an
// allowed .app bundle; there a click on an inbox notification opens the
// item (inboxwatch.go). Through beeep, the fallback, a click does nothing
// (docs/platform.md#macos-user-notifications).
type darwinNotifier struct {
	platformNotifier
	mac *darwin.Adapter
}

// NotifyOpen implements clickNotifier.
func (n darwinNotifier) NotifyOpen(title, body string, open func()) error {
	ctx, cancel := context.WithTimeout(context.Background(), notifyTimeout)
	defer cancel()
	return n.mac.NotifyClick(ctx, platform.NotifyRequest{Title: title, Body: body}, open)
}

// defaultNotifier returns the native notification adapter of this OS.
func defaultNotifier() Notifier {
	mac := darwin.New(nil)
	return darwinNotifier{platformNotifier{mac}, mac}
}
