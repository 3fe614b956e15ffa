package journaltest

import (
	"context"
	"database/sql"
	"encoding/json"
	"testing"

	"github.com/openworker/desktop/harness/journal"
)

// Edit runs query on the journal file at path as someone with the sqlite3
// shell would: outside the journal, so no chain entry records it.
func Edit(t testing.TB, path, query string, args ...any) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(query, args...); err != nil {
		t.Fatalf("journaltest: edit %s: %v", path, err)
	}
}

// Chats writes, into the open journal j, one session per id (coworker
// "helper") with a turn id+"-t1" whose prompt and one user message are
// prompt.
func Chats(t testing.TB, j *journal.Journal, prompt string, ids ...string) {
	t.Helper()
	ctx := context.Background()
	for _, id := range ids {
		if err := j.CreateSession(ctx, journal.Session{ID: id, Coworker: "helper", Identity: "sha256:id"}); err != nil {
			t.Fatal(err)
		}
		if err := j.StartTurn(ctx, journal.Turn{ID: id + "-t1", SessionID: id, Prompt: prompt}); err != nil {
			t.Fatal(err)
		}
		content, _ := json.Marshal(prompt)
		if _, err := j.AppendMessage(ctx, journal.Message{SessionID: id, TurnID: id + "-t1", Role: "user", Content: content}); err != nil {
			t.Fatal(err)
		}
	}
}
