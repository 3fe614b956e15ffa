package freedesktop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/openworker/desktop/internal/testbus"
	"github.com/openworker/desktop/platform/freedesktop/fakenotify"
	"github.com/openworker/desktop/platform/internal/core"
	"github.com/openworker/desktop/platform/internal/testkit"
)

// TestMain lets the test binary play zenity: with FAKE_ZENITY set it checks
// and answers like zenity would.
func TestMain(m *testing.M) {
	if name := filepath.Base(os.Args[0]); name == "notify-send" || name == "kdialog" { // beeep's fallbacks, linked to this binary
		data, _ := json.Marshal(os.Args[1:])
		if err := os.WriteFile(filepath.Join(os.Getenv("FAKE_FALLBACK_DIR"), name+".json"), data, 0o644); err != nil {
			os.Exit(3)
		}
		os.Exit(0)
	}
	if os.Getenv("ASK_PARENT") != "" { // ask through a fake zenity, then hang until killed
		os.Unsetenv("ASK_PARENT")
		exe, _ := os.Executable()
		New(&Options{Zenity: exe}).Ask(context.Background(), core.AskRequest{Message: "m", Buttons: []string{"OK"}, Timeout: time.Minute})
		os.Exit(0)
	}
	if mode := os.Getenv("FAKE_ZENITY"); mode != "" {
		os.Exit(fakeZenity(mode, os.Args[1:]))
	}
	// No test reaches the desktop's own bus; the D-Bus tests get a private
	// one (testbus.Session).
	testbus.Isolate()
	code := m.Run()
	testbus.Stop()
	os.Exit(code)
}

func fakeZenity(mode string, args []string) int {
	if want := os.Getenv("FAKE_ZENITY_WANT"); want != "" && want != strings.Join(args, "\x1f") {
		fmt.Fprintf(os.Stderr, "unexpected argv %q", args)
		return 99
	}
	switch mode {
	case "ok":
		return 0
	case "cancel":
		return 1
	case "timeout":
		return 5
	case "sleep":
		time.Sleep(time.Minute)
		return 0
	case "pid-sleep": // tell the test who we are, then wait to be killed
		os.WriteFile(os.Getenv("FAKE_ZENITY_PIDFILE"), []byte(strconv.Itoa(os.Getpid())), 0o600)
		time.Sleep(time.Minute)
		return 0
	default: // an extra button label
		fmt.Println(mode)
		return 1
	}
}

