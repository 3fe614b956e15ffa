package app

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

func echoCall(text string) modeltest.Reply {
	return modeltest.Reply{ToolCalls: []model.ToolCall{{Name: "test__echo", Arguments: `{"text":"` + text + `"}`}}}
}

// sendAsync runs Send on its own goroutine, as Wails does.
func sendAsync(a *desktop, id, prompt string) <-chan harness.TurnResult {
	ch := make(chan harness.TurnResult, 1)
	go func() {
		res, err := a.Chats.Send(id, prompt)
		if err != nil {
			res.Status, res.Reason = "send-error", err.Error()
		}
		ch <- res
	}()
	return ch
}

func waitResult(t *testing.T, ch <-chan harness.TurnResult) harness.TurnResult {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(hangGuard):
		t.Fatalf("Send did not return within %v", hangGuard)
		return harness.TurnResult{}
	}
}

func TestTurnWithConsentSucceeds(t *testing.T) {
	e := newTestEnv(t, envOpts{replies: []modeltest.Reply{echoCall("hello"), {Text: "The tool said **hello**."}}})
	chat, err := e.app.Chats.OpenChat("helper")
	if err != nil {
		t.Fatal(err)
	}
	if len(chat.Tools) != 1 || chat.Tools[0].Name != "test.echo" || chat.CoworkerName != "Test helper" {
		t.Fatalf("OpenChat = %+v, want one tool test.echo of Test helper", chat)
	}
	if info, _ := e.app.Window.Info(); len(info.Notices) != 0 {
		t.Errorf("start notices with a model server listening = %+v; want none", info.Notices)
	}
	if v, _ := e.app.Preferences.GetSettings(); v.ModelWarning != "" {
		t.Errorf("Settings model warning with a model server listening = %q", v.ModelWarning)
	}
	done := sendAsync(e.app, chat.SessionID, "say hello")
	p := e.rec.waitFor(t, EventApprovalRequest, nil).(PendingApproval)
	if p.Request.Tool != "test.echo" || p.Request.Coworker != "helper" || p.Request.Classification != "External" || p.Request.Placement != tool.PlacementLocal ||
		!strings.Contains(string(p.Request.Arguments), "hello") || p.Deadline.IsZero() {
		t.Fatalf("approval request = %+v", p)
	}
	if got, _ := e.app.Asks.PendingApprovals(); len(got) != 1 || got[0].ID != p.ID {
		t.Fatalf("PendingApprovals = %+v, want the one prompt", got)
	}
	if err := e.app.Asks.RespondApproval(p.ID, "allow_once"); err != nil {
		t.Fatal(err)
	}
	res := waitResult(t, done)
	if res.Status != harness.TurnCompleted || res.Text != "The tool said **hello**." || res.Calls != 1 {
		t.Fatalf("turn = %+v, want completed with the final text and 1 call", res)
	}
	if n := e.echo.calls.Load(); n != 1 {
		t.Fatalf("tool ran %d times, want 1", n)
	}
	if n := e.notify.n.Load(); n != 0 {
		t.Fatalf("%d native notifications while focused, want 0", n)
	}
	closed := e.rec.waitFor(t, EventApprovalClosed, nil).(ApprovalClosed)
	if closed.ID != p.ID || closed.Decision != consent.AllowOnce {
		t.Fatalf("approval closed = %+v", closed)
	}
	// The UI saw the whole turn, in order.
	var types []string
	for _, ev := range e.rec.all(EventHarness) {
		h := ev.(ChatEvent)
		if h.Type != harness.EventText {
			types = append(types, string(h.Type))
		}
	}
	want := "turn.started tool.proposed approval.required approval.decided tool.started tool.progress tool.finished assistant.message turn.finished"
	if got := strings.Join(types, " "); got != want {
		t.Fatalf("events = %s\nwant     %s", got, want)
	}
	// The journal shows the invocation succeeded (Activity reads the same).
	d, err := e.app.Activity.SessionDetail(chat.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Invocations) != 1 || d.Invocations[0].Status != journal.InvSucceeded || d.Invocations[0].Tool != "test.echo" || d.Invocations[0].Placement != tool.PlacementLocal {
		t.Fatalf("invocations = %+v, want one succeeded test.echo", d.Invocations)
	}
	if len(d.Approvals) != 1 || d.Approvals[0].Decision != "allow_once" || d.Approvals[0].Source != consent.SourcePrompt {
		t.Fatalf("approvals = %+v", d.Approvals)
	}
	sessions, err := e.app.Activity.Sessions()
	if err != nil || len(sessions) != 1 || sessions[0].ID != chat.SessionID {
		t.Fatalf("Sessions = %+v, %v", sessions, err)
	}
	if err := e.app.Asks.RespondApproval(p.ID, "allow_once"); err == nil {
		t.Fatal("answering a closed prompt again succeeded")
	}
}

