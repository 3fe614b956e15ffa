package darwin

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/openworker/desktop/platform/internal/core"
)

// The process has one UNUserNotificationCenter (openSystemCenter is a
// sync.Once singleton), but two darwin Adapters use it: app/notifier_darwin.go
// (inbox clicks) and platform.Default() in main.go's register (the
// notification tools). Both share recordingCenter here, as in production.

// TestTwoAdaptersShareClickRouting: the adapters share the center's one
// userNotifier (notifierFor), so a click on the app's inbox notification
// runs its function even after the tool adapter posted (a second
// OnClick would otherwise replace the first, and the click be lost).
func TestTwoAdaptersShareClickRouting(t *testing.T) {
	c := &recordingCenter{}
	app, _ := centerAdapter(t, c)
	tool, _ := centerAdapter(t, c)
	clicked := make(chan struct{}, 1)
	if err := app.NotifyClick(context.Background(), core.NotifyRequest{Title: "Inbox", Body: "item"}, func() { clicked <- struct{}{} }); err != nil {
		t.Fatal(err)
	}
	if err := tool.Notify(context.Background(), core.NotifyRequest{Title: "Tool", Body: "hello"}); err != nil {
		t.Fatal(err)
	}
	c.clickFunc(c.posted[0].id)
	select {
	case <-clicked:
	case <-time.After(2 * time.Second):
		t.Fatal("the click on the app's inbox notification was lost after the notification tool posted through a second Adapter")
	}
}

// TestTwoAdaptersNeverShareARequestID: the two adapters' requests have
// different identifiers (one sequence per center), since
// UNUserNotificationCenter replaces a notification whose identifier is
// reused.
func TestTwoAdaptersNeverShareARequestID(t *testing.T) {
	c := &recordingCenter{}
	app, _ := centerAdapter(t, c)
	tool, _ := centerAdapter(t, c)
	if err := app.Notify(context.Background(), core.NotifyRequest{Title: "A", Body: "a"}); err != nil {
		t.Fatal(err)
	}
	if err := tool.Notify(context.Background(), core.NotifyRequest{Title: "B", Body: "b"}); err != nil {
		t.Fatal(err)
	}
	if c.posted[0].id == c.posted[1].id {
		t.Fatalf("two different notifications were posted with the same request identifier %q: the second replaces the first in Notification Center", c.posted[0].id)
	}
}

// slowAddCenter is the real center's Add when the completion handler comes
// after ctx ended: the request was already handed to macOS
// (addNotificationRequest:withCompletionHandler: was sent), only the answer
// is late, and systemCenter.Add returns ctx.Err().
type slowAddCenter struct{ recordingCenter }

func (c *slowAddCenter) Add(ctx context.Context, id, title, body string) error {
	c.mu.Lock()
	c.posted = append(c.posted, posted{id, title, body}) // macOS has it
	c.mu.Unlock()
	<-ctx.Done()
	return ctx.Err()
}

// TestLateAddNotShownTwice: a request macOS took but answered after ctx
// ended (errHandedOver) is not handed to beeep as well, which would show
// it a second time.
func TestLateAddNotShownTwice(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := &slowAddCenter{}
		b := &beeepCalls{}
		a := New(&Options{Program: "/nonexistent/osascript", Beeep: b.notify, Center: c})
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_ = a.Notify(ctx, core.NotifyRequest{Title: "T", Body: "B"})
		synctest.Wait() // a beeep goroutine left behind has run by now
		if len(c.posted) == 1 && b.count() == 1 {
			t.Fatal("one notification went both to the user notification center and to beeep: shown twice")
		}
	})
}
