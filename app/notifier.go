package app

import (
	"context"
	"time"

	"github.com/openworker/desktop/platform"
)

// notifyTimeout bounds one native notification call.
const notifyTimeout = 5 * time.Second

// platformNotifier adapts the platform adapter (docs/platform.md) to Notifier.
type platformNotifier struct{ a platform.Adapter }

func (p platformNotifier) Notify(title, body string) error {
	ctx, cancel := context.WithTimeout(context.Background(), notifyTimeout)
	defer cancel()
	return p.a.Notify(ctx, platform.NotifyRequest{Title: title, Body: body})
}

// clickNotifier is a Notifier whose notifications say when they are
// clicked (Linux and BSD: D-Bus actions, notifier_freedesktop.go; macOS:
// the user notification center, notifier_darwin.go): open runs once on a
// click. On Windows the project's toast reports no click, and neither does
// beeep, macOS's fallback (docs/app.md#notifications).
type clickNotifier interface {
	Notifier
	NotifyOpen(title, body string, open func()) error
}

// clickingNotifier is a clickNotifier over a platform's notify-with-click
// call (freedesktop.Clicker.Notify, darwin.Adapter.NotifyClick).
type clickingNotifier struct {
	platformNotifier
	notifyClick func(ctx context.Context, req platform.NotifyRequest, onClick func()) error
}

// NotifyOpen implements clickNotifier.
func (n clickingNotifier) NotifyOpen(title, body string, open func()) error {
	ctx, cancel := context.WithTimeout(context.Background(), notifyTimeout)
	defer cancel()
	return n.notifyClick(ctx, platform.NotifyRequest{Title: title, Body: body}, open)
}