func TestUnansweredPromptTimesOutAsDenyAndNotifiesWhenUnfocused(t *testing.T) {
	e := newTestEnv(t, envOpts{cfg: config{PromptTimeout: "300ms"}, replies: []modeltest.Reply{echoCall("x"), {Text: "ok, not run"}}})
	chat, err := e.app.Chats.OpenChat("helper")
	if err != nil {
		t.Fatal(err)
	}
	_ = e.app.Window.SetWindowFocused(false)
	res := waitResult(t, sendAsync(e.app, chat.SessionID, "try"))
	if res.Status != harness.TurnCompleted {
		t.Fatalf("turn = %+v", res)
	}
	if n := e.echo.calls.Load(); n != 0 {
		t.Fatalf("tool ran %d times after a timeout, want 0", n)
	}
	closed := e.rec.waitFor(t, EventApprovalClosed, nil).(ApprovalClosed)
	if closed.Decision != consent.Deny || !strings.Contains(closed.Reason, "in time") {
		t.Fatalf("closed = %+v, want a timeout deny", closed)
	}
	deadline := time.Now().Add(hangGuard)
	for e.notify.n.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := e.notify.n.Load(); n != 1 {
		t.Fatalf("%d native notifications while unfocused, want 1", n)
	}
	if s, _ := e.notify.title.Load().(string); !strings.Contains(s, "test.echo") || strings.Contains(s, `"x"`) {
		t.Fatalf("notification %q: want the tool name and no arguments", s)
	}
	d, _ := e.app.Activity.SessionDetail(chat.SessionID)
	if len(d.Invocations) != 1 || d.Invocations[0].Status != journal.InvRefused {
		t.Fatalf("invocations = %+v, want one refused", d.Invocations)
	}
	if len(d.Approvals) != 1 || d.Approvals[0].Source != consent.SourceTimeout {
		t.Fatalf("approvals = %+v, want a timeout", d.Approvals)
	}
}

func TestModelFailuresKeepTheChatUsable(t *testing.T) {
	// A provider that fails (HTTP 500 standing in for a crash mid-turn),
	// then answers.
	e := newTestEnv(t, envOpts{replies: []modeltest.Reply{
		echoCall("a"), {Err: 500, ErrMessage: "model crashed"}, {Text: "back again"},
	}, cfg: config{Approve: "bypass"}})
	chat, err := e.app.Chats.OpenChat("helper")
	if err != nil {
		t.Fatal(err)
	}
	res := waitResult(t, sendAsync(e.app, chat.SessionID, "first"))
	if res.Status != harness.TurnFailed || !strings.Contains(res.Reason, "model crashed") || !strings.Contains(res.Reason, "127.0.0.1") {
		t.Fatalf("turn = %+v, want failed naming the endpoint and the message", res)
	}
	errEv := e.rec.waitFor(t, EventHarness, func(p any) bool { return p.(ChatEvent).Type == harness.EventError }).(ChatEvent)
	if !strings.Contains(errEv.Error, "model crashed") {
		t.Fatalf("error event = %+v", errEv)
	}
	// The chat stays open: once the model is back, the same chat goes on.
	res = waitResult(t, sendAsync(e.app, chat.SessionID, "again"))
	if res.Status != harness.TurnCompleted || res.Text != "back again" {
		t.Fatalf("turn after the failure = %+v, want completed in the same chat", res)
	}
}

