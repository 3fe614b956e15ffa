package app

import (
	"context"
	"time"
)

// NoticeKeyNotifications keys the startup notice that native desktop
// notifications are unavailable, and why (docs/app.md#notifications).
const NoticeKeyNotifications = "notifications"

// notifyCheckTimeout bounds the startup check of the notification service.
const notifyCheckTimeout = 5 * time.Second

// checkNotifications asks, once at start, whether native notifications
// can be shown (notificationsAvailable: on Linux a session bus and a
// process that owns org.freedesktop.Notifications) and, when not, shows a
// keyed notice naming the cause and what is lost. The app works either
// way: consent always happens in the window.
func (a *desktop) checkNotifications() {
	ctx, cancel := context.WithTimeout(a.base, notifyCheckTimeout)
	defer cancel()
	err := notificationsAvailable(ctx, a.cfg.Getenv)
	if err == nil {
		return
	}
	a.notices.set(Notice{Level: NoticeInfo, Key: NoticeKeyNotifications,
		Message: "Desktop notifications are unavailable: " + err.Error() + ". The app works as usual, but a tool call that waits for your answer while this window is in the background raises no notification: the question waits in the window."})
}
