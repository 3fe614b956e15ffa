package app

import (
	"runtime"
	"strings"
	"testing"
)

func TestNotificationsUnavailableNotice(t *testing.T) {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		t.Skip("the check is the freedesktop one (platform/freedesktop.Available)")
	}
	e := newTestEnv(t, envOpts{}) // its Getenv has no DBUS_SESSION_BUS_ADDRESS
	e.app.checkNotifications()
	var got Notice
	for _, p := range e.rec.all(EventNotice) {
		if n := p.(Notice); n.Key == NoticeKeyNotifications {
			got = n
		}
	}
	if !strings.Contains(got.Message, "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset)") || !strings.Contains(got.Message, "the question waits in the window") {
		t.Fatalf("notice = %+v", got)
	}
	info, _ := e.app.Window.Info()
	found := false
	for _, n := range info.Notices {
		found = found || n.Key == NoticeKeyNotifications
	}
	if !found {
		t.Error("Info does not carry the notice for a window that loads later")
	}
}
