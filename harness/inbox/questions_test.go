package inbox

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/openworker/desktop/internal/testwait"

	"github.com/openworker/desktop/harness/elicit"
	"github.com/openworker/desktop/harness/journal"
)

var question = elicit.Question{ID: "eli_1", Namespace: "everything", Tool: "everything.ask", SessionID: "ses_1", TurnID: "ses_1-t1",
	CallID: "c1", Mode: elicit.ModeForm, Message: "Your name?", Fields: []elicit.Field{{Name: "name"}}}

// TestUnattendedQuestionAnswered: an unattended run's question is a
// question item (the fields' names, no values) that another process's
// answer reaches; the answer is handed back and the item consumed.
func TestUnattendedQuestionAnswered(t *testing.T) {
	a, b := open(t)
	u := &UnattendedQuestions{Inbox: a, Wait: 2 * time.Minute}
	go func() {
		var items []journal.InboxItem
		testwait.For(2*time.Minute, func() bool {
			items, _ = b.Journal().Inbox(context.Background(), journal.InboxFilter{})
			return len(items) == 1
		})
		if len(items) != 1 {
			return // Elicit's own wait ends the test
		}
		if _, err := b.Answer(context.Background(), items[0].ID, json.RawMessage(`{"action":"accept","content":{"name":"Ada"}}`), "cli: inbox answer"); err != nil {
			t.Error(err)
		}
	}()
	ans, err := u.Elicit(context.Background(), question)
	if err != nil || ans.Action != elicit.Accept || ans.Content["name"] != "Ada" {
		t.Fatalf("Elicit = %+v, %v; want accept with name Ada", ans, err)
	}
	it := only(t, a)
	var asked QuestionAsked
	if it.Kind != journal.InboxQuestion || it.Status != journal.InboxConsumed || it.Coworker != "demo" ||
		json.Unmarshal(it.Asked, &asked) != nil || asked.Message != "Your name?" || len(asked.Fields) != 1 || asked.Fields[0] != "name" {
		t.Fatalf("item = %+v", it)
	}
}

// TestUnattendedQuestionMissed: unanswered within its wait, the question
// is declined and the item stays in the inbox, expired: a missed
// question.
func TestUnattendedQuestionMissed(t *testing.T) {
	a, _ := open(t)
	u := &UnattendedQuestions{Inbox: a, Wait: 100 * time.Millisecond}
	ans, err := u.Elicit(context.Background(), question)
	if err != nil || ans.Action != elicit.Decline {
		t.Fatalf("Elicit = %+v, %v; want declined", ans, err)
	}
	if it := only(t, a); it.Kind != journal.InboxQuestion || it.Status != journal.InboxExpired || it.Deadline.IsZero() {
		t.Fatalf("item = %+v; want an expired question with its deadline", it)
	}
}
