package cli_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/journal"
)

// unknownCalls writes a journal at db with one session and turn whose
// invocations ids are all unknown (their outcome needs reconciliation).
func unknownCalls(t *testing.T, db string, ids ...string) {
	t.Helper()
	ctx := context.Background()
	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if err := j.CreateSession(ctx, journal.Session{ID: "ses_1", Coworker: "helper", Identity: "sha256:id"}); err != nil {
		t.Fatal(err)
	}
	if err := j.StartTurn(ctx, journal.Turn{ID: "turn_1", SessionID: "ses_1", Prompt: "write notes"}); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		inv := journal.Invocation{ID: id, SessionID: "ses_1", TurnID: "turn_1", Tool: "notes.append", Risk: "write"}
		if err := j.BeginInvocation(ctx, inv, nil); err != nil {
			t.Fatal(err)
		}
		if err := j.FinishInvocation(ctx, id, journal.Finish{Status: journal.InvUnknown, ErrorCode: "timeout", Error: "no answer"}); err != nil {
			t.Fatal(err)
		}
	}
}

func storedOutcome(t *testing.T, db, id string) string {
	t.Helper()
	raw, err := sql.Open("sqlite3", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var v string
	if err := raw.QueryRow(`SELECT reconciled FROM invocations WHERE id=?`, id).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// journal reconcile takes not_applied and, for compatibility, not-applied;
// both are stored and printed as not_applied, and the chain still verifies.
func TestJournalReconcileSpellings(t *testing.T) {
	db := filepath.Join(t.TempDir(), "journal.db")
	unknownCalls(t, db, "inv_a", "inv_b", "inv_c")
	for id, flag := range map[string]string{"inv_a": "not_applied", "inv_b": "not-applied", "inv_c": "applied"} {
		want := "not_applied"
		if flag == "applied" {
			want = "applied"
		}
		code, out := runCLI(t, "journal", "reconcile", id, "--outcome", flag, "--db", db)
		if code != 0 || out != "invocation "+id+" reconciled: "+want+"\n" {
			t.Errorf("reconcile --outcome %s: exit %d\n%s", flag, code, out)
		}
		if got := storedOutcome(t, db, id); got != want {
			t.Errorf("reconcile --outcome %s stored %q, want %q", flag, got, want)
		}
	}
	code, out := runCLI(t, "journal", "reconcile", "inv_b", "--outcome", "applied", "--db", db)
	if code != 2 || !strings.Contains(out, "already reconciled as not_applied") {
		t.Errorf("second reconcile: exit %d, want 2 naming not_applied\n%s", code, out)
	}
	if code, out := runCLI(t, "journal", "verify", "--db", db); code != 0 || !strings.HasPrefix(out, "ok: ") {
		t.Errorf("verify: exit %d\n%s", code, out)
	}
	code, out = runCLI(t, "journal", "show", "ses_1", "--db", db)
	if code != 0 || strings.Count(out, "reconciled: not_applied") != 2 || strings.Contains(out, "not-applied") {
		t.Errorf("show: exit %d, want two calls reconciled: not_applied\n%s", code, out)
	}
}

// journal reconcile refuses any other outcome with exit 2 (usage).
func TestJournalReconcileBadOutcome(t *testing.T) {
	db := filepath.Join(t.TempDir(), "journal.db")
	unknownCalls(t, db, "inv_a")
	for _, bad := range []string{"maybe", "unknown", ""} {
		if code, out := runCLI(t, "journal", "reconcile", "inv_a", "--outcome", bad, "--db", db); code != 2 || !strings.Contains(out, "--outcome must be applied or not_applied") {
			t.Errorf("reconcile --outcome %q: exit %d, want 2\n%s", bad, code, out)
		}
	}
	if got := storedOutcome(t, db, "inv_a"); got != "" {
		t.Errorf("after refused outcomes the call is reconciled as %q, want not reconciled", got)
	}
}

// A row reconciled as "not-applied" (as journals before schema v8 stored
// it) reads as not_applied in journal show, text and JSON.
func TestJournalShowOldOutcomeSpelling(t *testing.T) {
	db := filepath.Join(t.TempDir(), "journal.db")
	unknownCalls(t, db, "inv_old")
	raw, err := sql.Open("sqlite3", "file:"+db)
	if err != nil {
		t.Fatal(err)
	}
	// What the old ReconcileAs wrote (this edit is outside the chain; only
	// the spelling matters here, the journal tests cover the chain).
	if _, err := raw.Exec(`UPDATE invocations SET reconciled='not-applied', reconciled_by='user:old', effect='not_applied' WHERE id='inv_old'`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	code, out, stderr := runCLISplit(t, "journal", "show", "ses_1", "--json", "--db", db)
	var d journal.SessionDetail
	if err := json.Unmarshal([]byte(out), &d); code != 0 || err != nil || len(d.Invocations) != 1 {
		t.Fatalf("show --json: exit %d, %v\n%s", code, err, out)
	}
	// The edit outside the chain is said, and show goes on.
	if !strings.Contains(stderr, "warning: The journal "+db+" does not match its hash chain") {
		t.Errorf("show of a journal edited outside the chain: stderr %q, want the degraded warning", stderr)
	}
	if inv := d.Invocations[0]; inv.Reconciled != journal.EffectNotApplied || strings.Contains(out, "not-applied") {
		t.Errorf("show --json: reconciled %q, want not_applied\n%s", inv.Reconciled, out)
	}
	if code, out := runCLI(t, "journal", "show", "ses_1", "--db", db); code != 0 || !strings.Contains(out, "reconciled: not_applied") {
		t.Errorf("show: exit %d, want reconciled: not_applied\n%s", code, out)
	}
}
