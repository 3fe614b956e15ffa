//go:build (linux || freebsd || netbsd || openbsd || illumos) && !nodbus

package freedesktop

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbus/dbus/v5"
	"github.com/google/go-cmp/cmp"
	"github.com/openworker/desktop/internal/testbus"
	"github.com/openworker/desktop/platform/freedesktop/fakenotify"
	"github.com/openworker/desktop/platform/internal/core"
	"github.com/openworker/desktop/platform/internal/testkit"
)

// viaBeeepSender is the unique bus name of the shared session bus
// connection (dbus.SessionBus), the one beeep sends on.
func viaBeeepSender(t *testing.T) string {
	t.Helper()
	conn, err := dbus.SessionBus()
	if err != nil || len(conn.Names()) == 0 {
		t.Fatalf("shared session bus connection: %v", err)
	}
	return conn.Names()[0]
}

// needBus puts t on the test process's private session bus
// (internal/testbus: nothing installed on the machine can be activated
// there).
func needBus(t *testing.T) {
	t.Helper()
	testbus.Session(t)
}

var variantText = cmp.Comparer(func(a, b dbus.Variant) bool { return a.String() == b.String() })

// recordedCall is a Notify call as a golden file holds it.
type recordedCall struct {
	Via           string            `json:"via"` // "beeep" or "own"
	AppName       string            `json:"app_name"`
	ReplacesID    uint32            `json:"replaces_id"`
	AppIcon       string            `json:"app_icon"`
	Summary       string            `json:"summary"`
	Body          string            `json:"body"`
	Actions       []string          `json:"actions"`
	Hints         map[string]string `json:"hints"`
	ExpireTimeout int32             `json:"expire_timeout"`
}