func TestZenityCommandGolden(t *testing.T) {
	for _, c := range testkit.Hostile() {
		t.Run(c.Name, func(t *testing.T) {
			req := core.AskRequest{Title: c.Text, Message: c.Text, Buttons: []string{"Yes", c.Text, "Later"}, Cancel: "Later", Timeout: 30 * time.Second}
			if len(c.Text) > core.MaxTitleBytes {
				req.Title = "Ten kilobytes"
			}
			if (core.AskRequest{Buttons: []string{c.Text}, Timeout: time.Second}).Validate() != nil {
				req.Buttons[1] = "No"
			}
			d, err := ZenityCommand(req)
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"zenity", "--question", "--no-markup", "--title=" + req.Title, "--text=" + strings.ReplaceAll(c.Text, `\`, `\\`),
				"--ok-label=Yes", "--timeout=30", "--cancel-label=Later", "--extra-button=" + req.Buttons[1]}
			if diff := cmp.Diff(want, d.Argv); diff != "" {
				t.Errorf("argv (-want +got):\n%s", diff)
			}
			testkit.Golden(t, "zenity_"+c.Name+".golden", testkit.JSON(t, d))
		})
	}
	if _, err := ZenityCommand(core.AskRequest{Message: testkit.NUL, Buttons: []string{"OK"}, Timeout: time.Second}); !errors.Is(err, core.ErrInvalid) {
		t.Errorf("NUL: %v", err)
	}
}

func TestZenityThroughProcess(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	req := core.AskRequest{Message: `a\nb "q"`, Buttons: []string{"Approve", "Deny", "Ask later"}, Default: "Deny", Timeout: 2 * time.Second}
	d, _ := ZenityCommand(req)
	t.Setenv("FAKE_ZENITY_WANT", strings.Join(d.Argv[1:], "\x1f"))
	a := New(&Options{Zenity: exe})
	for mode, want := range map[string]core.AskResult{
		"ok":      {Button: "Deny"},
		"cancel":  {Button: "Ask later"},
		"timeout": {TimedOut: true},
		"Approve": {Button: "Approve"},
	} {
		t.Setenv("FAKE_ZENITY", mode)
		got, err := a.Ask(context.Background(), req)
		if err != nil || got != want {
			t.Errorf("%s: Ask = %+v, %v, want %+v", mode, got, err, want)
		}
	}
	t.Setenv("FAKE_ZENITY", "Not a button")
	if _, err := a.Ask(context.Background(), req); err == nil {
		t.Error("an unknown label was accepted")
	}
	// The fake sleeps a minute: an Ask that returns within hangGuard of its
	// context ending did not wait for it.
	t.Setenv("FAKE_ZENITY", "sleep")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { _, err := a.Ask(ctx, req); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Ask after its context ended = %v, want context.DeadlineExceeded", err)
		}
	case <-time.After(hangGuard):
		t.Fatalf("Ask did not return within %v of its context ending", hangGuard)
	}
}

// hangGuard bounds a wait that only catches a hang (an Ask that waits for
// a dialog after its context ended). It is far longer than killing the
// dialog takes on a loaded machine and shorter than the fake dialog's
// minute, so it measures no speed.
const hangGuard = 30 * time.Second

func TestAskWithoutZenity(t *testing.T) {
	a := &Adapter{}
	_, err := a.Ask(context.Background(), core.AskRequest{Message: "m", Buttons: []string{"OK"}, Timeout: time.Second})
	if !errors.Is(err, errors.ErrUnsupported) || !strings.Contains(err.Error(), "zenity") {
		t.Errorf("Ask without zenity = %v", err)
	}
	if c := a.Capabilities(); c.Ask || !strings.Contains(c.Why, "zenity") {
		t.Errorf("Capabilities = %+v", c)
	}
}

func TestNotifyArgs(t *testing.T) {
	req := core.NotifyRequest{Title: "<b>t</b>", Body: `<a href="x">1 & 2</a>`, Icon: "/tmp/i.png"}
	plain, _ := NotifyArgs(req, false)
	marked, _ := NotifyArgs(req, true)
	if plain.Body != req.Body || marked.Body != "&lt;a href=&#34;x&#34;&gt;1 &amp; 2&lt;/a&gt;" || marked.Summary != req.Title {
		t.Errorf("NotifyArgs bodies: plain %q, markup %q", plain.Body, marked.Body)
	}
	if _, err := NotifyArgs(core.NotifyRequest{Title: testkit.NUL}, false); !errors.Is(err, core.ErrInvalid) {
		t.Errorf("NUL: %v", err)
	}
}

// TestDBusNotify runs on the private session bus of internal/testbus
// (dbus-daemon, apt package dbus).
func TestDBusNotify(t *testing.T) {
	testbus.Session(t)
	for _, markup := range []bool{false, true} {
		caps := []string{"body"}
		if markup {
			caps = append(caps, "body-markup")
		}
		srv, err := fakenotify.Start(caps)
		if err != nil {
			t.Fatal(err)
		}
		req := core.NotifyRequest{Title: "Build <done>", Body: "ok & " + testkit.Injection + " 👍", Icon: "/usr/share/icons/x.png"}
		if err := New(nil).Notify(context.Background(), req); err != nil {
			srv.Close()
			t.Fatal(err)
		}
		got := srv.Calls()
		srv.Close()
		body := req.Body
		if markup {
			body = `ok &amp; &#34; &amp; do shell script &#34;touch /tmp/pwned&#34; &amp; &#34; 👍`
		}
		want := []fakenotify.Notification{{AppName: "OpenWorker", AppIcon: req.Icon, Summary: req.Title, Body: body,
			Actions: []string{}, Hints: map[string]dbus.Variant{"urgency": dbus.MakeVariant(byte(1))}, ExpireTimeout: 5000}}
		// Which connection sent it (beeep's or the adapter's own) is
		// TestDBusNotifyHostileGolden's to check.
		if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b dbus.Variant) bool { return a.String() == b.String() }), cmpopts.IgnoreFields(fakenotify.Notification{}, "Sender")); diff != "" {
			t.Errorf("markup=%v: Notify calls (-want +got):\n%s", markup, diff)
		}
	}
}
