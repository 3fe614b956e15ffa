package app

import "github.com/openworker/desktop/platform/darwin"

// macNotificationBackend says what carries this process's notifications:
// UNUserNotificationCenter, or beeep and why not the center.
func macNotificationBackend() string { return darwin.New(nil).NotificationBackend() }
