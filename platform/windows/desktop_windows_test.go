//go:build windows

package windows

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/platform/internal/core"
	"github.com/openworker/desktop/platform/internal/testkit"
)

// The tests in this file show real message boxes and toasts, so they need a
// logged-in Windows desktop session. They run only with
// OPENWORKER_DESKTOP_TESTS=1, which .github/workflows/test-windows.yml sets
// (docs/ci.md says what each one proves and what the runner cannot show).

// desktopGuard bounds a wait that only catches a hang (a box that never
// closes); it measures no speed.
const desktopGuard = 30 * time.Second

func needDesktop(t *testing.T) {
	t.Helper()
	if os.Getenv("OPENWORKER_DESKTOP_TESTS") != "1" {
		t.Skip("shows real message boxes and toasts: set OPENWORKER_DESKTOP_TESTS=1 in a Windows desktop session (docs/ci.md)")
	}
}

// TestDesktopAskTimesOut shows a real MessageBoxTimeoutW box with hostile
// text that nobody answers: it must come back as a timeout, not a button.
func TestDesktopAskTimesOut(t *testing.T) {
	needDesktop(t)
	ctx, cancel := context.WithTimeout(context.Background(), desktopGuard)
	defer cancel()
	req := core.AskRequest{Title: testkit.Injection, Message: "OpenWorker desktop test: nobody answers\n" + testkit.Injection,
		Buttons: []string{"Allow", "Deny"}, Default: "Deny", Timeout: time.Second}
	got, err := New().Ask(ctx, req)
	if err != nil {
		t.Fatalf("Ask: %v", err)
	}
	if !got.TimedOut || got.Button != "" {
		t.Fatalf("Ask = %+v, want a timeout (MessageBoxTimeoutW returns %d)", got, MessageBoxTimedOut)
	}
}

// TestDesktopAskCancelClosesTheBox cancels a box with a ten-minute timeout:
// the adapter must find the box on its thread, press its safe button and
// return ctx.Err().
func TestDesktopAskCancelClosesTheBox(t *testing.T) {
	needDesktop(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := New().Ask(ctx, core.AskRequest{Message: "OpenWorker desktop test: closed by cancellation",
			Buttons: []string{"OK", "Cancel"}, Cancel: "Cancel", Timeout: 10 * time.Minute})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Ask after the deadline = %v, want context.DeadlineExceeded", err)
		}
	case <-time.After(desktopGuard):
		t.Fatalf("Ask did not return within %v of its deadline: the box was not closed", desktopGuard)
	}
}

// TestDesktopNotifyPushesEscapedXML pushes, for every hostile string, the
// toast document ToastXML builds (checked to be well formed with the text
// intact) over COM, then the same request through Notify. Both must be
// accepted by the Windows notification platform.
func TestDesktopNotifyPushesEscapedXML(t *testing.T) {
	needDesktop(t)
	for _, c := range testkit.Hostile() {
		t.Run(c.Name, func(t *testing.T) {
			title := "OpenWorker desktop test"
			req := core.NotifyRequest{Title: title, Body: c.Text}
			doc, err := ToastXML(req)
			if err != nil {
				t.Fatal(err)
			}
			texts, _, _ := toastTexts(t, doc)
			want := strings.ReplaceAll(c.Text, "\r\n", "\n")
			if len(texts) != 2 || texts[0] != title || texts[1] != c.Text && texts[1] != want {
				t.Fatalf("toast texts = %q, want [%q %q]", texts, title, c.Text)
			}
			if err := pushToast(doc); err != nil {
				t.Fatalf("pushing the escaped toast XML: %v", err)
			}
			if err := New().Notify(context.Background(), req); err != nil {
				t.Fatalf("Notify: %v", err)
			}
		})
	}
}
