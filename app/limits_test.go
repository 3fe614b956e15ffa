package app

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/settings"
)

// TestDefaultLimits: Settings → Limits saves the default limits in
// settings.json at once (a value below 0 is refused naming its key, and
// nothing is written); saving the rest of Settings keeps them; the editor
// shows them; and a new chat with a coworker whose manifest sets none
// takes them: its model reports 120 tokens over a default tokens_per_run
// of 100, so the turn parks on a budget inbox item before the tool call.
func TestDefaultLimits(t *testing.T) {
	e := newTestEnv(t, envOpts{cfg: config{Approve: "bypass"}, replies: []modeltest.Reply{
		{ToolCalls: []model.ToolCall{{Name: "test__echo", Arguments: `{"text":"hi"}`}}, InputTokens: 100, OutputTokens: 20},
		{Text: "hi"},
		{ToolCalls: []model.ToolCall{{Name: "test__echo", Arguments: `{"text":"again"}`}}, InputTokens: 100, OutputTokens: 20},
	}})
	pr := e.app.Preferences
	if _, err := pr.SetDefaultLimits(settings.Limits{TokensPerRun: 100, ToolCallsPerRun: -2}); err == nil ||
		!strings.Contains(err.Error(), "default limit tool_calls_per_run is -2") {
		t.Fatalf("SetDefaultLimits(-2 calls) = %v; want an error naming tool_calls_per_run", err)
	}
	want := settings.Limits{TokensPerRun: 100, TokensPerDay: 50000}
	if got, err := pr.SetDefaultLimits(want); err != nil || got != want {
		t.Fatalf("SetDefaultLimits = %+v, %v", got, err)
	}
	saved := func() settings.Limits {
		t.Helper()
		data, err := os.ReadFile(e.app.paths.Settings)
		var s struct {
			Limits settings.Limits `json:"limits"`
		}
		if err != nil || json.Unmarshal(data, &s) != nil {
			t.Fatalf("settings.json: %v\n%s", err, data)
		}
		return s.Limits
	}
	if saved() != want || pr.DefaultLimits() != want {
		t.Fatalf("settings.json limits = %+v, in use %+v; want %+v", saved(), pr.DefaultLimits(), want)
	}
	v, _ := pr.GetSettings()
	v.Settings.Limits = settings.Limits{} // a form loaded before the limits were set
	if _, err := pr.SaveSettings(v.Settings); err != nil {
		t.Fatal(err)
	}
	if saved() != want {
		t.Fatalf("SaveSettings changed the limits to %+v", saved())
	}
	d, err := e.app.Editor.EditCoworker(e.bundles + "/helper")
	if err != nil || d.DefaultLimits != want || !d.Draft.Limits.IsZero() {
		t.Fatalf("EditCoworker = limits %+v, defaults %+v, %v", d.Draft.Limits, d.DefaultLimits, err)
	}
	if n, err := e.app.Editor.NewCoworker(""); err != nil || n.DefaultLimits != want {
		t.Fatalf("NewCoworker defaults = %+v, %v", n.DefaultLimits, err)
	}

	// A chat the person watches waits at its budget for the answer of its
	// item (here the Inbox screen's), and goes on after "continue".
	chat, err := e.app.Chats.OpenChat("helper")
	if err != nil {
		t.Fatal(err)
	}
	done := sendAsync(e.app, chat.SessionID, "Say hi")
	j, _ := e.app.engine.openJournal()
	var items []journal.InboxItem
	eventually(t, "a budget item for the chat", func() bool {
		items, err = j.Inbox(e.app.base, journal.InboxFilter{SessionID: chat.SessionID})
		return err == nil && len(items) == 1
	})
	if items[0].Kind != journal.InboxBudget || !strings.Contains(string(items[0].Asked), `"limit":"tokens_per_run"`) {
		t.Fatalf("inbox = %+v; want one budget item for tokens_per_run", items)
	}
	if e.echo.calls.Load() != 0 {
		t.Errorf("the tool ran %d times past the budget", e.echo.calls.Load())
	}
	select {
	case res := <-done:
		t.Fatalf("the watched chat ended at its budget (%+v); want it waiting for the answer", res)
	default:
	}
	if err := e.app.Inbox.Answer(items[0].ID, "continue"); err != nil {
		t.Fatal(err)
	}
	if res := waitResult(t, done); res.Code != "" || e.echo.calls.Load() != 1 {
		t.Fatalf("after continue: turn %+v, %d tool calls; want it completed with 1 call", res, e.echo.calls.Load())
	}

	// A chat that runs on its own parks on its item instead.
	chat2, err := e.app.Chats.OpenChat("helper")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.app.Chats.SetUnattended(chat2.SessionID, true); err != nil {
		t.Fatal(err)
	}
	if res := waitResult(t, sendAsync(e.app, chat2.SessionID, "Say hi again")); res.Code != harness.CodeParked {
		t.Fatalf("turn on its own = %+v; want it parked at the default tokens_per_run", res)
	}
}
