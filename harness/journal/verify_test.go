package journal

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/consent"
)

// filled returns a journal with a bit of everything, its path, and the
// chain seq of the newest entry for invocation "inv1".
func filled(t *testing.T) (*Journal, string) {
	t.Helper()
	ctx := context.Background()
	path := testPath(t)
	j := openAt(t, path)
	mkSession(t, j, "s1")
	j.AppendMessage(ctx, Message{SessionID: "s1", TurnID: "s1-t1", Role: "user", Content: json.RawMessage(`"hi"`)})
	j.RecordApproval(ctx, Approval{SessionID: "s1", Decision: "allow_once", Source: "prompt"})
	prepare(t, j, "s1", "inv1")
	j.MarkExecuting(ctx, "inv1")
	if err := j.FinishInvocation(ctx, "inv1", Finish{Status: InvSucceeded, Result: json.RawMessage(`{"n":1}`)}); err != nil {
		t.Fatal(err)
	}
	j.SaveUserPolicy(ctx, "demo", "notes.append", "sha256:d", string(consent.PolicyAllow))
	j.Warn(ctx, "s1", "", "w", "warned")
	j.AppendMessage(ctx, Message{SessionID: "s1", Role: "assistant", Content: json.RawMessage(`"bye"`)})
	return j, path
}

func seqOf(t *testing.T, j *Journal, kind, ref string, newest bool) int64 {
	t.Helper()
	q := `SELECT min(seq) FROM chain WHERE kind=? AND ref=?`
	if newest {
		q = `SELECT max(seq) FROM chain WHERE kind=? AND ref=?`
	}
	var seq int64
	if err := j.db.QueryRow(q, kind, ref).Scan(&seq); err != nil {
		t.Fatal(err)
	}
	return seq
}

func TestVerifyClean(t *testing.T) {
	j, _ := filled(t)
	rep := mustVerify(t, j)
	if !rep.OK || rep.First != nil {
		t.Fatalf("Verify on a clean journal = %+v", rep)
	}
	var entries, rows int64
	j.db.QueryRow(`SELECT count(*) FROM chain`).Scan(&entries)
	j.db.QueryRow(`SELECT (SELECT count(*) FROM sessions)+(SELECT count(*) FROM turns)+(SELECT count(*) FROM messages)+
		(SELECT count(*) FROM invocations)+(SELECT count(*) FROM approvals)+(SELECT count(*) FROM user_policies)+
		(SELECT count(*) FROM warnings)`).Scan(&rows)
	if rep.Entries != entries || rep.Rows != rows {
		t.Errorf("Verify checked %d entries and %d rows, want %d and %d", rep.Entries, rep.Rows, entries, rows)
	}
	// inv1 was written three times (prepared, executing, succeeded).
	var n int
	j.db.QueryRow(`SELECT count(*) FROM chain WHERE kind='invocations' AND ref='inv1'`).Scan(&n)
	if n != 3 {
		t.Errorf("chain entries for inv1 = %d, want 3", n)
	}
	head, seq, err := j.Head(context.Background())
	if err != nil || head != rep.Head || seq != entries {
		t.Errorf("Head() = %s, %d, %v; want %s, %d", head, seq, err, rep.Head, entries)
	}
}

