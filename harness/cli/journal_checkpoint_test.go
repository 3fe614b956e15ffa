package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/cli"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/journal/journaltest"
	"github.com/openworker/desktop/harness/tool"
)

// TestJournalVerifyCatchesTruncation: a journal written with checkpoints
// (as run writes it), whose last session is then deleted with SQL as the
// sqlite3 shell would, rows and chain entries; `journal verify` exits 1
// and names the checkpoint that saw the lost entries, where before it said
// ok — and its first line says FAILED, not ok, though the chain that is
// left is sound. `journal list` and `journal show` warn once on stderr
// that the newest checkpoint does not match. `journal export` carries the
// checkpoint files as its last line.
func TestJournalVerifyCatchesTruncation(t *testing.T) {
	dir := t.TempDir()
	db, extra := filepath.Join(dir, "journal.db"), t.TempDir()
	env := func(k string) string {
		if k == "OPENWORKER_CHECKPOINT_DIR" {
			return extra
		}
		return ""
	}
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := cli.Run(context.Background(), tool.NewRegistry(), args, cli.WithIO(strings.NewReader(""), &out, &errb, env, func() bool { return false }))
		return code, out.String(), errb.String()
	}
	key, where, err := journal.LoadCheckpointKey(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	j, err := journal.Open(db, &journal.Options{Checkpoints: &journal.CheckpointOptions{Key: key, Dirs: []string{extra}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, id := range []string{"ses_a", "ses_b"} { // finished turns: nothing for the verify's open to recover
		journaltest.Chats(t, j, "prompt of "+id, id)
		if err := j.FinishTurn(ctx, id+"-t1", journal.TurnCompleted, "", 1, 0); err != nil {
			t.Fatal(err)
		}
	}
	_, keep, _ := j.Head(ctx)
	keep -= 4 // ses_b: session, turn, message, turn finished
	_, head, _ := j.Head(ctx)
	j.Close()

	code, out, _ := run("journal", "verify", "--db", db)
	// Where the key is kept is said when it is a file (Linux without a
	// session bus); the OS keychain (Windows, macOS) goes unsaid.
	keyLine := where == "the OS keychain" || strings.Contains(out, "checkpoint key: "+where)
	if code != 0 || !strings.HasPrefix(out, "ok: ") || !strings.Contains(out, "checkpoint from") || !keyLine {
		t.Fatalf("verify before truncation: exit %d\n%s", code, out)
	}
	if code, _, errb := run("journal", "list", "--db", db); code != 0 || strings.Contains(errb, "checkpoint") {
		t.Fatalf("journal list before truncation: exit %d, stderr:\n%s\nwant no checkpoint warning", code, errb)
	}
	for _, q := range []string{`DELETE FROM messages WHERE session_id = 'ses_b'`, `DELETE FROM turns WHERE session_id = 'ses_b'`,
		`DELETE FROM sessions WHERE id = 'ses_b'`, `DELETE FROM chain WHERE seq > ` + itoa(keep)} {
		journaltest.Edit(t, db, q)
	}
	code, out, errb := run("journal", "verify", "--db", db)
	want := "CHECKPOINT: the journal ends at entry " + itoa(keep) + " but a checkpoint from "
	if !strings.HasPrefix(out, "FAILED: the journal does not match its checkpoints\nchain ok: ") || strings.Contains(out, "\nok: ") || strings.Contains(errb, "warning:") {
		t.Fatalf("verify of a truncated journal, first lines:\n%s\nstderr:\n%s\nwant FAILED first, the chain ok after, no warning", out, errb)
	}
	if code != 1 || !strings.Contains(out, "chain ok: ") || !strings.Contains(out, want) || !strings.Contains(out, "saw entry "+itoa(head)) ||
		!strings.Contains(out, filepath.Join(extra, "journal.db.checkpoint")) {
		t.Fatalf("verify of a truncated journal: exit %d, want 1 with the chain ok and %q … saw entry %d, from both folders:\n%s", code, want, head, out)
	}

	warning := "warning: the journal does not match its newest checkpoint: the journal ends at entry " + itoa(keep)
	for _, args := range [][]string{{"journal", "list", "--db", db}, {"journal", "show", "ses_a", "--db", db}} {
		code, _, errb := run(args...)
		if code != 0 || strings.Count(errb, "warning:") != 1 || !strings.Contains(errb, warning) || !strings.Contains(errb, "(and 1 more checkpoint file)") {
			t.Fatalf("%s of a truncated journal: exit %d, stderr:\n%s\nwant one warning: %q", strings.Join(args, " "), code, errb, warning)
		}
	}

	code, stdout, _ := run("journal", "export", "--db", db)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var last struct {
		Checkpoints []struct {
			File string          `json:"file"`
			Data json.RawMessage `json:"data"`
		} `json:"checkpoints"`
	}
	if code != 0 || json.Unmarshal([]byte(lines[len(lines)-1]), &last) != nil || len(last.Checkpoints) != 2 || len(last.Checkpoints[0].Data) == 0 {
		t.Fatalf("export: exit %d; want its last line to hold the 2 checkpoint files:\n%s", code, stdout)
	}
	if _, err := os.Stat(db + ".checkpoint"); err != nil {
		t.Fatal(err)
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }
