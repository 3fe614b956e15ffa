package notification_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/godbus/dbus/v5"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
	"github.com/openworker/desktop/internal/testbus"
	"github.com/openworker/desktop/platform/freedesktop"
	"github.com/openworker/desktop/platform/freedesktop/fakenotify"
	"github.com/openworker/desktop/tools/notification"
)

// TestDBusShowThroughHarness runs a whole turn in which a scripted model asks
// for notification__show: the harness resolves it, journals it and calls the
// tool, which reaches the fake org.freedesktop.Notifications daemon on a
// private session bus. It asserts the exact Notify call and the journal row.
// The bus is internal/testbus's (needs the apt package dbus).
func TestDBusShowThroughHarness(t *testing.T) {
	testbus.Session(t)
	srv, err := fakenotify.Start([]string{"body"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()

	dir := t.TempDir()
	cw := filepath.Join(dir, "coworkers", "notifier", "coworker")
	if err := os.MkdirAll(cw, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(cw, "manifest.md"), []byte("---\nid: notifier\nname: Notifier\n---\nShow notifications when asked.\n"), 0o644)
	os.WriteFile(filepath.Join(cw, "tools.json"), []byte(`{"version":3,"tools":["notification.show"]}`), 0o644)

	reg := tool.NewRegistry()
	if err := notification.Register(reg, freedesktop.New(nil)); err != nil {
		t.Fatal(err)
	}
	m := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "notification__show", Arguments: `{"title":"Backup done","body":"3 files & \"2\" folders"}`}}},
		modeltest.Reply{Text: "I showed it."},
	)
	provider, err := model.New(model.Config{BaseURL: m.URL, Model: "test", APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	rt, err := harness.Open(context.Background(), reg, harness.Options{
		Coworkers: filepath.Join(dir, "coworkers"), DBPath: filepath.Join(dir, "journal.db"),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	s, err := rt.NewSession(context.Background(), "notifier", harness.SessionOptions{Model: provider, Approve: consent.Bypass})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Send(context.Background(), "tell me the backup is done", nil)
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("Send = %+v, %v", res, err)
	}
	want := []fakenotify.Notification{{
		AppName:       "OpenWorker",
		Summary:       "Backup done",
		Body:          `3 files & "2" folders`, // the server has no body-markup: sent verbatim
		Actions:       []string{},
		Hints:         map[string]dbus.Variant{"urgency": dbus.MakeVariant(byte(1))}, // sent by beeep (platform/freedesktop)
		ExpireTimeout: 5000,
	}}
	if diff := cmp.Diff(want, srv.Calls(), cmp.Comparer(func(a, b dbus.Variant) bool { return a.String() == b.String() }), cmpopts.IgnoreFields(fakenotify.Notification{}, "Sender")); diff != "" {
		t.Errorf("Notify calls (-want +got):\n%s", diff)
	}
	invs, err := rt.Journal().Invocations(context.Background(), s.ID())
	if err != nil || len(invs) != 1 || invs[0].Status != "succeeded" || invs[0].Tool != "notification.show" {
		t.Fatalf("journal = %+v, %v; want one succeeded notification.show", invs, err)
	}
}
