package notification

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/godbus/dbus/v5"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/openworker/desktop/harness/tool"
	"github.com/openworker/desktop/internal/testbus"
	"github.com/openworker/desktop/platform/freedesktop"
	"github.com/openworker/desktop/platform/freedesktop/fakenotify"
)

// TestDBusShow runs notification.show on the real freedesktop adapter against
// a fake org.freedesktop.Notifications server on a private session bus and
// asserts the exact Notify call. The bus is internal/testbus's (needs the
// apt package dbus).
func TestDBusShow(t *testing.T) {
	testbus.Session(t)
	srv, err := fakenotify.Start([]string{"body", "body-markup", "actions"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()

	show, _ := toolsOf(t, freedesktop.New(nil))
	if mc := string(show.ModelContext("s1")); !strings.HasPrefix(mc, `{"notifications":true,`) {
		t.Errorf("ModelContext under a session bus = %s", mc)
	}
	c := tool.NewCall("session-1", "turn-1", "call-1", t.TempDir(), tool.DefaultLimits(), nil)
	args := json.RawMessage(`{"title":"Backup <finished>","body":"12 files & 3 folders — \"ok\" 👍\nsee <a href='x'>log</a>"}`)
	out, err := show.Call(context.Background(), c, args)
	if err != nil {
		t.Fatal(err)
	}
	if string(out.Structured) != `{"shown":true}` {
		t.Errorf("Structured = %s", out.Structured)
	}
	want := []fakenotify.Notification{{
		AppName:       "OpenWorker",
		ReplacesID:    0,
		AppIcon:       "",
		Summary:       "Backup <finished>",
		Body:          "12 files &amp; 3 folders — &#34;ok&#34; 👍\nsee &lt;a href=&#39;x&#39;&gt;log&lt;/a&gt;",
		Actions:       []string{},
		Hints:         map[string]dbus.Variant{"urgency": dbus.MakeVariant(byte(1))}, // sent by beeep (platform/freedesktop)
		ExpireTimeout: 5000,
	}}
	if diff := cmp.Diff(want, srv.Calls(), cmp.Comparer(func(a, b dbus.Variant) bool { return a.String() == b.String() }), cmpopts.IgnoreFields(fakenotify.Notification{}, "Sender")); diff != "" {
		t.Errorf("Notify calls (-want +got):\n%s", diff)
	}
}
