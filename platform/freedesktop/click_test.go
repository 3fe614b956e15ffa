//go:build linux || freebsd || netbsd || openbsd || illumos

package freedesktop

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/openworker/desktop/internal/testbus"
	"github.com/openworker/desktop/platform/freedesktop/fakenotify"
	"github.com/openworker/desktop/platform/internal/core"
)

// TestClickerRunsTheClickedOne sends two notifications to the fake
// server on the private bus; the server signals a click on the second:
// only its callback runs, once. A server without "actions" gets none.
func TestClickerRunsTheClickedOne(t *testing.T) {
	testbus.Session(t)
	srv, err := fakenotify.Start([]string{"body", "actions"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	var c Clicker
	defer c.Close()
	ctx := context.Background()
	clicked := make(chan string, 4)
	for _, name := range []string{"first", "second"} {
		if err := c.Notify(ctx, core.NotifyRequest{Title: "OpenWorker", Body: name}, func() { clicked <- name }); err != nil {
			t.Fatal(err)
		}
	}
	calls := srv.Calls()
	if len(calls) != 2 || !slices.Equal(calls[1].Actions, []string{DefaultAction, "Open"}) || calls[1].Sender != c.conn.Names()[0] {
		t.Fatalf("Notify calls = %+v; want two with the default action, from the clicker's connection", calls)
	}
	if err := srv.Invoke(2, DefaultAction); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-clicked:
		if got != "second" {
			t.Fatalf("clicked %q, want second", got)
		}
	case <-time.After(60 * time.Second): // a hang guard
		t.Fatal("no callback after ActionInvoked")
	}
	if err := srv.Invoke(2, DefaultAction); err != nil { // again: already run
		t.Fatal(err)
	}
	if err := srv.Invoke(1, DefaultAction); err != nil {
		t.Fatal(err)
	}
	if got := <-clicked; got != "first" {
		t.Fatalf("then clicked %q, want first (the second runs once)", got)
	}
}

func TestClickerWithoutActions(t *testing.T) {
	testbus.Session(t)
	srv, err := fakenotify.Start([]string{"body"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	var c Clicker
	defer c.Close()
	if err := c.Notify(context.Background(), core.NotifyRequest{Title: "OpenWorker", Body: "b"}, func() {}); err != nil {
		t.Fatal(err)
	}
	if calls := srv.Calls(); len(calls) != 1 || len(calls[0].Actions) != 0 {
		t.Fatalf("Notify calls = %+v; want one without actions (the server has none)", calls)
	}
}