// Retry runs a failed turn again in the same chat, with no second copy
// of the prompt; with nothing to retry it says so.
func TestRetryAfterAFailedTurn(t *testing.T) {
	e := newTestEnv(t, envOpts{replies: []modeltest.Reply{
		{Err: 500, ErrMessage: "model crashed"}, {Text: "back again"},
	}, cfg: config{Approve: "bypass"}})
	chat, err := e.app.Chats.OpenChat("helper")
	if err != nil {
		t.Fatal(err)
	}
	if res := waitResult(t, sendAsync(e.app, chat.SessionID, "first")); res.Status != harness.TurnFailed {
		t.Fatalf("turn = %+v, want failed", res)
	}
	res, err := e.app.Chats.Retry(chat.SessionID)
	if err != nil || res.Status != harness.TurnCompleted || res.Text != "back again" {
		t.Fatalf("Retry = %+v, %v; want completed", res, err)
	}
	started := e.rec.waitFor(t, EventHarness, func(p any) bool {
		ev := p.(ChatEvent)
		return ev.Type == harness.EventTurnStarted && ev.Status == "retry"
	}).(ChatEvent)
	if started.Text != "first" {
		t.Fatalf("the retry's turn.started = %+v, want the prompt it retries", started)
	}
	if _, err := e.app.Chats.Retry(chat.SessionID); err == nil || !strings.Contains(err.Error(), "nothing to retry") {
		t.Fatalf("second Retry = %v, want nothing to retry", err)
	}
	if _, err := e.app.Chats.Retry("ses_nope"); err == nil || !strings.Contains(err.Error(), "no open chat") {
		t.Fatalf("Retry of an unknown chat = %v", err)
	}
}

func TestUnreachableModel(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String() + "/v1"
	l.Close()
	e := newTestEnv(t, envOpts{cfg: config{BaseURL: url}})
	// Before any message: the start notices and Settings say nothing answers there.
	info, _ := e.app.Window.Info()
	var warned bool
	for _, n := range info.Notices {
		warned = warned || (n.Level == NoticeWarn && strings.Contains(n.Message, "No model server answers at "+url))
	}
	if !warned {
		t.Errorf("start notices = %+v; want a warning that no model server answers at %s", info.Notices, url)
	}
	if v, _ := e.app.Preferences.GetSettings(); !strings.Contains(v.ModelWarning, url) {
		t.Errorf("Settings model warning = %q; want it to name %s", v.ModelWarning, url)
	}
	chat, err := e.app.Chats.OpenChat("helper")
	if err != nil {
		t.Fatal(err)
	}
	res := waitResult(t, sendAsync(e.app, chat.SessionID, "hello?"))
	if res.Status != harness.TurnFailed || !strings.Contains(res.Reason, l.Addr().String()) {
		t.Fatalf("turn = %+v, want failed naming %s", res, url)
	}
	ev := e.rec.waitFor(t, EventHarness, func(p any) bool { return p.(ChatEvent).Type == harness.EventError }).(ChatEvent)
	if !strings.Contains(ev.Error, l.Addr().String()) || !strings.Contains(ev.Error, "choose another provider and model in Settings") {
		t.Errorf("the chat's error = %q; want the address and what to do", ev.Error)
	}
	if _, err := e.app.Coworkers.Coworkers(); err != nil {
		t.Fatal(err)
	}
}

