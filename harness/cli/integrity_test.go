package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/journal"
)

// TestJournalVerifyNamesADamagedFile: one 4 KB page of a journal flipped;
// `journal verify` exits 1, names integrity_check and says what to do.
func TestJournalVerifyNamesADamagedFile(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "journal.db")
	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.CreateSession(ctx, journal.Session{ID: "ses_1", Coworker: "helper", Identity: "sha256:id"}); err != nil {
		t.Fatal(err)
	}
	if err := j.StartTurn(ctx, journal.Turn{ID: "turn_1", SessionID: "ses_1", Prompt: "hi"}); err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		text := strings.Repeat("x", 3000)
		if i == 20 {
			text = "MARKER-DAMAGED-PAGE-" + text
		}
		b, _ := json.Marshal(text)
		if _, err := j.AppendMessage(ctx, journal.Message{SessionID: "ses_1", TurnID: "turn_1", Role: "user", Content: b}); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.FinishTurn(ctx, "turn_1", journal.TurnCompleted, "", 1, 0); err != nil {
		t.Fatal(err)
	}
	j.Close()
	if code, out := runCLI(t, "journal", "verify", "--db", db); code != 0 || !strings.HasPrefix(out, "ok: ") {
		t.Fatalf("a sound journal: exit %d\n%s", code, out)
	}
	data, _ := os.ReadFile(db)
	off := bytes.Index(data, []byte("MARKER-DAMAGED-PAGE-"))
	if off < 0 {
		t.Fatal("the marker is not in the file")
	}
	for i := off / 4096 * 4096; i < (off/4096+1)*4096 && i < len(data); i++ {
		data[i] ^= 0xA5
	}
	os.WriteFile(db, data, 0o600)
	code, out := runCLI(t, "journal", "verify", "--db", db)
	for _, want := range []string{"DAMAGED: PRAGMA integrity_check", "the journal file " + db + " is damaged", ".recover"} {
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
	for _, want := range []string{"The journal " + db + " is damaged", "Nothing was run", "restore a backup", "move the file aside", "journal show --json"} {
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
	// list reads what it can and warns on stderr.
	code, _, stderr := runCLISplit(t, "journal", "list", "--db", db)
	if !strings.Contains(stderr, "warning: The journal "+db+" is damaged") {
		t.Errorf("list of a damaged journal (exit %d): stderr %q, want the warning", code, stderr)
	}
}
