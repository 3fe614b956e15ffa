package app

import (
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// The model picker by the composer (docs/app.md#model-in-a-chat): the
// list is the server's, a chosen model answers the chat's next turn, the
// change is journaled, and the chat continued after a restart keeps it.
func TestChatModelSwitchSurvivesRestart(t *testing.T) {
	e := newTestEnv(t, envOpts{cfg: config{Approve: "bypass"}, replies: []modeltest.Reply{{Text: "from scripted"}, {Text: "from other"}, {Text: "still other"}}})
	e.model.SetModels("scripted", "other")
	chat, err := e.app.Chats.OpenChat("helper")
	if err != nil {
		t.Fatal(err)
	}
	l, err := e.app.Chats.ChatModels(chat.SessionID)
	if err != nil || l.Current != "scripted" || len(l.Models) != 2 || l.Models[1] != "other" || l.Error != "" {
		t.Fatalf("ChatModels = %+v, %v; want scripted and other, scripted current", l, err)
	}
	if res := waitResult(t, sendAsync(e.app, chat.SessionID, "one")); res.Status != harness.TurnCompleted {
		t.Fatalf("turn 1 = %+v", res)
	}
	info, err := e.app.Chats.SetChatModel(chat.SessionID, "other")
	if err != nil || info.ModelName != "other" {
		t.Fatalf("SetChatModel = %+v, %v; want model_name other", info, err)
	}
	if res := waitResult(t, sendAsync(e.app, chat.SessionID, "two")); res.Status != harness.TurnCompleted || res.Text != "from other" {
		t.Fatalf("turn 2 = %+v", res)
	}
	reqs := e.model.Requests()
	if len(reqs) != 2 || reqs[0].Model != "scripted" || reqs[1].Model != "other" {
		t.Fatalf("requests asked for %v, want scripted then other", modelsOf(reqs))
	}
	if _, err := e.app.Chats.SetChatModel(chat.SessionID, " "); err == nil {
		t.Fatal("SetChatModel(empty) = nil, want an error")
	}

	// Restart: a new app over the same folder and journal.
	e.app.shutdown()
	e2 := newTestEnv(t, envOpts{cfg: config{Approve: "bypass", ConfigDir: e.cfgDir, Coworkers: e.bundles, BaseURL: e.model.URL}})
	again, err := e2.app.Chats.ResumeChat(chat.SessionID)
	if err != nil || again.ModelName != "other" {
		t.Fatalf("ResumeChat after a restart = %+v, %v; want the chat's last chosen model, other", again, err)
	}
	if res := waitResult(t, sendAsync(e2.app, chat.SessionID, "three")); res.Status != harness.TurnCompleted || res.Text != "still other" {
		t.Fatalf("turn 3 = %+v", res)
	}
	if reqs := e.model.Requests(); len(reqs) != 3 || reqs[2].Model != "other" {
		t.Fatalf("requests asked for %v, want the third for other", modelsOf(reqs))
	}
}

func modelsOf(reqs []modeltest.RecordedRequest) []string {
	out := make([]string, len(reqs))
	for i, r := range reqs {
		out[i] = r.Model
	}
	return out
}