func TestCancelStopsTheTurn(t *testing.T) {
	e := newTestEnv(t, envOpts{replies: []modeltest.Reply{{Text: strings.Repeat("slow ", 200), Delay: 200 * time.Millisecond}}})
	chat, err := e.app.Chats.OpenChat("helper")
	if err != nil {
		t.Fatal(err)
	}
	done := sendAsync(e.app, chat.SessionID, "take your time")
	e.rec.waitFor(t, EventHarness, func(p any) bool { return p.(ChatEvent).Type == harness.EventText })
	if _, err := e.app.Chats.Send(chat.SessionID, "second"); err != ErrTurnRunning {
		t.Fatalf("Send during a turn = %v, want ErrTurnRunning", err)
	}
	if err := e.app.Chats.Cancel(chat.SessionID); err != nil {
		t.Fatal(err)
	}
	if res := waitResult(t, done); res.Status != harness.TurnCancelled {
		t.Fatalf("turn = %+v, want cancelled", res)
	}
	if err := e.app.Chats.CloseChat(chat.SessionID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.app.Chats.Send(chat.SessionID, "x"); err == nil {
		t.Fatal("Send on a closed chat succeeded")
	}
}

func TestUnknownInvocationReconciled(t *testing.T) {
	e := newTestEnv(t, envOpts{risk: tool.NonIdempotentWrite, fail: true, cfg: config{Approve: "bypass"},
		replies: []modeltest.Reply{echoCall("w")}})
	chat, err := e.app.Chats.OpenChat("helper")
	if err != nil {
		t.Fatal(err)
	}
	res := waitResult(t, sendAsync(e.app, chat.SessionID, "write"))
	if res.Status != harness.TurnStopped {
		t.Fatalf("turn = %+v, want stopped", res)
	}
	d, _ := e.app.Activity.SessionDetail(chat.SessionID)
	if len(d.Invocations) != 1 || d.Invocations[0].Status != journal.InvUnknown {
		t.Fatalf("invocations = %+v, want one unknown", d.Invocations)
	}
	inv, err := e.app.Activity.Reconcile(d.Invocations[0].ID, "applied")
	if err != nil {
		t.Fatal(err)
	}
	if inv.Reconciled != journal.OutcomeApplied || inv.Effect != journal.EffectApplied {
		t.Fatalf("reconciled = %+v", inv)
	}
	if _, err := e.app.Activity.Reconcile(inv.ID, "not-applied"); err == nil {
		t.Fatal("reconciling twice succeeded")
	}
}

func TestBrokenBundleListedWithFix(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	bad := filepath.Join(e.bundles, "broken", "coworker")
	if err := os.MkdirAll(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(bad, "manifest.md"), []byte("---\nid: broken\nname: Broken\ndescription: x\nversion: 1.0.0\n---\nhi\n"), 0o644)
	os.WriteFile(filepath.Join(bad, "tools.json"), []byte("{\"version\":3,\n\"tools\":[\"test.echo\"],\n\"extra\":1}"), 0o644)
	l, err := e.app.Coworkers.Coworkers()
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Coworkers) != 1 || l.Coworkers[0].ID != "helper" {
		t.Fatalf("coworkers = %+v, want only helper", l.Coworkers)
	}
	if len(l.Broken) != 1 || !strings.HasSuffix(l.Broken[0].File, "tools.json") || l.Broken[0].Line != 3 || l.Broken[0].Message == "" {
		t.Fatalf("broken = %+v, want tools.json line 3", l.Broken)
	}
	if _, err := e.app.Chats.OpenChat("broken"); err == nil || !strings.Contains(err.Error(), "tools.json") {
		t.Fatalf("OpenChat(broken) = %v, want an error naming tools.json", err)
	}
	if _, err := e.app.Chats.OpenChat("helper"); err != nil {
		t.Fatalf("a good coworker beside a broken one: %v", err)
	}
	// A file in the folder (a zipped bundle) is listed with what to do.
	zip := filepath.Join(e.bundles, "helper2.zip")
	os.WriteFile(zip, []byte("PK"), 0o644)
	l, _ = e.app.Coworkers.Coworkers()
	found := false
	for _, b := range l.Broken {
		found = found || b.File == zip && strings.Contains(b.Message, "not a coworker folder") && strings.Contains(b.Fix, "unpack")
	}
	if !found || len(l.Coworkers) != 1 {
		t.Errorf("list with a file in the folder = %+v; want the file listed with a fix", l)
	}
}

