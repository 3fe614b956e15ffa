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

// defaultNotifier returns the native notification adapter of this OS.
func defaultNotifier() Notifier { return platformNotifier{platform.Default()} }
