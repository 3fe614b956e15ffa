package cli_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/journal/journaltest"
)

// TestJournalVerifyNamesADamagedFile: one 4 KB page of a journal flipped;
// `journal verify` exits 1, names integrity_check and says what to do;
// `run` refuses to write into it; `list` warns.
func TestJournalVerifyNamesADamagedFile(t *testing.T) {
	db := filepath.Join(t.TempDir(), "journal.db")
	journaltest.Damaged(t, db)
	code, out := runCLI(t, "journal", "verify", "--db", db)
	for _, want := range []string{"DAMAGED: PRAGMA integrity_check", "the journal file " + db + " is damaged", "openworker journal export --db " + db} {
		if !strings.Contains(out, want) {
			t.Errorf("verify of a damaged file (exit %d) lacks %q:\n%s", code, want, out)
		}
	}
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}

	// run refuses to write into it, says what to do, and leaves it as it was.
	before, _ := os.ReadFile(db)
	code, out = runCLI(t, "run", "--db", db, "--coworkers", t.TempDir(), "--coworker", "helper",
		"--base-url", "http://127.0.0.1:9/v1", "--model", "m", "hello")
	for _, want := range []string{"The journal " + db + " is damaged", "Nothing was run", "restore a backup", "move the file aside", "journal export --db " + db} {
		if !strings.Contains(out, want) {
			t.Errorf("run on a damaged journal (exit %d) lacks %q:\n%s", code, want, out)
		}
	}
	if code != 1 {
		t.Errorf("run on a damaged journal: exit %d, want 1", code)
	}
	if after, _ := os.ReadFile(db); !bytes.Equal(before, after) {
		t.Error("run changed the damaged journal file")
	}
	if _, err := os.Stat(db + "-wal"); err == nil {
		if fi, _ := os.Stat(db + "-wal"); fi.Size() > 0 {
			t.Errorf("run left %d bytes in the WAL of the damaged journal", fi.Size())
		}
	}
	// export saves every session it can still read, names the one it cannot, exits 1.
	out2 := filepath.Join(t.TempDir(), "saved.jsonl")
	code, _, stderr := runCLISplit(t, "journal", "export", "--db", db, "--to", out2)
	saved, _ := os.ReadFile(out2)
	if code != 1 || !strings.Contains(string(saved), `"id":"ses_ok"`) || strings.Contains(string(saved), `"id":"ses_1"`) ||
		!strings.Contains(stderr, "session ses_1: not exported: ") || !strings.Contains(stderr, "exported 1 of 2 sessions") {
		t.Errorf("export of a damaged journal: exit %d, stderr:\n%s\nsaved:\n%.300s", code, stderr, saved)
	}
	if code, _, _ := runCLISplit(t, "journal", "export", "--db", db, "--to", out2); code != 2 {
		t.Errorf("export --to an existing file: exit %d, want 2 (never overwritten)", code)
	}
	// list reads what it can and warns on stderr.
	code, _, stderr = runCLISplit(t, "journal", "list", "--db", db)
	if !strings.Contains(stderr, "warning: The journal "+db+" is damaged") {
		t.Errorf("list of a damaged journal (exit %d): stderr %q, want the warning", code, stderr)
	}
}

// TestRunJournalRefusalExits1: when the journal refuses to record the
// session (here a trigger in the file makes the insert fail, as a full
// disk or a held lock would), run exits 1, a runtime failure, not 2.
func TestRunJournalRefusalExits1(t *testing.T) {
	db := filepath.Join(t.TempDir(), "journal.db")
	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	journaltest.Edit(t, db, `CREATE TRIGGER refuse BEFORE INSERT ON sessions BEGIN SELECT RAISE(FAIL, 'no room for this session'); END`)
	dir := t.TempDir()
	cw := filepath.Join(dir, "quiet", "coworker")
	os.MkdirAll(cw, 0o755)
	os.WriteFile(filepath.Join(cw, "manifest.md"), []byte("---\nid: quiet\nname: Quiet\nversion: 1.0.0\n---\nSay hello.\n"), 0o644)
	os.WriteFile(filepath.Join(cw, "tools.json"), []byte(`{"version":3,"tools":[]}`), 0o644)
	code, out := runCLI(t, "run", "--db", db, "--coworkers", dir, "--coworker", "quiet", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "hello")
	if code != 1 || !strings.Contains(out, "journal the session: ") || !strings.Contains(out, "no room for this session") {
		t.Errorf("run whose session the journal refuses: exit %d, want 1\n%s", code, out)
	}
}

// TestExportSkipsADamagedValue: a message whose stored JSON was damaged
// inside its cell stops only its own session's export, which is named;
// the other session is saved; show --json names the session too.
func TestExportSkipsADamagedValue(t *testing.T) {
	db := filepath.Join(t.TempDir(), "journal.db")
	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	journaltest.Chats(t, j, "hi", "ses_a", "ses_b")
	j.Close()
	journaltest.Edit(t, db, `UPDATE messages SET content = ? WHERE session_id = 'ses_a'`, "{\"text\": \"h\x00")
	to := filepath.Join(t.TempDir(), "saved.jsonl")
	code, _, stderr := runCLISplit(t, "journal", "export", "--db", db, "--to", to)
	saved, _ := os.ReadFile(to)
	if code != 1 || !strings.Contains(stderr, "session ses_a: not exported: its journaled JSON is damaged") ||
		!strings.Contains(string(saved), `"id":"ses_b"`) || strings.Contains(string(saved), `"id":"ses_a"`) {
		t.Errorf("export with one damaged value: exit %d\nstderr: %s\nsaved: %.300s", code, stderr, saved)
	}
	code, _, stderr = runCLISplit(t, "journal", "show", "ses_a", "--json", "--db", db)
	if code != 1 || !strings.Contains(stderr, "session ses_a cannot be shown as JSON") {
		t.Errorf("show --json of the damaged session: exit %d, stderr %s", code, stderr)
	}
}

// TestVerifyListsEveryBreak: journal verify's text names every break it
// found, not only the first, counted in words that fit the number ("1
// break", "2 breaks"), after a first line that says FAILED, and exits 1.
func TestVerifyListsEveryBreak(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "journal.db")
	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"ses_a", "ses_b"} {
		if err := j.CreateSession(ctx, journal.Session{ID: id, Coworker: "helper", Identity: "sha256:id"}); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	journaltest.Edit(t, db, `UPDATE sessions SET coworker = 'someone else' WHERE id = 'ses_a'`)
	code, out, _ := runCLISplit(t, "journal", "verify", "--db", db)
	if code != 1 || !strings.HasPrefix(out, "FAILED: the hash chain is broken\n") || !strings.Contains(out, "(1 break found)") {
		t.Errorf("verify of one changed row: exit %d\n%s", code, out)
	}
	journaltest.Edit(t, db, `UPDATE sessions SET coworker = 'someone else'`)
	code, out, _ = runCLISplit(t, "journal", "verify", "--db", db)
	if code != 1 || !strings.Contains(out, "BROKEN: first broken link: chain entry 1 (sessions row ses_a)") || !strings.Contains(out, "(2 breaks found)") ||
		!strings.Contains(out, "\n  chain entry 2 (sessions row ses_b): row changed after it was written") {
		t.Errorf("verify of two changed rows: exit %d\n%s", code, out)
	}
}