// TestDBusNotifyHostileGolden sends every hostile string through the
// adapter to the fake notification daemon, with and without body markup,
// and checks the exact Notify call and which connection made it: beeep's
// (the shared session bus connection) for all but a text starting with
// "-", which takes the adapter's own call. The markup run is a golden file.
func TestDBusNotifyHostileGolden(t *testing.T) {
	needBus(t)
	beeepName := viaBeeepSender(t)
	icon := filepath.Join(t.TempDir(), "icon.png")
	if err := os.WriteFile(icon, []byte("not really a png"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, markup := range []bool{false, true} {
		caps := []string{"body"}
		if markup {
			caps = append(caps, "body-markup")
		}
		srv, err := fakenotify.Start(caps)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range testkit.Hostile() {
			req := core.NotifyRequest{Title: c.Text, Body: c.Text, Icon: icon}
			if len(c.Text) > core.MaxTitleBytes {
				req.Title = "Ten kilobytes"
			}
			before := len(srv.Calls())
			if err := New(nil).Notify(context.Background(), req); err != nil {
				t.Errorf("%s markup=%v: %v", c.Name, markup, err)
				continue
			}
			calls := srv.Calls()[before:]
			if len(calls) != 1 {
				t.Errorf("%s markup=%v: %d Notify calls, want 1", c.Name, markup, len(calls))
				continue
			}
			got := calls[0]
			via := "beeep"
			if strings.HasPrefix(c.Text, "-") {
				via = "own"
			}
			if (got.Sender == beeepName) != (via == "beeep") {
				t.Errorf("%s markup=%v: sent by %s, beeep's connection is %s; want the %s call", c.Name, markup, got.Sender, beeepName, via)
			}
			body := c.Text
			if markup {
				body = htmlEscape(c.Text)
			}
			want := fakenotify.Notification{Sender: got.Sender, AppName: "OpenWorker", AppIcon: icon, Summary: req.Title, Body: body,
				Actions: []string{}, Hints: map[string]dbus.Variant{"urgency": dbus.MakeVariant(byte(1))}, ExpireTimeout: 5000}
			if diff := cmp.Diff(want, got, variantText); diff != "" {
				t.Errorf("%s markup=%v: Notify call (-want +got):\n%s", c.Name, markup, diff)
			}
			if markup {
				rec := recordedCall{via, got.AppName, got.ReplacesID, got.AppIcon, got.Summary, got.Body, got.Actions, map[string]string{}, got.ExpireTimeout}
				rec.AppIcon = strings.Replace(rec.AppIcon, filepath.Dir(icon), "$TMP", 1)
				for k, v := range got.Hints {
					rec.Hints[k] = v.String()
				}
				testkit.Golden(t, "dbus_"+c.Name+".golden", testkit.JSON(t, rec))
			}
		}
		before := len(srv.Calls())
		if err := New(nil).Notify(context.Background(), core.NotifyRequest{Title: "t", Body: testkit.NUL}); !errors.Is(err, core.ErrInvalid) {
			t.Errorf("NUL body: %v, want ErrInvalid", err)
		}
		if n := len(srv.Calls()) - before; n != 0 {
			t.Errorf("a NUL body made %d Notify calls", n)
		}
		srv.Close()
	}
}

// htmlEscape is the escaping the adapter applies under body-markup, spelt
// out: & < > " ' become entities.
func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

// TestDBusBeeepFallbackNeverGetsALeadingDash makes the daemon refuse Notify,
// so that beeep falls back to notify-send (a recording fake on PATH, with
// a recording kdialog): an ordinary text reaches it as plain argv data; a
// summary or body starting with "-" never reaches beeep, so neither
// fallback runs and the adapter returns the daemon's error.
func TestDBusBeeepFallbackNeverGetsALeadingDash(t *testing.T) {
	needBus(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin, out := t.TempDir(), t.TempDir()
	for _, name := range []string{"notify-send", "kdialog"} {
		if err := os.Symlink(exe, filepath.Join(bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin)
	t.Setenv("FAKE_FALLBACK_DIR", out)
	srv, err := fakenotify.Start([]string{"body"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	srv.FailNotify("org.freedesktop.Notifications.Error.Refused")

	fallback := func() (argv []string, ok bool) {
		data, err := os.ReadFile(filepath.Join(out, "notify-send.json"))
		if err != nil {
			return nil, false
		}
		os.Remove(filepath.Join(out, "notify-send.json"))
		_ = json.Unmarshal(data, &argv)
		return argv, true
	}

	req := core.NotifyRequest{Title: testkit.Injection, Body: "$(rm -rf ~)\n<b>x</b>"}
	if err := New(nil).Notify(context.Background(), req); err != nil {
		t.Fatalf("ordinary text with a refusing daemon: %v (beeep's notify-send fallback should have shown it)", err)
	}
	argv, ok := fallback()
	want := []string{req.Title, req.Body, "-a", "OpenWorker", "-t", "5000", "-u", "normal", "-i", ""}
	if !ok || !cmp.Equal(argv, want) {
		t.Errorf("notify-send argv = %q (ran: %v), want %q", argv, ok, want)
	}

	for _, c := range []core.NotifyRequest{
		{Title: "-e do shell script", Body: "b"},
		{Title: "t", Body: "--help"},
		{Body: "-u critical -a Bank"},
	} {
		before := len(srv.Calls())
		err := New(nil).Notify(context.Background(), c)
		if err == nil || !strings.Contains(err.Error(), "told to fail") {
			t.Errorf("%+v: Notify = %v, want the daemon's refusal", c, err)
		}
		if n := len(srv.Calls()) - before; n != 1 {
			t.Errorf("%+v: %d Notify calls, want the adapter's one", c, n)
		}
		if argv, ok := fallback(); ok {
			t.Errorf("%+v: notify-send ran with %q", c, argv)
		}
		if _, err := os.Stat(filepath.Join(out, "kdialog.json")); err == nil {
			t.Errorf("%+v: kdialog ran", c)
		}
	}
}

func TestViaBeeep(t *testing.T) {
	for _, c := range []struct {
		call NotifyCall
		want bool
	}{
		{NotifyCall{Summary: "ok", Body: "fine - really"}, true},
		{NotifyCall{Summary: " -x", Body: "\n-x"}, true},
		{NotifyCall{Summary: "-x", Body: "b"}, false},
		{NotifyCall{Summary: "t", Body: "-"}, false},
		{NotifyCall{Summary: "t", AppIcon: "-i/evil.png"}, false},
		{NotifyCall{Body: "--urgency=critical"}, false},
	} {
		if got := ViaBeeep(c.call); got != c.want {
			t.Errorf("ViaBeeep(%+v) = %v, want %v", c.call, got, c.want)
		}
	}
}
