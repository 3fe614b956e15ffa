package journal

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// damagedJournal writes a journal with 40 messages of 3 KB, closes it and
// flips every byte of the 4 KB page holding message 21: one damaged data
// page, the rest of the file sound. It returns the path.
func damagedJournal(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	path := testPath(t)
	j, err := Open(path, &Options{Now: newClock().Now})
	if err != nil {
		t.Fatal(err)
	}
	mkSession(t, j, "s1")
	filler := strings.Repeat("x", 3000)
	for i := range 40 {
		text := filler
		if i == 20 {
			text = "MARKER-DAMAGED-PAGE-" + filler
		}
		b, _ := json.Marshal(text)
		if _, err := j.AppendMessage(ctx, Message{SessionID: "s1", TurnID: "s1-t1", Role: "user", Content: b}); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.FinishTurn(ctx, "s1-t1", TurnCompleted, "", 1, 0); err != nil {
		t.Fatal(err)
	}
	if rep := mustVerify(t, j); !rep.OK || len(rep.Integrity) != 0 {
		t.Fatalf("a sound journal: %+v", rep)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	off := bytes.Index(data, []byte("MARKER-DAMAGED-PAGE-"))
	if off < 0 {
		t.Fatal("the marker is not in the database file (still in the WAL?)")
	}
	const page = 4096
	start := off / page * page
	for i := start; i < start+page && i < len(data); i++ {
		data[i] ^= 0xA5
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestVerifyFindsADamagedPage flips one 4 KB page of a copy of a journal
// (the page holding a message) and expects Verify to report what
// PRAGMA integrity_check found, not "ok".
func TestVerifyFindsADamagedPage(t *testing.T) {
	ctx := context.Background()
	path := damagedJournal(t)
	j2, err := Open(path, &Options{Now: newClock().Now})
	if err != nil {
		t.Fatalf("Open of a journal with one damaged data page = %v", err)
	}
	defer j2.Close()
	rep, err := j2.Verify(ctx)
	if err != nil {
		t.Fatalf("Verify = %v; want a report of the damage", err)
	}
	if rep.OK || len(rep.Integrity) == 0 {
		t.Fatalf("Verify of a damaged file = %+v; want it not OK with integrity_check's findings", rep)
	}
	t.Logf("integrity_check: %q", rep.Integrity)
}
