package journal

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func testInv(sid, id string) Invocation {
	return Invocation{ID: id, SessionID: sid, TurnID: sid + "-t1", CallID: "call-" + id, Tool: "notes.append",
		Alias: "notes_append", Provider: "native", RemoteName: "append", Placement: "on this computer", Risk: "write",
		DescriptorDigest: "sha256:d", Arguments: json.RawMessage(`{"text":"hi"}`)}
}

func testApproval(sid, id, decision string) *Approval {
	return &Approval{SessionID: sid, TurnID: sid + "-t1", InvocationID: id, CallID: "call-" + id, Tool: "notes.append",
		Decision: decision, Scope: "call", Source: "prompt", Identity: "sha-" + sid}
}

// chainOf returns the chain entries (table:ref) in order.
func chainOf(t *testing.T, j *Journal) []string {
	t.Helper()
	rows, err := j.db.Query(`SELECT kind, ref FROM chain ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var k, r string
		rows.Scan(&k, &r)
		out = append(out, k+":"+r)
	}
	return out
}

func TestBeginInvocation(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	mkSession(t, j, "s1")
	before := len(chainOf(t, j))
	a := testApproval("s1", "", "allow_once")
	if err := j.BeginInvocation(ctx, testInv("s1", "inv1"), a); err != nil {
		t.Fatalf("BeginInvocation = %v", err)
	}
	if a.ID == 0 || a.InvocationID != "inv1" {
		t.Errorf("approval after BeginInvocation: ID %d, invocation %q", a.ID, a.InvocationID)
	}
	inv, err := j.Invocation(ctx, "inv1")
	if err != nil {
		t.Fatal(err)
	}
	if inv.Status != InvExecuting || inv.StartedAt.IsZero() || inv.StartedAt.Before(inv.CreatedAt) || !inv.FinishedAt.IsZero() {
		t.Errorf("invocation after BeginInvocation = %+v", inv)
	}
	var owner string
	j.db.QueryRow(`SELECT owner FROM invocations WHERE id='inv1'`).Scan(&owner)
	if owner != j.owner.token {
		t.Errorf("owner = %q, want this Journal's %q", owner, j.owner.token)
	}
	as, _ := j.Approvals(ctx, "s1")
	if len(as) != 1 || as[0].ID != a.ID || as[0].Decision != "allow_once" || as[0].InvocationID != "inv1" {
		t.Errorf("approvals = %+v", as)
	}
	got := chainOf(t, j)[before:]
	want := []string{"approvals:1", "invocations:inv1", "invocations:inv1"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("chain entries = %v, want %v (approval, prepared, executing)", got, want)
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Fatalf("Verify after BeginInvocation: %v", rep.First)
	}
	if err := j.FinishInvocation(ctx, "inv1", Finish{Status: InvSucceeded, Result: json.RawMessage(`{"ok":true}`)}); err != nil {
		t.Fatalf("FinishInvocation = %v", err)
	}
	if inv, _ = j.Invocation(ctx, "inv1"); inv.Status != InvSucceeded || inv.DurationMS <= 0 {
		t.Errorf("finished: status %s duration %d ms (fake clock: > 0)", inv.Status, inv.DurationMS)
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Fatalf("Verify after FinishInvocation: %v", rep.First)
	}
	// Without an approval (policy or bypass decided elsewhere).
	if err := j.BeginInvocation(ctx, testInv("s1", "inv2"), nil); err != nil || status(t, j, "inv2") != InvExecuting {
		t.Errorf("BeginInvocation without approval = %v, status %s", err, status(t, j, "inv2"))
	}
}

// TestBeginInvocationSameHistory: one commit chains the same prepared and
// executing payloads as PrepareInvocation + MarkExecuting.
func TestBeginInvocationSameHistory(t *testing.T) {
	ctx := context.Background()
	fixed := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	digests := func(begin bool) []string {
		j, err := Open(testPath(t), &Options{Now: func() time.Time { return fixed }})
		if err != nil {
			t.Fatal(err)
		}
		defer j.Close()
		j.owner.token = "own_same" // both journals stamp the same owner
		mkSession(t, j, "s1")
		if begin {
			err = j.BeginInvocation(ctx, testInv("s1", "inv1"), nil)
		} else if err = j.PrepareInvocation(ctx, testInv("s1", "inv1")); err == nil {
			err = j.MarkExecuting(ctx, "inv1")
		}
		if err != nil {
			t.Fatal(err)
		}
		rows, err := j.db.Query(`SELECT payload_digest FROM chain WHERE kind='invocations' ORDER BY seq`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var d string
			rows.Scan(&d)
			out = append(out, d)
		}
		return out
	}
	two, one := digests(false), digests(true)
	if len(two) != 2 || strings.Join(two, ",") != strings.Join(one, ",") {
		t.Errorf("chain payload digests: prepare+mark %v, begin %v; want the same two", two, one)
	}
}

// TestBeginInvocationAtomic: a failure anywhere in the transaction leaves
// nothing behind, not even the approval.
func TestBeginInvocationAtomic(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	mkSession(t, j, "s1")
	entries := len(chainOf(t, j))
	inv := testInv("s1", "inv1")
	inv.TurnID = "no-such-turn" // the invocation insert fails its foreign key
	a := testApproval("s1", "inv1", "allow_once")
	a.TurnID = ""
	if err := j.BeginInvocation(ctx, inv, a); err == nil {
		t.Fatal("BeginInvocation with an unknown turn: no error")
	}
	if as, _ := j.Approvals(ctx, "s1"); len(as) != 0 {
		t.Errorf("approval written by a failed BeginInvocation: %+v", as)
	}
	if _, err := j.Invocation(ctx, "inv1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Invocation after failed BeginInvocation = %v, want ErrNotFound", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := j.BeginInvocation(cancelled, testInv("s1", "inv2"), testApproval("s1", "inv2", "allow_once")); err == nil {
		t.Error("BeginInvocation on a cancelled context: no error")
	}
	if n := len(chainOf(t, j)); n != entries {
		t.Errorf("chain grew from %d to %d entries after failed begins", entries, n)
	}
	if err := j.BeginInvocation(ctx, testInv("s1", "inv3"), nil); err != nil {
		t.Fatal(err)
	}
	if err := j.BeginInvocation(ctx, testInv("s1", "inv3"), nil); err == nil {
		t.Error("BeginInvocation twice with one ID: no error")
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Errorf("Verify: %v", rep.First)
	}
}

func TestBeginInvocationBadInput(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	mkSession(t, j, "s1")
	other := testApproval("s1", "inv1", "allow_once")
	other.SessionID = "s2"
	wrongInv := testApproval("s1", "inv9", "allow_once")
	done := testInv("s1", "inv1")
	done.Status = InvSucceeded
	badArgs := testInv("s1", "inv1")
	badArgs.Arguments = json.RawMessage(`{`)
	for name, c := range map[string]struct {
		inv Invocation
		a   *Approval
		msg string
	}{
		"deny":              {testInv("s1", "inv1"), testApproval("s1", "inv1", "deny"), "RefuseInvocation"},
		"other session":     {testInv("s1", "inv1"), other, `session "s2"`},
		"other invocation":  {testInv("s1", "inv1"), wrongInv, `invocation "inv9"`},
		"terminal status":   {done, nil, `status "succeeded"`},
		"invalid arguments": {badArgs, nil, "not valid JSON"},
		"no source":         {testInv("s1", "inv1"), &Approval{SessionID: "s1", Decision: "allow_once"}, "empty source"},
	} {
		err := j.BeginInvocation(ctx, c.inv, c.a)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: BeginInvocation = %v, want an error containing %q", name, err, c.msg)
		}
	}
	if _, err := j.Invocation(ctx, "inv1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a refused BeginInvocation wrote the row: %v", err)
	}
}

func TestRefuseInvocation(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	mkSession(t, j, "s1")
	before := len(chainOf(t, j))
	cancelled, cancel := context.WithCancel(ctx)
	cancel() // a refusal is evidence even on a cancelled turn
	inv := testInv("s1", "r1")
	inv.ErrorCode, inv.Error, inv.Arguments = "denied", "you said no", json.RawMessage(`{not json`)
	a := testApproval("s1", "r1", "deny")
	if err := j.RefuseInvocation(cancelled, inv, a); err != nil {
		t.Fatalf("RefuseInvocation = %v", err)
	}
	got, err := j.Invocation(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != InvRefused || got.Effect != EffectNotApplied || got.ErrorCode != "denied" || got.FinishedAt.IsZero() ||
		string(got.Arguments) != `"{not json"` {
		t.Errorf("refused invocation = %+v", got)
	}
	if as, _ := j.Approvals(ctx, "s1"); len(as) != 1 || as[0].ID != a.ID || as[0].Decision != "deny" {
		t.Errorf("approvals = %+v", as)
	}
	if c := chainOf(t, j)[before:]; strings.Join(c, " ") != "approvals:1 invocations:r1" {
		t.Errorf("chain entries = %v", c)
	}
	if err := j.RefuseInvocation(ctx, testInv("s1", "r2"), nil); err == nil {
		t.Error("RefuseInvocation without a reason: no error")
	}
	if err := j.MarkExecuting(ctx, "r1"); !errors.Is(err, ErrBadTransition) {
		t.Errorf("MarkExecuting(refused) = %v, want ErrBadTransition", err)
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Errorf("Verify: %v", rep.First)
	}
	// Tampering with a row written by the one-commit paths is caught.
	if _, err := rawDB(t, j.Path()).Exec(`UPDATE invocations SET error='' WHERE id='r1'`); err != nil {
		t.Fatal(err)
	}
	if rep := mustVerify(t, j); rep.OK || rep.First.RowID != "r1" || rep.First.Reason != ReasonRowChanged {
		t.Errorf("Verify after tampering = %+v", rep.First)
	}
}

// TestPayloadColumns: the payloads the call path builds from written
// values (payloads.go) name exactly the columns of the tables.
func TestPayloadColumns(t *testing.T) {
	j := openTest(t)
	for table, want := range map[string][]string{"invocations": invocationColumns, "approvals": approvalColumns} {
		rows, err := j.db.Query(`SELECT name FROM pragma_table_info(?) ORDER BY cid`, table)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for rows.Next() {
			var n string
			rows.Scan(&n)
			got = append(got, n)
		}
		rows.Close()
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("columns of %s = %v; payloads.go lists %v", table, got, want)
		}
	}
	inv := invocationPayload(testInv("s", "i"), string(InvExecuting), "", "t", "", "o")
	for _, c := range invocationColumns {
		if _, ok := inv.get(c); !ok && c != "result" && c != "reconciled_at" && c != "finished_at" && c != "handle" &&
			c != "origin" && c != "ui_uri" && c != "ui_size" && c != "ui_digest" {
			t.Errorf("invocationPayload has no %s", c)
		}
	}
}

// TestFinishOtherJournal: an invocation begun by one Journal and finished
// by another (no remembered payload: the row is returned by the UPDATE)
// chains correctly; so do many calls through one Journal, with and
// without results and errors, and a refusal between them.
func TestFinishOtherJournal(t *testing.T) {
	ctx := context.Background()
	path := testPath(t)
	a := openAt(t, path)
	mkSession(t, a, "s1")
	if err := a.BeginInvocation(ctx, testInv("s1", "x"), nil); err != nil {
		t.Fatal(err)
	}
	b := openAt(t, path)
	if err := b.FinishInvocation(ctx, "x", Finish{Status: InvSucceeded, Result: json.RawMessage(`{"by":"b"}`)}); err != nil {
		t.Fatalf("FinishInvocation from another Journal = %v", err)
	}
	if inv, _ := b.Invocation(ctx, "x"); inv.Status != InvSucceeded || inv.DurationMS < 0 || string(inv.Result) != `{"by":"b"}` {
		t.Errorf("finished by b: %+v", inv)
	}
	// a remembers x but the row is no longer executing.
	if err := a.FinishInvocation(ctx, "x", Finish{Status: InvFailed}); !errors.Is(err, ErrBadTransition) {
		t.Errorf("second finish = %v, want ErrBadTransition", err)
	}
	for i, f := range []Finish{{Status: InvSucceeded}, {Status: InvFailed, ErrorCode: "tool_failure", Error: "boom\n\"quoted\"", Result: json.RawMessage(`{"é":"\u0001"}`)},
		{Status: InvUnknown, ErrorCode: "timeout", DurationMS: 75000}, {Status: InvSucceeded, Effect: EffectNotApplied, Result: json.RawMessage(`[]`)}} {
		id := "y" + string(rune('0'+i))
		inv := testInv("s1", id)
		inv.Arguments = json.RawMessage(`{"text":"line\nbreak é \u2028"}`)
		if err := a.BeginInvocation(ctx, inv, testApproval("s1", id, "allow_session")); err != nil {
			t.Fatal(err)
		}
		if err := a.RefuseInvocation(ctx, Invocation{ID: "r" + id, SessionID: "s1", Alias: "ghost", ErrorCode: "not_selected"}, nil); err != nil {
			t.Fatal(err)
		}
		if err := a.FinishInvocation(ctx, id, f); err != nil {
			t.Fatal(err)
		}
	}
	if rep := mustVerify(t, a); !rep.OK {
		t.Fatalf("Verify: %v", rep.First)
	}
}
