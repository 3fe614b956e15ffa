package app

import (
	"context"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// TestChatsListedFromTheJournal: a chat is listed titled by its first
// prompt (with an event when it starts and when it gets the title), a
// rename and a hide are journaled, search finds it by a word of the
// answer, and after a restart on the same files it is still listed.
func TestChatsListedFromTheJournal(t *testing.T) {
	e := newTestEnv(t, envOpts{cfg: config{Approve: "bypass"}, replies: []modeltest.Reply{{Text: "You are on Linux."}}})
	chat, err := e.app.Chats.OpenChat("helper")
	if err != nil {
		t.Fatal(err)
	}
	listedAs := func(title string) func(any) bool {
		return func(p any) bool {
			s, ok := p.(journal.Session)
			return ok && s.ID == chat.SessionID && s.Title == title
		}
	}
	e.rec.waitFor(t, EventChatChanged, listedAs("")) // started, no title yet
	if res := waitResult(t, sendAsync(e.app, chat.SessionID, "What computer\nam I on?")); res.Status != harness.TurnCompleted {
		t.Fatalf("turn = %+v", res)
	}
	e.rec.waitFor(t, EventChatChanged, listedAs("What computer am I on?"))
	p, err := e.app.Chats.Chats("", false)
	if err != nil || len(p.Sessions) != 1 {
		t.Fatalf("Chats = %+v, %v", p, err)
	}
	if s := p.Sessions[0]; s.ID != chat.SessionID || s.Title != "What computer am I on?" || s.Coworker != "helper" || s.Status != journal.SessionOpen || s.LastActivity.IsZero() {
		t.Errorf("listed chat = %+v", s)
	}
	if ss, err := e.app.Chats.SearchChats(`linux"`, false); err != nil || len(ss) != 1 || ss[0].ID != chat.SessionID {
		t.Errorf(`SearchChats(linux") = %v, %v; want the chat (a word of the answer)`, ss, err)
	}
	if sn, err := e.app.Chats.ChatSnippets(`linux"`, []string{chat.SessionID, "no-such-chat"}); err != nil || len(sn) != 1 || sn[chat.SessionID] != "You are on Linux." {
		t.Errorf(`ChatSnippets(linux") = %v, %v; want the answer's line for the chat only`, sn, err)
	}
	if s, err := e.app.Chats.RenameChat(chat.SessionID, "My machine"); err != nil || s.Title != "My machine" {
		t.Fatalf("RenameChat = %+v, %v", s, err)
	}
	e.rec.waitFor(t, EventChatChanged, listedAs("My machine"))
	if _, err := e.app.Chats.RenameChat(chat.SessionID, "  "); err == nil {
		t.Error("an empty title was accepted")
	}
	if err := e.app.Chats.CloseChat(chat.SessionID); err != nil {
		t.Fatal(err)
	}

	// Restart on the same config folder: the chat is still listed.
	e.app.shutdown()
	reg := tool.NewRegistry()
	if err := reg.Register(e.echo); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a2, err := newApp(ctx, reg, config{ConfigDir: e.cfgDir, Coworkers: e.bundles, BaseURL: e.model.URL, Model: "scripted", Approve: "bypass",
		Getenv: func(string) string { return "" }}, deps{Emitter: newRecorder(), Keychain: e.keys, Notifier: e.notify})
	if err != nil {
		t.Fatal(err)
	}
	a2.startup()
	defer a2.shutdown()
	p, err = a2.Chats.Chats("", false)
	if err != nil || len(p.Sessions) != 1 || p.Sessions[0].Title != "My machine" || p.Sessions[0].Status != journal.SessionClosed {
		t.Fatalf("Chats after a restart = %+v, %v; want the closed chat, titled", p, err)
	}
	if s, err := a2.Chats.HideChat(chat.SessionID, true); err != nil || !s.Hidden {
		t.Fatalf("HideChat = %+v, %v", s, err)
	}
	if p, _ := a2.Chats.Chats("", false); len(p.Sessions) != 0 {
		t.Errorf("a hidden chat is listed: %+v", p.Sessions)
	}
	if p, _ := a2.Chats.Chats("", true); len(p.Sessions) != 1 || !p.Sessions[0].Hidden {
		t.Errorf("show hidden lists %+v; want the hidden chat", p.Sessions)
	}
	if a, _ := a2.Activity.SessionPage("", false); len(a.Sessions) != 1 {
		t.Errorf("Activity lists %d sessions; want the hidden one too", len(a.Sessions))
	}
	if s, err := a2.Chats.HideChat(chat.SessionID, false); err != nil || s.Hidden {
		t.Fatalf("HideChat(false) = %+v, %v", s, err)
	}
	if _, err := a2.Chats.HideChat("ses_nope", true); err == nil {
		t.Error("hiding a missing chat succeeded")
	}
}

// TestSnippet: the line around the first word found (from a word's start,
// any case), on one line, cut with "…"; nothing when no word starts a word.
func TestSnippet(t *testing.T) {
	long := strings.Repeat("filler ", 10) + "The Battery\nis at 80 %. " + strings.Repeat("more words ", 15)
	for _, c := range []struct {
		text  string
		words []string
		want  string
	}{
		{"You are on Linux.", []string{"linux"}, "You are on Linux."},
		{"You are on Linux.", []string{"inux"}, ""},
		{"Ünïcode ÄPFEL und Birnen", []string{"äpf"}, "Ünïcode ÄPFEL und Birnen"},
		{long, []string{"batt"}, "…ller filler filler filler The Battery is at 80 %. more words more words more words more words more words more words more…"},
	} {
		if got := snippet(c.text, c.words); got != c.want {
			t.Errorf("snippet(%q, %q) = %q, want %q", c.text, c.words, got, c.want)
		}
	}
}
