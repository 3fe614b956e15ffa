package journal

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"
)

// TestMigrate10 upgrades a version-9 file with rows in it: the list
// indexes appear (sessions_newest replaces sessions_created), no row or
// chain entry changes, and the lists read the old rows through them.
func TestMigrate10(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "j.db")
	j := openVersion(t, path, 1)
	fillV1(t, j)
	if err := migrate(ctx, j.db, path, 9, j.now); err != nil {
		t.Fatal(err)
	}
	// Rows as version 9 wrote them: a second session with one call that
	// ended unknown and one reconciled, next to ses_old's executing call.
	if err := j.CreateSession(ctx, Session{ID: "ses_v9", Coworker: "notes", Identity: "sha-v9"}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"inv_waiting", "inv_answered"} {
		if err := j.BeginInvocation(ctx, Invocation{ID: id, SessionID: "ses_v9", Tool: "notes.append", Arguments: json.RawMessage(`{}`)}, nil); err != nil {
			t.Fatal(err)
		}
		if err := j.FinishInvocation(ctx, id, Finish{Status: InvUnknown, Error: "timed out"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.ReconcileAs(ctx, "inv_answered", OutcomeApplied, "user:test"); err != nil {
		t.Fatal(err)
	}
	before := mustVerify(t, j)
	if !before.OK {
		t.Fatalf("version 9 file does not verify: %v", before.First)
	}

	if err := migrate(ctx, j.db, path, 10, j.now); err != nil {
		t.Fatalf("migrate 9→10 = %v", err)
	}
	var idx []string
	rows, err := j.db.Query(`SELECT name FROM sqlite_master WHERE type='index' AND sql IS NOT NULL AND tbl_name IN ('sessions','invocations') ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		rows.Scan(&n)
		idx = append(idx, n)
	}
	rows.Close()
	if want := []string{"invocations_session", "invocations_status", "invocations_unknown", "sessions_newest"}; !slices.Equal(idx, want) {
		t.Errorf("indexes after version 10 = %v, want %v", idx, want)
	}
	after := mustVerify(t, j)
	if !after.OK || after.Rows != before.Rows || after.Entries != before.Entries || after.Head != before.Head {
		t.Errorf("Verify after migrate 9→10 = %+v; want it as before: %+v", after, before)
	}
	// This build's lists read the newest schema.
	if err := migrate(ctx, j.db, path, SchemaVersion(), j.now); err != nil {
		t.Fatal(err)
	}
	p, err := j.SessionPage(ctx, SessionQuery{Limit: 1})
	if err != nil || len(p.Sessions) != 1 || p.Sessions[0].ID != "ses_v9" || p.Sessions[0].Unreconciled != 1 || p.Next == "" {
		t.Fatalf("first page after the upgrade = %+v, %v", p, err)
	}
	p, err = j.SessionPage(ctx, SessionQuery{Limit: 1, Before: p.Next})
	if err != nil || len(p.Sessions) != 1 || p.Sessions[0].ID != "ses_old" || p.Next != "" {
		t.Errorf("second page after the upgrade = %+v, %v", p, err)
	}
	u, err := j.Unknown(ctx, UnknownQuery{})
	if err != nil || len(u.Invocations) != 1 || u.Invocations[0].ID != "inv_waiting" || u.Invocations[0].Coworker != "notes" {
		t.Errorf("Unknown after the upgrade = %+v, %v; want inv_waiting only", u, err)
	}
	// A call recovered later (ses_old's executing one) enters the index.
	if _, err := j.db.Exec(`UPDATE invocations SET status='unknown', effect='unknown' WHERE id='inv_crashed'`); err != nil {
		t.Fatal(err)
	}
	if u, _ := j.Unknown(ctx, UnknownQuery{}); len(u.Invocations) != 2 || u.Invocations[0].ID != "inv_crashed" {
		t.Errorf("Unknown with the old call unknown = %+v; want inv_crashed (older) first", u.Invocations)
	}
}
