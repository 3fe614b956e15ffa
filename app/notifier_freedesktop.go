//go:build !darwin && !windows

package app

import (
	"github.com/openworker/desktop/platform"
	"github.com/openworker/desktop/platform/freedesktop"
)

// defaultNotifier returns the native notification adapter of this OS. The
// inbox's notifications go through a freedesktop.Clicker, whose click
// opens the item (inboxwatch.go).
func defaultNotifier() Notifier {
	return clickingNotifier{platformNotifier{platform.Default()}, (&freedesktop.Clicker{}).Notify}
}