// TestVerifyTamper changes the file behind the journal's back, through a
// second sql.DB, and expects Verify to name the first broken link.
func TestVerifyTamper(t *testing.T) {
	cases := []struct {
		name   string
		tamper string // SQL run on the raw connection
		kind   string
		ref    string
		newest bool // the break is at the newest entry of the row (else its first)
		reason string
	}{
		{"result edited", `UPDATE invocations SET result='{"n":2}' WHERE id='inv1'`, "invocations", "inv1", true, ReasonRowChanged},
		{"status rewritten", `UPDATE invocations SET status='failed' WHERE id='inv1'`, "invocations", "inv1", true, ReasonRowChanged},
		{"message deleted", `DELETE FROM messages WHERE id=(SELECT max(id) FROM messages)`, "messages", "2", true, ReasonRowDeleted},
		{"policy flipped", `UPDATE user_policies SET policy='deny'`, "user_policies", "1", true, ReasonRowChanged},
		{"approval decision edited", `UPDATE approvals SET decision='deny'`, "approvals", "1", true, ReasonRowChanged},
		{"chain entry deleted", `DELETE FROM chain WHERE seq=(SELECT min(seq) FROM chain WHERE kind='invocations' AND ref='inv1')`, "", "", false, ReasonLinkMissing},
		{"chain digest rewritten", `UPDATE chain SET payload_digest='00' WHERE seq=(SELECT min(seq) FROM chain WHERE kind='messages')`, "messages", "1", false, ReasonHashMismatch},
		{"chain hash rewritten", `UPDATE chain SET hash='00' WHERE seq=(SELECT min(seq) FROM chain WHERE kind='messages')`, "messages", "1", false, ReasonHashMismatch},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			j, path := filled(t)
			var want int64
			if tc.kind != "" {
				want = seqOf(t, j, tc.kind, tc.ref, tc.newest)
			} else {
				// For chain edits, the break is the entry after the edited one.
				want = seqOf(t, j, "invocations", "inv1", false) + 1
			}
			if _, err := rawDB(t, path).Exec(tc.tamper); err != nil {
				t.Fatal(err)
			}
			rep := mustVerify(t, j)
			if rep.OK || rep.First == nil {
				t.Fatalf("Verify after %s = OK", tc.name)
			}
			if rep.First.Seq != want || rep.First.Reason != tc.reason {
				t.Errorf("first break = %v; want seq %d, %q", *rep.First, want, tc.reason)
			}
			if tc.kind != "" && (rep.First.Table != tc.kind || rep.First.RowID != tc.ref) {
				t.Errorf("first break names %s %s, want %s %s", rep.First.Table, rep.First.RowID, tc.kind, tc.ref)
			}
		})
	}
}

func TestVerifyRowOutsideChain(t *testing.T) {
	j, path := filled(t)
	_, err := rawDB(t, path).Exec(`INSERT INTO messages(session_id, role, content, created_at) VALUES ('s1','user','"forged"','2025-01-01T00:00:00.000000000Z')`)
	if err != nil {
		t.Fatal(err)
	}
	rep := mustVerify(t, j)
	if rep.OK || rep.First.Reason != ReasonRowUnchained || rep.First.Table != "messages" || rep.First.Seq != 0 {
		t.Errorf("Verify after a forged insert: first = %+v", rep.First)
	}
	if !strings.Contains(rep.First.String(), "messages row 3") {
		t.Errorf("Break.String() = %q", rep.First.String())
	}
}

// TestVerifyRelinked rewrites one entry consistently (its own hash matches
// its new prev) without rewriting the rest: the link to its predecessor
// breaks.
func TestVerifyRelinked(t *testing.T) {
	j, path := filled(t)
	var digest string
	j.db.QueryRow(`SELECT payload_digest FROM chain WHERE seq=3`).Scan(&digest)
	fake := strings.Repeat("f", 64)
	if _, err := rawDB(t, path).Exec(`UPDATE chain SET prev_hash=?, hash=? WHERE seq=3`, fake, linkHash(fake, digest)); err != nil {
		t.Fatal(err)
	}
	rep := mustVerify(t, j)
	if rep.OK || rep.First.Seq != 3 || rep.First.Reason != ReasonPrevMismatch {
		t.Errorf("first break = %+v, want seq 3 %q", rep.First, ReasonPrevMismatch)
	}
	// Entry 4 still links to the old hash of 3, so it breaks too.
	if len(rep.Breaks) < 2 || rep.Breaks[1].Seq != 4 || rep.Breaks[1].Reason != ReasonPrevMismatch {
		t.Errorf("breaks = %+v, want seq 4 next", rep.Breaks)
	}
}
