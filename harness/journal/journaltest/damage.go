// Package journaltest makes journal files for tests of the packages that
// read them (the CLI, the app).
package journaltest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/journal"
)

// Marker is the text at the start of the message whose page Damaged flips.
const Marker = "MARKER-DAMAGED-PAGE-"

// Damaged writes a journal at path with session "ses_ok" (one turn, one
// short message: on a sound page) and session "ses_1" (coworker "helper"),
// a completed turn and 40 user messages of 3 KB, closes it, and
// flips every byte of the 4 KB page holding message 21: one damaged data
// page, the rest of the file sound (PRAGMA quick_check reports it).
func Damaged(t testing.TB, path string) {
	t.Helper()
	ctx := context.Background()
	j, err := journal.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	Chats(t, j, "still readable", "ses_ok")
	if err := j.CreateSession(ctx, journal.Session{ID: "ses_1", Coworker: "helper", Identity: "sha256:id"}); err != nil {
		t.Fatal(err)
	}
	if err := j.StartTurn(ctx, journal.Turn{ID: "turn_1", SessionID: "ses_1", Prompt: "hi"}); err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		text := strings.Repeat("x", 3000)
		if i == 20 {
			text = Marker + text
		}
		b, _ := json.Marshal(text)
		if _, err := j.AppendMessage(ctx, journal.Message{SessionID: "ses_1", TurnID: "turn_1", Role: "user", Content: b}); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.FinishTurn(ctx, "turn_1", journal.TurnCompleted, "", 1, 0); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil { // the last connection checkpoints the WAL into the file
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	off := bytes.Index(data, []byte(Marker))
	if off < 0 {
		t.Fatal("journaltest: the marker is not in the database file (still in the WAL?)")
	}
	const page = 4096
	for i := off / page * page; i < (off/page+1)*page && i < len(data); i++ {
		data[i] ^= 0xA5
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}