// TestUnresolvedCoworkerFixNamesImport: a coworker whose tools.json names an
// MCP provider the servers file lacks is listed broken, and its fix says
// where the app adds one (Settings → Import MCP servers…).
func TestUnresolvedCoworkerFixNamesImport(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	writeBundle(t, e.bundles, "dev", "device.battery_status_get")
	l, _ := e.app.Coworkers.Coworkers()
	var fix string
	for _, b := range l.Broken {
		if b.ID == "dev" {
			fix = b.Fix
		}
	}
	if fix != ResolveFixInApp || !strings.Contains(fix, "Settings → Import MCP servers…") || !strings.Contains(fix, "Install extension…") || !strings.Contains(fix, "servers.json") {
		t.Errorf("fix of the unresolved coworker = %q (list %+v)", fix, l)
	}
}

func TestLiveReloadOfCoworkers(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	writeBundle(t, e.bundles, "newcomer", "test.echo")
	e.rec.waitFor(t, EventCoworkersChanged, func(p any) bool {
		for _, c := range p.(CoworkerList).Coworkers {
			if c.ID == "newcomer" {
				return true
			}
		}
		return false
	})
}

func TestServersFileErrorIsANotice(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "servers.json")
	os.WriteFile(bad, []byte("{\"servers\": {\n  \"x\": {\"transport\": \"stdio\", \"bogus\": 1}}}"), 0o644)
	e := newTestEnv(t, envOpts{cfg: config{Servers: bad}, replies: []modeltest.Reply{{Text: "fine"}}})
	info, _ := e.app.Window.Info()
	if len(info.Notices) == 0 || !strings.Contains(info.Notices[0].Message, "servers.json") || !strings.Contains(info.Notices[0].Message, bad) {
		t.Fatalf("notices = %+v, want the servers.json error naming the file", info.Notices)
	}
	chat, err := e.app.Chats.OpenChat("helper")
	if err != nil {
		t.Fatal(err)
	}
	if res := waitResult(t, sendAsync(e.app, chat.SessionID, "hi")); res.Status != harness.TurnCompleted {
		t.Fatalf("turn = %+v", res)
	}
}

func TestAPIKeysStayInTheKeychain(t *testing.T) {
	e := newTestEnv(t, envOpts{replies: []modeltest.Reply{{Text: "ok"}}})
	const secret = "sk-test-0123456789abcdef"
	v, err := e.app.Preferences.SetAPIKey("openai", secret)
	if err != nil {
		t.Fatal(err)
	}
	if !v.KeyStored["openai"] || v.KeyStored["anthropic"] {
		t.Fatalf("key_stored = %v", v.KeyStored)
	}
	if _, err := e.app.Preferences.SaveSettings(v.Settings); err != nil {
		t.Fatal(err)
	}
	chat, err := e.app.Chats.OpenChat("helper")
	if err != nil {
		t.Fatal(err)
	}
	waitResult(t, sendAsync(e.app, chat.SessionID, "hi"))
	reqs := e.model.Requests()
	if len(reqs) == 0 || reqs[len(reqs)-1].APIKey != secret {
		t.Fatal("the model request did not carry the stored key")
	}
	// Nothing on disk holds the key: settings, journal, logs.
	filepath.Walk(e.cfgDir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			b, _ := os.ReadFile(p)
			if strings.Contains(string(b), secret) {
				t.Errorf("%s contains the API key", p)
			}
		}
		return nil
	})
	blob, _ := json.Marshal(v)
	if strings.Contains(string(blob), secret) {
		t.Fatal("the settings view carries the key")
	}
	if v, err = e.app.Preferences.DeleteAPIKey("openai"); err != nil || v.KeyStored["openai"] {
		t.Fatalf("after delete: %v, %v", v.KeyStored, err)
	}
	if _, err := e.app.Preferences.SetAPIKey("other", "k"); err == nil {
		t.Fatal("SetAPIKey accepted an unknown provider")
	}
}

