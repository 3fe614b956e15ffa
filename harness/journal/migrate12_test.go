package journal

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"testing"
)

// TestMigrate12 upgrades a version-11 file with rows in it: the
// elicitations table appears, no row or chain entry changes, and a
// question recorded afterwards is chained and read back without values.
func TestMigrate12(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "j.db")
	j := openVersion(t, path, 1)
	fillV1(t, j)
	if err := migrate(ctx, j.db, path, 11, j.now); err != nil {
		t.Fatal(err)
	}
	if err := j.CreateSession(ctx, Session{ID: "ses_v11", Coworker: "notes", Identity: "sha-v11"}); err != nil {
		t.Fatal(err)
	}
	if err := j.BeginInvocation(ctx, Invocation{ID: "inv_asks", SessionID: "ses_v11", Tool: "forms.ask", Arguments: json.RawMessage(`{}`)}, nil); err != nil {
		t.Fatal(err)
	}
	before := mustVerify(t, j)
	if !before.OK {
		t.Fatalf("version 11 file does not verify: %v", before.First)
	}
	if err := migrate(ctx, j.db, path, 12, j.now); err != nil {
		t.Fatalf("migrate 11→12 = %v", err)
	}
	after := mustVerify(t, j)
	if !after.OK || after.Rows != before.Rows || after.Entries != before.Entries || after.Head != before.Head {
		t.Errorf("Verify after migrate 11→12 = %+v; want it as before: %+v", after, before)
	}
	e := Elicitation{SessionID: "ses_v11", InvocationID: "inv_asks", Namespace: "forms", ServerName: "forms-server", Seq: 1,
		Fields: []string{"name", "pin"}, Action: "accept", Source: ElicitByPerson}
	if err := j.RecordElicitation(ctx, e); err != nil {
		t.Fatal(err)
	}
	if err := j.RecordElicitation(ctx, Elicitation{Namespace: "forms", Fields: []string{"x"}, Action: "decline", Source: ElicitByStray, Reason: "no call"}); err != nil {
		t.Fatal(err)
	}
	if err := j.RecordElicitation(ctx, Elicitation{InvocationID: "inv_nowhere", Namespace: "forms", Action: "decline"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("an elicitation of an unknown invocation = %v, want ErrNotFound", err)
	}
	if err := j.RecordElicitation(ctx, Elicitation{Namespace: "forms", Action: "maybe"}); err == nil {
		t.Error("an action that is not accept, decline or cancel was recorded")
	}
	got, err := j.Elicitations(ctx, "inv_asks")
	if err != nil || len(got) != 1 || !slices.Equal(got[0].Fields, []string{"name", "pin"}) || got[0].Action != "accept" || got[0].Mode != "form" || got[0].CreatedAt.IsZero() {
		t.Fatalf("Elicitations(inv_asks) = %+v, %v", got, err)
	}
	stray, err := j.Elicitations(ctx, "")
	if err != nil || len(stray) != 1 || stray[0].Source != ElicitByStray || stray[0].SessionID != "" {
		t.Errorf("Elicitations(\"\") = %+v, %v", stray, err)
	}
	end := mustVerify(t, j)
	if !end.OK || end.Entries != before.Entries+2 {
		t.Errorf("Verify after two elicitations = %+v; want OK with %d entries", end, before.Entries+2)
	}
	// A changed row is caught by the chain.
	if _, err := j.db.Exec(`UPDATE elicitations SET action='decline' WHERE invocation_id='inv_asks'`); err != nil {
		t.Fatal(err)
	}
	if r := mustVerify(t, j); r.OK {
		t.Error("Verify passed after an elicitation row was changed")
	}
}
