//go:build !darwin && !windows

package app

import (
	"context"

	"github.com/openworker/desktop/platform"
	"github.com/openworker/desktop/platform/freedesktop"
)

// freedesktopNotifier notifies through the platform adapter and, for the
// inbox's notifications, through a freedesktop.Clicker, whose click opens
// the item (inboxwatch.go).
type freedesktopNotifier struct {
	platformNotifier
	click *freedesktop.Clicker
}

// NotifyOpen implements clickNotifier.
func (n freedesktopNotifier) NotifyOpen(title, body string, open func()) error {
	ctx, cancel := context.WithTimeout(context.Background(), notifyTimeout)
	defer cancel()
	return n.click.Notify(ctx, platform.NotifyRequest{Title: title, Body: body}, open)
}

// defaultNotifier returns the native notification adapter of this OS.
func defaultNotifier() Notifier {
	return freedesktopNotifier{platformNotifier{platform.Default()}, &freedesktop.Clicker{}}
}
