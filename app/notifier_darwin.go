package app

import "github.com/openworker/desktop/platform/darwin"

// defaultNotifier returns the native notification adapter of this OS. Its
// notifications go through the user notification center when the app runs
// as an allowed .app bundle; there a click on an inbox notification opens
// the item (inboxwatch.go). Through beeep, the fallback, a click does
// nothing (docs/platform.md#macos-user-notifications).
func defaultNotifier() Notifier {
	mac := darwin.New(nil)
	return clickingNotifier{platformNotifier{mac}, mac.NotifyClick}
}
