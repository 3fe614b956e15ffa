package journal

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func testKey(t testing.TB) ed25519.PrivateKey {
	t.Helper()
	_, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// openAnchored opens path with checkpoints signed by key (and copies in
// dirs); the caller closes it.
func openAnchored(t testing.TB, path string, key ed25519.PrivateKey, dirs ...string) *Journal {
	t.Helper()
	j, err := Open(path, &Options{Now: newClock().Now, Checkpoints: &CheckpointOptions{Key: key, Dirs: dirs}})
	if err != nil {
		t.Fatalf("Open(%s) = %v", path, err)
	}
	return j
}

// fullSession writes a session as a run does: a turn, a message, a call
// approved and succeeded, the turn and session finished.
func fullSession(t *testing.T, j *Journal, id string) {
	t.Helper()
	ctx := context.Background()
	mkSession(t, j, id)
	if _, err := j.AppendMessage(ctx, Message{SessionID: id, TurnID: id + "-t1", Role: "user", Content: json.RawMessage(`{"text":"hi"}`)}); err != nil {
		t.Fatal(err)
	}
	inv := Invocation{ID: "inv-" + id, SessionID: id, TurnID: id + "-t1", Tool: "files.write", Arguments: json.RawMessage(`{"path":"a"}`)}
	if err := j.BeginInvocation(ctx, inv, &Approval{SessionID: id, Decision: "allow_once", Source: "prompt"}); err != nil {
		t.Fatal(err)
	}
	if err := j.FinishInvocation(ctx, inv.ID, Finish{Status: InvSucceeded, Result: json.RawMessage(`{"ok":true}`)}); err != nil {
		t.Fatal(err)
	}
	if err := j.FinishTurn(ctx, id+"-t1", TurnCompleted, "", 1, 1); err != nil {
		t.Fatal(err)
	}
	if err := j.FinishSession(ctx, id, SessionClosed, ""); err != nil {
		t.Fatal(err)
	}
}

// verifyAt opens path without checkpoints (as journal verify reads) and
// compares it with its checkpoint files.
func verifyAt(t *testing.T, path string, key ed25519.PrivateKey, dirs ...string) (CheckpointReport, VerifyReport) {
	t.Helper()
	j, err := Open(path, &Options{Reading: true})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	rep, err := j.VerifyCheckpoints(context.Background(), key.Public().(ed25519.PublicKey), dirs)
	if err != nil {
		t.Fatal(err)
	}
	return rep, mustVerify(t, j)
}

func findingWith(rep CheckpointReport, status string) *CheckpointFinding {
	for i := range rep.Findings {
		if rep.Findings[i].Status == status {
			return &rep.Findings[i]
		}
	}
	return nil
}

func TestCheckpointWrittenAfterEachCommit(t *testing.T) {
	path, key, extra := testPath(t), testKey(t), t.TempDir()
	j := openAnchored(t, path, key, extra)
	defer j.Close()
	fullSession(t, j, "ses_a")
	hash, seq, err := j.Head(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path + ".checkpoint", filepath.Join(extra, "journal.db.checkpoint")} {
		c, err := readCheckpoint(p)
		if err != nil {
			t.Fatalf("checkpoint %s: %v", p, err)
		}
		if c.Seq != seq || c.Hash != hash {
			t.Errorf("%s = entry %d %s, want the head %d %s", p, c.Seq, c.Hash, seq, hash)
		}
		if err := verifyCheckpoint(c, key.Public().(ed25519.PublicKey)); err != nil {
			t.Errorf("verify %s = %v", p, err)
		}
		if fi, _ := os.Stat(p); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 { // Windows has no mode bits
			t.Errorf("%s mode = %v, want 0600", p, fi.Mode())
		}
	}
	if err := j.CheckpointError(); err != nil {
		t.Errorf("CheckpointError() = %v", err)
	}
	rep, err := j.VerifyCheckpoints(context.Background(), key.Public().(ed25519.PublicKey), []string{extra})
	if err != nil || !rep.OK() || len(rep.Findings) != 2 || rep.Findings[0].Status != "ok" {
		t.Errorf("VerifyCheckpoints = %+v, %v; want two ok findings", rep, err)
	}
}

// deleteTail deletes, as someone with the sqlite3 shell would, the chain
// entries after keep and every row first written by one of them, children
// first.
func deleteTail(t *testing.T, path string, keep int64) {
	t.Helper()
	db := rawDB(t, path)
	for _, table := range []string{"messages", "approvals", "warnings", "invocations", "turns", "sessions"} {
		key := keyOf(table)
		q := `DELETE FROM ` + table + ` WHERE CAST(` + key + ` AS TEXT) IN (SELECT ref FROM chain c WHERE kind = ? AND seq > ?
			AND NOT EXISTS (SELECT 1 FROM chain o WHERE o.kind = c.kind AND o.ref = c.ref AND o.seq <= ?))`
		if _, err := db.Exec(q, table, keep, keep); err != nil {
			t.Fatalf("delete from %s: %v", table, err)
		}
	}
	if _, err := db.Exec(`DELETE FROM chain WHERE seq > ?`, keep); err != nil {
		t.Fatal(err)
	}
	db.Close()
}

func TestCheckpointCatchesTruncation(t *testing.T) {
	cases := []struct {
		name string
		// keep returns the last chain entry to keep, given the head before
		// and the entry that started the last session.
		keep      func(head, lastSession int64) int64
		chainSays bool // whether the chain alone still verifies (the old blind spot)
	}{
		{"the last session", func(_, s int64) int64 { return s - 1 }, true},
		{"the last row", func(h, _ int64) int64 { return h - 1 }, true},
		{"the last 5 rows", func(h, _ int64) int64 { return h - 5 }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path, key := testPath(t), testKey(t)
			j := openAnchored(t, path, key)
			fullSession(t, j, "ses_a")
			_, before, _ := j.Head(context.Background())
			fullSession(t, j, "ses_b")
			if tc.name == "the last row" { // a message as the newest row, its one entry the newest
				if _, err := j.AppendMessage(context.Background(), Message{SessionID: "ses_b", TurnID: "ses_b-t1", Role: "assistant", Content: json.RawMessage(`{"text":"done"}`)}); err != nil {
					t.Fatal(err)
				}
			}
			_, head, _ := j.Head(context.Background())
			j.Close()
			keep := tc.keep(head, before+1)
			deleteTail(t, path, keep)

			rep, chain := verifyAt(t, path, key)
			if tc.chainSays && !chain.OK {
				t.Fatalf("chain verify = %+v; this truncation was expected to pass the chain alone", chain)
			}
			f := findingWith(rep, "truncated")
			if rep.OK() || f == nil {
				t.Fatalf("VerifyCheckpoints = %+v; want a truncated finding", rep)
			}
			want := "the journal ends at entry " + itoa(keep) + " but a checkpoint from "
			if !strings.Contains(f.Message, want) || !strings.Contains(f.Message, "saw entry "+itoa(head)) {
				t.Errorf("message = %q; want %q … saw entry %d", f.Message, want, head)
			}
		})
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestCheckpointCatchesRestoredOlderCopy(t *testing.T) {
	path, key := testPath(t), testKey(t)
	j := openAnchored(t, path, key)
	fullSession(t, j, "ses_a")
	j.Close()
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	j = openAnchored(t, path, key)
	fullSession(t, j, "ses_b")
	j.Close()
	if err := os.WriteFile(path, old, 0o600); err != nil { // the backup put back
		t.Fatal(err)
	}
	rep, chain := verifyAt(t, path, key)
	if !chain.OK || rep.OK() || findingWith(rep, "truncated") == nil {
		t.Fatalf("restored copy: chain ok %v, checkpoints %+v; want the chain fine and a truncated finding", chain.OK, rep)
	}

	// Written to since: the newest checkpoint is set aside, not lost, and
	// still reported.
	j = openAnchored(t, path, key)
	fullSession(t, j, "ses_c")
	j.Close()
	rep, _ = verifyAt(t, path, key)
	if f := findingWith(rep, "replaced"); rep.OK() || f == nil || !strings.Contains(f.File, ".checkpoint-") {
		t.Fatalf("restored copy written to: %+v; want a replaced finding for the set-aside file", rep)
	}
	if f := findingWith(rep, "ok"); f == nil || f.File != path+".checkpoint" {
		t.Errorf("the new head's checkpoint: %+v; want it ok", rep)
	}
}

func TestCheckpointForgedIsRejected(t *testing.T) {
	path, key := testPath(t), testKey(t)
	j := openAnchored(t, path, key)
	fullSession(t, j, "ses_a")
	_, head, _ := j.Head(context.Background())
	j.Close()
	cp := path + ".checkpoint"
	c, err := readCheckpoint(cp)
	if err != nil {
		t.Fatal(err)
	}

	forgeries := map[string]func() Checkpoint{
		"seq changed, old signature": func() Checkpoint { f := c; f.Seq = head - 3; return f },
		"signed with another key, this key named": func() Checkpoint {
			f := signCheckpoint(testKey(t), path, head-3, c.Hash, c.Time)
			f.PublicKey = c.PublicKey
			return f
		},
		"signed with another key": func() Checkpoint { return signCheckpoint(testKey(t), path, head, c.Hash, c.Time) },
	}
	for name, forge := range forgeries {
		t.Run(name, func(t *testing.T) {
			b, _ := json.Marshal(forge())
			if err := os.WriteFile(cp, b, 0o600); err != nil {
				t.Fatal(err)
			}
			rep, _ := verifyAt(t, path, key)
			if f := findingWith(rep, "unverifiable"); rep.OK() || f == nil || !strings.Contains(f.Message, "does not verify") {
				t.Fatalf("forged checkpoint: %+v; want it unverifiable", rep)
			}
		})
	}
	if err := os.WriteFile(cp, []byte("not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if rep, _ := verifyAt(t, path, key); rep.OK() {
		t.Errorf("garbage checkpoint verified: %+v", rep)
	}
}

func TestCheckpointDatabaseNewerIsAllowed(t *testing.T) {
	path, key := testPath(t), testKey(t)
	j := openAnchored(t, path, key)
	fullSession(t, j, "ses_a")
	j.Close()
	j = openAt(t, path) // a process without checkpoints
	fullSession(t, j, "ses_b")
	j.Close()
	rep, _ := verifyAt(t, path, key)
	f := findingWith(rep, "newer")
	if !rep.OK() || f == nil || !strings.Contains(f.Message, "allowed") {
		t.Fatalf("newer database: %+v; want OK with a newer finding", rep)
	}
}

func TestLoadCheckpointKeyFile(t *testing.T) {
	old := osKeychainUsable
	osKeychainUsable = func() bool { return false }
	t.Cleanup(func() { osKeychainUsable = old })
	path := testPath(t)
	var notices []string
	k1, where, err := LoadCheckpointKey(path, func(s string) { notices = append(notices, s) })
	if err != nil {
		t.Fatal(err)
	}
	if where != filepath.Join(filepath.Dir(path), CheckpointKeyFile) || len(notices) != 1 || !strings.Contains(notices[0], where) {
		t.Errorf("where = %q, notices = %q; want the file beside the journal, named once", where, notices)
	}
	if fi, _ := os.Stat(where); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 { // Windows has no mode bits
		t.Errorf("key file mode = %v, want 0600", fi.Mode())
	}
	k2, _, err := LoadCheckpointKey(path, func(s string) { notices = append(notices, s) })
	if err != nil || !k1.Equal(k2) || len(notices) != 1 {
		t.Errorf("second load: same key %v, err %v, notices %d; want the same key and no new notice", k1.Equal(k2), err, len(notices))
	}
	os.WriteFile(where, []byte("zz"), 0o600)
	if _, _, err := LoadCheckpointKey(path, nil); err == nil || !strings.Contains(err.Error(), where) {
		t.Errorf("bad key file: err = %v; want one naming %s", err, where)
	}
}

// BenchmarkCommitCheckpoint is the cost of one small commit (a message)
// with and without checkpoints: the difference is the checkpoint's cost
// per commit (a head read, a file read and verify, a signature, an atomic
// write with fsync). go test -run '^$' -bench CommitCheckpoint ./harness/journal/
func BenchmarkCommitCheckpoint(b *testing.B) {
	for _, anchored := range []bool{false, true} {
		name := map[bool]string{false: "plain", true: "checkpoint"}[anchored]
		b.Run(name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "journal.db")
			var o Options
			if anchored {
				o.Checkpoints = &CheckpointOptions{Key: testKey(b)}
			}
			j, err := Open(path, &o)
			if err != nil {
				b.Fatal(err)
			}
			defer j.Close()
			ctx := context.Background()
			if err := j.CreateSession(ctx, Session{ID: "ses_b", Coworker: "demo", Identity: "id"}); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := j.AppendMessage(ctx, Message{SessionID: "ses_b", Role: "user", Content: json.RawMessage(`{"text":"hi"}`)}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
