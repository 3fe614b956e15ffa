//go:build !darwin && !windows

package app

import (
	"context"

	"github.com/openworker/desktop/platform/freedesktop"
)

// notificationsAvailable is freedesktop.Available at the session bus
// DBUS_SESSION_BUS_ADDRESS names (the one the notifier uses).
func notificationsAvailable(ctx context.Context, getenv func(string) string) error {
	return freedesktop.Available(ctx, getenv("DBUS_SESSION_BUS_ADDRESS"))
}
