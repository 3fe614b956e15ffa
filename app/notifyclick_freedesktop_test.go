//go:build linux || freebsd || netbsd || openbsd || illumos

package app

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/internal/testbus"
	"github.com/openworker/desktop/platform"
	"github.com/openworker/desktop/platform/freedesktop"
	"github.com/openworker/desktop/platform/freedesktop/fakenotify"
)

// An item arrives while the window is not focused: its notification goes
// to the notification server (a fake one on a private bus) with the
// default action; the server says it was clicked (ActionInvoked): the app
// shows the window and sends inbox:open with that item.
func TestNotificationClickOpensTheItem(t *testing.T) {
	t.Setenv(testbus.EnvVar, testbus.Private(t))
	srv, err := fakenotify.Start([]string{"body", "actions"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	e := newTestEnv(t, envOpts{})
	a := e.app
	sh := &fakeShell{}
	a.Window.shell = sh
	click := &freedesktop.Clicker{}
	defer click.Close()
	a.inboxes.notify = clickingNotifier{platformNotifier{platform.Default()}, click.Notify}
	if err := a.Window.SetWindowFocused(false); err != nil {
		t.Fatal(err)
	}
	b, err := a.inboxes.inbox()
	if err != nil {
		t.Fatal(err)
	}
	asked, _ := json.Marshal(map[string]string{"tool": "notes.append", "coworker_name": "Helper"})
	it, err := b.Add(context.Background(), journal.InboxItem{Kind: journal.InboxApproval, Coworker: "helper", Tool: "notes.append", Asked: asked})
	if err != nil {
		t.Fatal(err)
	}
	n, ok := srv.Next(hangGuard)
	if !ok {
		t.Fatal("no notification reached the server")
	}
	if n.Summary != "OpenWorker needs your approval" || len(n.Actions) == 0 || n.Actions[0] != freedesktop.DefaultAction {
		t.Fatalf("notification = %+v; want the approval's, with the default action", n)
	}
	if got := len(e.rec.all(EventInboxOpen)); got != 0 {
		t.Fatalf("inbox:open sent %d times before any click", got)
	}
	if err := srv.Invoke(uint32(len(srv.Calls())), freedesktop.DefaultAction); err != nil {
		t.Fatal(err)
	}
	e.rec.waitFor(t, EventInboxOpen, func(p any) bool { return p.(InboxOpen).Item == it.ID })
	if sh.shown.Load() != 1 { // shown before the event is sent (openItem)
		t.Fatalf("the window was shown %d times, want once", sh.shown.Load())
	}
}
