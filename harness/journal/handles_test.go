package journal

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
)

// TestMigrate13 upgrades a version-12 file with rows in it: no row or
// chain entry changes, and an invocation begun before the upgrade takes a
// handle afterwards.
func TestMigrate13(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "j.db")
	j := openVersion(t, path, 1)
	fillV1(t, j)
	if err := migrate(ctx, j.db, path, 12, j.now); err != nil {
		t.Fatal(err)
	}
	if err := j.CreateSession(ctx, Session{ID: "ses_v12", Coworker: "notes", Identity: "sha-v12"}); err != nil {
		t.Fatal(err)
	}
	if err := j.BeginInvocation(ctx, Invocation{ID: "inv_task", SessionID: "ses_v12", Tool: "helper.slow", Provider: "a2a:helper", Arguments: json.RawMessage(`{"text":"x"}`)}, nil); err != nil {
		t.Fatal(err)
	}
	before := mustVerify(t, j)
	if !before.OK {
		t.Fatalf("version 12 file does not verify: %v", before.First)
	}
	if err := migrate(ctx, j.db, path, 13, j.now); err != nil {
		t.Fatalf("migrate 12→13 = %v", err)
	}
	after := mustVerify(t, j)
	if !after.OK || after.Rows != before.Rows || after.Entries != before.Entries || after.Head != before.Head {
		t.Errorf("Verify after migrate 12→13 = %+v; want it as before: %+v", after, before)
	}
	if h, err := j.Handle(ctx, "inv_task"); err != nil || h != "" {
		t.Fatalf("Handle before = %q, %v", h, err)
	}
	if err := j.SetHandle(ctx, "inv_task", "task-1"); err != nil {
		t.Fatal(err)
	}
	if h, err := j.Handle(ctx, "inv_task"); err != nil || h != "task-1" {
		t.Fatalf("Handle = %q, %v", h, err)
	}
	if rep := mustVerify(t, j); !rep.OK || rep.Entries != after.Entries+1 {
		t.Errorf("Verify after SetHandle = %+v; want one more entry than %d", rep, after.Entries)
	}
}

// TestSetHandleThenFinishAndReconcile: a handle set while executing is
// chained, the terminal row chains from it (the payload the Journal
// remembers), a second handle or a handle of a finished call is refused,
// and ReconcileResult records the provider's answer beside the outcome.
func TestSetHandleThenFinishAndReconcile(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	mkSession(t, j, "s1")
	for _, id := range []string{"a", "b"} {
		if err := j.BeginInvocation(ctx, testInv("s1", id), nil); err != nil {
			t.Fatal(err)
		}
		if err := j.SetHandle(ctx, id, "task-"+id); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.SetHandle(ctx, "a", "task-again"); !errors.Is(err, ErrBadTransition) {
		t.Errorf("a second handle = %v, want ErrBadTransition", err)
	}
	if err := j.SetHandle(ctx, "nope", "t"); !errors.Is(err, ErrNotFound) {
		t.Errorf("handle of an unknown invocation = %v, want ErrNotFound", err)
	}
	if err := j.FinishInvocation(ctx, "a", Finish{Status: InvSucceeded, Result: json.RawMessage(`{"text":"done"}`)}); err != nil {
		t.Fatal(err)
	}
	if err := j.FinishInvocation(ctx, "b", Finish{Status: InvUnknown, ErrorCode: "limit_exceeded", Error: "took too long"}); err != nil {
		t.Fatal(err)
	}
	if err := j.SetHandle(ctx, "b", "late"); !errors.Is(err, ErrBadTransition) {
		t.Errorf("handle of a finished call = %v, want ErrBadTransition", err)
	}
	if h, _ := j.Handle(ctx, "b"); h != "task-b" {
		t.Errorf("handle of b = %q", h)
	}
	if err := j.ReconcileResult(ctx, "b", EffectApplied, "a2a:poll", []byte(`{"task_id":"task-b","state":"completed"}`)); err != nil {
		t.Fatal(err)
	}
	inv, err := j.Invocation(ctx, "b")
	if err != nil || inv.Reconciled != EffectApplied || inv.ReconciledBy != "a2a:poll" || string(inv.Result) != `{"task_id":"task-b","state":"completed"}` || inv.ResultDigest == "" {
		t.Fatalf("reconciled b = %+v, %v", inv, err)
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Fatalf("Verify = %+v", rep)
	}
}
