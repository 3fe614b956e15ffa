package cli_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/journal"
)

// TestInboxAnswerBadJSONShowsTheForm: an answer that does not fit its
// item exits 2 with a message in good English ("is an approval") that
// says what the item takes, with an example to copy — for a question, its
// fields by name.
func TestInboxAnswerBadJSONShowsTheForm(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "journal.db")
	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	approval, err := j.AddInboxItem(ctx, journal.InboxItem{Kind: journal.InboxApproval, Coworker: "helper", Tool: "notes.append",
		Asked: json.RawMessage(`{"tool":"notes.append","arguments":{}}`)})
	if err != nil {
		t.Fatal(err)
	}
	question, err := j.AddInboxItem(ctx, journal.InboxItem{Kind: journal.InboxQuestion, Coworker: "helper",
		Asked: json.RawMessage(`{"namespace":"shop","mode":"form","message":"Your details?","fields":["email","name"]}`)})
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	for _, c := range []struct {
		id, answer string
		want       []string
	}{
		{approval.ID, `"yes"`, []string{"inbox item " + approval.ID + " is an approval: ", "openworker inbox answer " + approval.ID + " allow"}},
		{question.ID, `"yes"`, []string{"is a question: ", "its fields: email, name",
			`openworker inbox answer ` + question.ID + ` --json '{"action":"accept","content":{"email":"…","name":"…"}}'`, `'{"action":"decline"}'`}},
	} {
		code, out := runCLI(t, "inbox", "answer", c.id, "--json", c.answer, "--db", db)
		for _, w := range c.want {
			if code != 2 || !strings.Contains(out, w) {
				t.Errorf("inbox answer %s --json %s = exit %d\n%s\nwant exit 2 and %q", c.id, c.answer, code, out, w)
			}
		}
	}
}
