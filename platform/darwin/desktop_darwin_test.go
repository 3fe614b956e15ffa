//go:build darwin

package darwin

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/openworker/desktop/platform/internal/core"
	"github.com/openworker/desktop/platform/internal/testkit"
)

// The tests in this file run the real /usr/bin/osascript, which shows real
// dialogs and notifications, so they need a logged-in macOS GUI session.
// They run only with OPENWORKER_DESKTOP_TESTS=1, which
// .github/workflows/test-macos.yml sets (docs/ci.md).

// desktopGuard bounds a wait that only catches a hang; it measures no speed.
const desktopGuard = 30 * time.Second

func needDesktop(t *testing.T) {
	t.Helper()
	if os.Getenv("OPENWORKER_DESKTOP_TESTS") != "1" {
		t.Skip("runs the real osascript: set OPENWORKER_DESKTOP_TESTS=1 in a macOS GUI session (docs/ci.md)")
	}
}

// TestDesktopAskGivesUp shows a real `display dialog … giving up after 1`
// with the AppleScript injection as title, message and button: nobody
// answers, so the script must print "gave-up" (a timeout), and no button.
func TestDesktopAskGivesUp(t *testing.T) {
	needDesktop(t)
	ctx, cancel := context.WithTimeout(context.Background(), desktopGuard)
	defer cancel()
	req := core.AskRequest{Title: testkit.Injection, Message: "OpenWorker desktop test: nobody answers\n" + testkit.Injection,
		Buttons: []string{testkit.Injection, "Deny"}, Default: "Deny", Timeout: time.Second}
	got, err := New(nil).Ask(ctx, req)
	if err != nil {
		t.Fatalf("Ask: %v", err)
	}
	if !got.TimedOut || got.Button != "" {
		t.Fatalf("Ask = %+v, want a timeout (gave up)", got)
	}
	if _, err := os.Stat("/tmp/pwned"); err == nil {
		t.Fatal("/tmp/pwned exists: the injected AppleScript ran (or an earlier run left it; remove it)")
	}
}

// TestDesktopAskCancelKillsTheDialog cancels a dialog with a ten-minute
// give-up time: killing osascript must close it and Ask return ctx.Err().
func TestDesktopAskCancelKillsTheDialog(t *testing.T) {
	needDesktop(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := New(nil).Ask(ctx, core.AskRequest{Message: "OpenWorker desktop test: closed by cancellation",
			Buttons: []string{"OK"}, Timeout: 10 * time.Minute})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Ask after the deadline = %v, want context.DeadlineExceeded", err)
		}
	case <-time.After(desktopGuard):
		t.Fatalf("Ask did not return within %v of its deadline: osascript was not killed", desktopGuard)
	}
}

// TestDesktopNotify posts a real notification for every hostile string:
// through beeep (the notification center, or its osascript fallback) where
// ViaBeeep allows it, else through the adapter's argv script; the hostile
// set must reach both. macOS gives no feedback on whether a notification
// was shown (the runner may not allow notifications): the test proves each
// back end accepted the call.
func TestDesktopNotify(t *testing.T) {
	needDesktop(t)
	paths := map[bool]int{}
	for _, c := range testkit.Hostile() {
		t.Run(c.Name, func(t *testing.T) {
			req := core.NotifyRequest{Title: "OpenWorker desktop test", Body: c.Text}
			paths[ViaBeeep(req)]++
			ctx, cancel := context.WithTimeout(context.Background(), desktopGuard)
			defer cancel()
			if err := New(nil).Notify(ctx, req); err != nil {
				t.Fatalf("Notify: %v", err)
			}
		})
	}
	if paths[true] == 0 || paths[false] == 0 {
		t.Errorf("notifications via beeep: %d, via the argv script: %d; the hostile set must exercise both", paths[true], paths[false])
	}
	if _, err := os.Stat("/tmp/pwned"); err == nil {
		t.Fatal("/tmp/pwned exists: the injected AppleScript ran (or an earlier run left it; remove it)")
	}
}
