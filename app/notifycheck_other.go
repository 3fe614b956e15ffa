//go:build darwin || windows

package app

import "context"

// notificationsAvailable is nil on macOS and Windows: their notification
// services are part of the OS (a refused permission shows when a
// notification is sent, docs/platform.md).
func notificationsAvailable(context.Context, func(string) string) error { return nil }