func TestSettingsChangeAppliesToNewChats(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	v, _ := e.app.Preferences.GetSettings()
	s := v.Settings
	s.OpenAI.BaseURL = "not a url"
	if _, err := e.app.Preferences.SaveSettings(s); err == nil || !strings.Contains(err.Error(), "base URL") {
		t.Fatalf("SaveSettings(bad URL) = %v", err)
	}
	other := t.TempDir()
	writeBundle(t, other, "second", "test.echo")
	l, err := e.app.Coworkers.SetCoworkersDir(other)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Coworkers) != 1 || l.Coworkers[0].ID != "second" {
		t.Fatalf("list = %+v", l)
	}
	if _, err := e.app.Chats.OpenChat("second"); err != nil {
		t.Fatal(err)
	}
	saved, err := LoadSettings(filepath.Join(e.cfgDir, "settings.json"))
	if err != nil || saved.CoworkersDir != other {
		t.Fatalf("saved settings = %+v, %v", saved, err)
	}
}

func TestJournalInterruptedCallsNoticed(t *testing.T) {
	cfgDir := t.TempDir()
	j, err := journal.Open(filepath.Join(cfgDir, "journal.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := j.CreateSession(ctx, journal.Session{ID: "ses_x", Coworker: "c", Identity: "sha256:00", Provider: "openai", Model: "m", Approve: "ask"}); err != nil {
		t.Fatal(err)
	}
	if err := j.PrepareInvocation(ctx, journal.Invocation{ID: "inv_x", SessionID: "ses_x", CallID: "c1", Tool: "test.echo", Arguments: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if err := j.MarkExecuting(ctx, "inv_x"); err != nil {
		t.Fatal(err)
	}
	if err := j.StartTurn(ctx, journal.Turn{ID: "ses_x-t1", SessionID: "ses_x", Prompt: "go"}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	e := newTestEnv(t, envOpts{cfg: config{ConfigDir: cfgDir}})
	info, _ := e.app.Window.Info()
	want := "1 tool call and 1 turn were interrupted when the app last stopped; review them in Activity and record whether the call took effect."
	if len(info.Notices) != 1 || info.Notices[0].Message != want || info.Notices[0].Level != NoticeWarn {
		t.Fatalf("notices = %+v, want one warning %q", info.Notices, want)
	}
	d, err := e.app.Activity.SessionDetail("ses_x")
	if err != nil || d.Invocations[0].Status != journal.InvUnknown {
		t.Fatalf("detail = %+v, %v; want the invocation unknown", d.Invocations, err)
	}
}

func TestRecoveredNotice(t *testing.T) {
	for _, c := range []struct {
		calls, turns int
		want         string
	}{
		{0, 0, ""},
		{1, 0, "1 tool call was interrupted when the app last stopped; review it in Activity and record whether the call took effect."},
		{3, 0, "3 tool calls were interrupted when the app last stopped; review them in Activity and record whether each call took effect."},
		{0, 1, "1 turn was interrupted when the app last stopped; review it in Activity."},
		{0, 2, "2 turns were interrupted when the app last stopped; review them in Activity."},
		{2, 1, "2 tool calls and 1 turn were interrupted when the app last stopped; review them in Activity and record whether each call took effect."},
	} {
		if got := recoveredNotice(c.calls, c.turns); got != c.want {
			t.Errorf("recoveredNotice(%d, %d) = %q, want %q", c.calls, c.turns, got, c.want)
		}
	}
}

// A person continues an old chat: one closed in this window, and one left
// in the journal when the app quit. The model gets the whole history, and
// the chat is open again in the journal.
func TestResumeChat(t *testing.T) {
	e := newTestEnv(t, envOpts{cfg: config{Approve: "bypass"}, replies: []modeltest.Reply{echoCall("one"), {Text: "first answer"}, {Text: "second answer"}}})
	chat, err := e.app.Chats.OpenChat("helper")
	if err != nil {
		t.Fatal(err)
	}
	if res := waitResult(t, sendAsync(e.app, chat.SessionID, "first question")); res.Status != harness.TurnCompleted {
		t.Fatalf("first turn = %+v", res)
	}
	if err := e.app.Chats.CloseChat(chat.SessionID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.app.Chats.Send(chat.SessionID, "hello?"); err == nil {
		t.Fatal("Send to a closed chat succeeded")
	}
	again, err := e.app.Chats.ResumeChat(chat.SessionID)
	if err != nil {
		t.Fatalf("ResumeChat of a closed chat = %v", err)
	}
	if again.SessionID != chat.SessionID || again.Coworker != "helper" || again.CoworkerName != "Test helper" || len(again.Tools) != 1 {
		t.Fatalf("ResumeChat = %+v, want the helper chat with its tool", again)
	}
	if same, err := e.app.Chats.ResumeChat(chat.SessionID); err != nil || same.SessionID != chat.SessionID {
		t.Fatalf("ResumeChat of an open chat = %+v, %v", same, err)
	}
	if res := waitResult(t, sendAsync(e.app, chat.SessionID, "second question")); res.Status != harness.TurnCompleted || res.Text != "second answer" {
		t.Fatalf("turn after resume = %+v", res)
	}
	reqs := e.model.Requests()
	if last := reqs[len(reqs)-1].Messages; len(last) != 5 {
		t.Fatalf("the resumed turn sent %d messages, want the 4 earlier ones and the new question", len(last))
	}
	d, err := e.app.Activity.SessionDetail(chat.SessionID)
	if err != nil || d.Status != journal.SessionOpen || len(d.Turns) != 2 {
		t.Fatalf("SessionDetail = status %q, %d turns, %v; want open with 2 turns", d.Status, len(d.Turns), err)
	}

	// Quit the app with the chat open, start it again on the same data.
	e.app.shutdown()
	m2 := modeltest.NewOpenAI(t, modeltest.Reply{Text: "third answer"})
	reg := tool.NewRegistry()
	if err := reg.Register(e.echo); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a2, err := newApp(ctx, reg, config{ConfigDir: e.cfgDir, Coworkers: e.bundles, BaseURL: m2.URL, Model: "scripted", Approve: "bypass",
		Getenv: func(string) string { return "" }}, deps{Emitter: newRecorder(), Keychain: e.keys, Notifier: e.notify})
	if err != nil {
		t.Fatal(err)
	}
	a2.startup()
	defer a2.shutdown()
	if _, err := a2.Chats.Send(chat.SessionID, "third question"); err == nil {
		t.Fatal("Send before ResumeChat after a restart succeeded")
	}
	if _, err := a2.Chats.ResumeChat(chat.SessionID); err != nil {
		t.Fatalf("ResumeChat after a restart = %v", err)
	}
	if res := waitResult(t, sendAsync(a2, chat.SessionID, "third question")); res.Text != "third answer" {
		t.Fatalf("turn after restart = %+v", res)
	}
	if got := m2.Requests()[0].Messages; len(got) != 7 {
		t.Errorf("after a restart the model got %d messages, want the 6 earlier ones and the new question", len(got))
	}
	if _, err := a2.Chats.ResumeChat("ses_nope"); err == nil || !strings.Contains(err.Error(), "ses_nope") {
		t.Errorf("ResumeChat(unknown) = %v, want an error naming it", err)
	}
	// A changed coworker: the chat cannot go on, and the message says what
	// changed and what to do.
	if err := a2.Chats.CloseChat(chat.SessionID); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(e.bundles, "helper", "coworker", "manifest.md")
	b, _ := os.ReadFile(manifest)
	if err := os.WriteFile(manifest, append(b, "\nBe brief.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = a2.Chats.ResumeChat(chat.SessionID)
	for _, want := range []string{"this chat cannot be continued", "the coworker bundle", "start a new chat with helper"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ResumeChat after the bundle changed = %v; want it to say %q", err, want)
		}
	}
}
