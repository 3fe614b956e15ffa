package journal

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

func TestInvocationHappyPath(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	mkSession(t, j, "s1")
	prepare(t, j, "s1", "inv1")
	if got := status(t, j, "inv1"); got != InvPrepared {
		t.Fatalf("status after prepare = %q, want prepared", got)
	}
	if err := j.MarkExecuting(ctx, "inv1"); err != nil {
		t.Fatalf("MarkExecuting = %v", err)
	}
	if got := status(t, j, "inv1"); got != InvExecuting {
		t.Fatalf("status after MarkExecuting = %q, want executing", got)
	}
	result := json.RawMessage(`{"structured":{"ok":true},"text":"done"}`)
	if err := j.FinishInvocation(ctx, "inv1", Finish{Status: InvSucceeded, Result: result}); err != nil {
		t.Fatalf("FinishInvocation = %v", err)
	}
	inv, err := j.Invocation(ctx, "inv1")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(result)
	if want := "sha256:" + hex.EncodeToString(sum[:]); inv.ResultDigest != want {
		t.Errorf("ResultDigest = %q, want %q", inv.ResultDigest, want)
	}
	if string(inv.Result) != string(result) || inv.Effect != EffectApplied || inv.Status != InvSucceeded {
		t.Errorf("invocation = %+v; want succeeded, applied, result kept", inv)
	}
	// The fake clock ticks 1 ms per reading: executing and finish are apart.
	if inv.StartedAt.IsZero() || inv.FinishedAt.Before(inv.StartedAt) || inv.DurationMS <= 0 {
		t.Errorf("times: started %v finished %v duration %d", inv.StartedAt, inv.FinishedAt, inv.DurationMS)
	}
	if inv.TurnID != "s1-t1" || inv.Tool != "notes.append" || inv.RemoteName != "append" || string(inv.Arguments) != `{"text":"hi"}` {
		t.Errorf("fields not kept: %+v", inv)
	}
	list, err := j.Invocations(ctx, "s1")
	if err != nil || len(list) != 1 || list[0].ID != "inv1" {
		t.Fatalf("Invocations(s1) = %v, %v", list, err)
	}
}

// TestInvocationTransitions drives every (from, operation) pair through
// the state machine and checks legal moves succeed and illegal ones fail
// with ErrBadTransition, leaving the row unchanged.
func TestInvocationTransitions(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	mkSession(t, j, "s1")
	n := 0
	// reach returns a fresh invocation in status from.
	reach := func(from InvocationStatus) string {
		n++
		id := "inv" + string(rune('a'+n))
		if from == InvRefused {
			if err := j.PrepareInvocation(ctx, Invocation{ID: id, SessionID: "s1", Alias: "nope", Status: InvRefused,
				ErrorCode: "unknown_tool", Error: "no tool nope", Arguments: json.RawMessage(`{not json`)}); err != nil {
				t.Fatal(err)
			}
			return id
		}
		prepare(t, j, "s1", id)
		if from == InvPrepared {
			return id
		}
		if err := j.MarkExecuting(ctx, id); err != nil {
			t.Fatal(err)
		}
		if from != InvExecuting {
			if err := j.FinishInvocation(ctx, id, Finish{Status: from, Error: "x"}); err != nil {
				t.Fatal(err)
			}
		}
		return id
	}
	ops := map[string]func(id string) error{
		"MarkExecuting": func(id string) error { return j.MarkExecuting(ctx, id) },
		"succeeded":     func(id string) error { return j.FinishInvocation(ctx, id, Finish{Status: InvSucceeded}) },
		"failed":        func(id string) error { return j.FinishInvocation(ctx, id, Finish{Status: InvFailed, Error: "boom"}) },
		"unknown":       func(id string) error { return j.FinishInvocation(ctx, id, Finish{Status: InvUnknown}) },
	}
	legal := map[string]bool{
		"prepared/MarkExecuting": true,
		"executing/succeeded":    true, "executing/failed": true, "executing/unknown": true,
	}
	for _, from := range []InvocationStatus{InvPrepared, InvExecuting, InvSucceeded, InvFailed, InvUnknown, InvRefused} {
		for name, op := range ops {
			id := reach(from)
			err := op(id)
			if legal[string(from)+"/"+name] {
				if err != nil {
					t.Errorf("%s from %s = %v, want nil", name, from, err)
				}
				continue
			}
			if !errors.Is(err, ErrBadTransition) {
				t.Errorf("%s from %s = %v, want ErrBadTransition", name, from, err)
			} else if !strings.Contains(err.Error(), "is "+string(from)) {
				t.Errorf("%s from %s: error %q does not name the current state", name, from, err)
			}
			if got := status(t, j, id); got != from {
				t.Errorf("after refused %s, status = %q, want %q", name, got, from)
			}
		}
	}
	if err := j.MarkExecuting(ctx, "missing"); !errors.Is(err, ErrNotFound) {
		t.Errorf("MarkExecuting(missing) = %v, want ErrNotFound", err)
	}
	if err := j.FinishInvocation(ctx, "missing", Finish{Status: InvFailed}); !errors.Is(err, ErrNotFound) {
		t.Errorf("FinishInvocation(missing) = %v, want ErrNotFound", err)
	}
	if err := j.FinishInvocation(ctx, "inv1", Finish{Status: "done"}); err == nil {
		t.Error("FinishInvocation with status done: no error")
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Errorf("Verify after transitions: %v", rep.First)
	}
}

func TestRefusedInvocation(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	mkSession(t, j, "s1")
	err := j.PrepareInvocation(ctx, Invocation{ID: "r1", SessionID: "s1", Alias: "ghost", Status: InvRefused,
		ErrorCode: "unknown_tool", Error: `no tool "ghost" in this session`, Arguments: json.RawMessage(`{"a":`)})
	if err != nil {
		t.Fatalf("PrepareInvocation(refused) = %v", err)
	}
	inv, _ := j.Invocation(ctx, "r1")
	if inv.Status != InvRefused || inv.Effect != EffectNotApplied || inv.FinishedAt.IsZero() || inv.ErrorCode != "unknown_tool" {
		t.Errorf("refused invocation = %+v", inv)
	}
	var raw string // invalid arguments are kept as a JSON string
	if err := json.Unmarshal(inv.Arguments, &raw); err != nil || raw != `{"a":` {
		t.Errorf("Arguments = %s (%v), want JSON string of the raw text", inv.Arguments, err)
	}
	if err := j.PrepareInvocation(ctx, Invocation{ID: "r2", SessionID: "s1", Tool: "x", Status: InvRefused}); err == nil {
		t.Error("refused without a reason: no error")
	}
	if err := j.PrepareInvocation(ctx, Invocation{ID: "r3", SessionID: "s1", Tool: "x", Arguments: json.RawMessage(`{`)}); err == nil {
		t.Error("prepared with invalid JSON arguments: no error")
	}
	if err := j.PrepareInvocation(ctx, Invocation{ID: "r4", SessionID: "s1", Tool: "x", Status: InvSucceeded}); err == nil {
		t.Error("PrepareInvocation with status succeeded: no error")
	}
	if err := j.PrepareInvocation(ctx, Invocation{ID: "r5", SessionID: "nosuch", Tool: "x"}); err == nil {
		t.Error("PrepareInvocation in a missing session: no error (foreign keys off?)")
	}
	big := json.RawMessage(`"` + strings.Repeat("A", MaxJSONBytes) + `"`)
	prepare(t, j, "s1", "big")
	j.MarkExecuting(ctx, "big")
	if err := j.FinishInvocation(ctx, "big", Finish{Status: InvSucceeded, Result: big}); err == nil || !strings.Contains(err.Error(), "never pixels") {
		t.Errorf("oversized result: err = %v, want a size error", err)
	}
}

func TestReconcile(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	mkSession(t, j, "s1")
	prepare(t, j, "s1", "ok")
	j.MarkExecuting(ctx, "ok")
	j.FinishInvocation(ctx, "ok", Finish{Status: InvSucceeded})
	err := j.Reconcile(ctx, "ok", OutcomeApplied)
	if !errors.Is(err, ErrBadTransition) || !strings.Contains(err.Error(), "invocation ok is succeeded, not unknown; only unknown invocations need reconciliation") {
		t.Errorf("Reconcile(succeeded) = %v", err)
	}
	prepare(t, j, "s1", "u")
	j.MarkExecuting(ctx, "u")
	if err := j.Reconcile(ctx, "u", OutcomeApplied); !errors.Is(err, ErrBadTransition) {
		t.Errorf("Reconcile(executing) = %v, want ErrBadTransition", err)
	}
	j.FinishInvocation(ctx, "u", Finish{Status: InvUnknown, Error: "timeout after send"})
	if err := j.Reconcile(ctx, "u", "maybe"); err == nil {
		t.Error("Reconcile with outcome maybe: no error")
	}
	if err := j.Reconcile(ctx, "missing", OutcomeApplied); !errors.Is(err, ErrNotFound) {
		t.Errorf("Reconcile(missing) = %v, want ErrNotFound", err)
	}
	if got, err := j.Unreconciled(ctx); err != nil || len(got) != 1 || got[0].ID != "u" {
		t.Errorf("Unreconciled = %v, %v; want [u]", got, err)
	}
	if err := j.ReconcileAs(ctx, "u", OutcomeNotApplied, "user:alice"); err != nil {
		t.Fatalf("ReconcileAs = %v", err)
	}
	inv, _ := j.Invocation(ctx, "u")
	if inv.Status != InvUnknown || inv.Reconciled != OutcomeNotApplied || inv.Effect != EffectNotApplied ||
		inv.ReconciledBy != "user:alice" || inv.ReconciledAt.IsZero() {
		t.Errorf("reconciled invocation = %+v", inv)
	}
	err = j.Reconcile(ctx, "u", OutcomeApplied)
	if !errors.Is(err, ErrBadTransition) || !strings.Contains(err.Error(), "already reconciled as not_applied by user:alice") {
		t.Errorf("second Reconcile = %v", err)
	}
	if got, _ := j.Unreconciled(ctx); len(got) != 0 {
		t.Errorf("Unreconciled after reconcile = %v", got)
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Errorf("Verify: %v", rep.First)
	}
}

// TestNewID runs on synctest's clock: each time.Sleep advances it by
// exactly 10 ms, so the time prefix must grow at every step, and it must
// encode that clock's Unix milliseconds.
func TestNewID(t *testing.T) {
	a := NewID("inv_")
	if len(a) != 4+26 || !strings.HasPrefix(a, "inv_") {
		t.Errorf("NewID(inv_) = %q, want inv_ + 26 characters", a)
	}
	synctest.Test(t, func(t *testing.T) {
		seen := map[string]bool{}
		prev := ""
		for i := 0; i < 1000; i++ {
			id := NewID("")
			if seen[id] {
				t.Fatalf("NewID repeated %q", id)
			}
			seen[id] = true
			if i%200 != 0 {
				continue
			}
			// The first 9 characters are 45 of the 48 bits of time: the
			// same within 8 ms, greater after 10.
			if id[:9] <= prev {
				t.Errorf("NewID time prefix did not grow across 10 ms: %q after %q", id, prev)
			}
			prev = id[:9]
			b, err := crockford.DecodeString(id[:10] + "000000") // 60 bits: the 48 of time, then zeros
			if err != nil {
				t.Fatal(err)
			}
			if ms, want := binary.BigEndian.Uint64(append(b[:6:6], 0, 0))>>16, uint64(time.Now().UnixMilli()); ms != want {
				t.Errorf("NewID encodes %d ms, want the clock's %d", ms, want)
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

// TestCancelledContext: a cancelled turn must not start a call, but must
// still record how the running one ended.
func TestCancelledContext(t *testing.T) {
	j := openTest(t)
	mkSession(t, j, "s1")
	prepare(t, j, "s1", "a")
	prepare(t, j, "s1", "b")
	if err := j.MarkExecuting(context.Background(), "b"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := j.MarkExecuting(ctx, "a"); err == nil {
		t.Error("MarkExecuting with a cancelled ctx = nil; the caller would start a call")
	}
	if got := status(t, j, "a"); got != InvPrepared {
		t.Errorf("status after cancelled MarkExecuting = %q, want prepared", got)
	}
	if err := j.FinishInvocation(ctx, "b", Finish{Status: InvFailed, ErrorCode: "cancelled", Error: "turn cancelled"}); err != nil {
		t.Errorf("FinishInvocation with a cancelled ctx = %v, want the terminal row written", err)
	}
	if err := j.FinishTurn(ctx, "s1-t1", TurnCancelled, "user pressed stop", 1, 1); err != nil {
		t.Errorf("FinishTurn with a cancelled ctx = %v", err)
	}
	if _, err := j.RecordApproval(ctx, Approval{SessionID: "s1", Decision: "deny", Source: "timeout"}); err != nil {
		t.Errorf("RecordApproval with a cancelled ctx = %v", err)
	}
	if err := j.FinishSession(ctx, "s1", SessionClosed, ""); err != nil {
		t.Errorf("FinishSession with a cancelled ctx = %v", err)
	}
}

// TestReconcileSpellings: the outcome not_applied is stored as spelled
// like the effect, whether given as "not_applied" or as the older
// "not-applied"; other words are refused.
func TestReconcileSpellings(t *testing.T) {
	ctx := context.Background()
	path := testPath(t)
	j := openAt(t, path)
	mkSession(t, j, "s1")
	raw := rawDB(t, path)
	for _, in := range []Effect{"not_applied", "not-applied", "applied"} {
		id := "u-" + string(in)
		prepare(t, j, "s1", id)
		j.MarkExecuting(ctx, id)
		if err := j.FinishInvocation(ctx, id, Finish{Status: InvUnknown, Error: "timeout"}); err != nil {
			t.Fatal(err)
		}
		if err := j.Reconcile(ctx, id, in); err != nil {
			t.Fatalf("Reconcile(%q) = %v", in, err)
		}
		want := EffectNotApplied
		if in == "applied" {
			want = EffectApplied
		}
		var reconciled, effect string
		if err := raw.QueryRow(`SELECT reconciled, effect FROM invocations WHERE id=?`, id).Scan(&reconciled, &effect); err != nil {
			t.Fatal(err)
		}
		if reconciled != string(want) || effect != string(want) {
			t.Errorf("Reconcile(%q) stored reconciled %q, effect %q; want %q for both", in, reconciled, effect, want)
		}
		if inv, _ := j.Invocation(ctx, id); inv.Reconciled != want {
			t.Errorf("Reconcile(%q): Invocation.Reconciled = %q, want %q", in, inv.Reconciled, want)
		}
	}
	prepare(t, j, "s1", "u-bad")
	j.MarkExecuting(ctx, "u-bad")
	j.FinishInvocation(ctx, "u-bad", Finish{Status: InvUnknown})
	for _, bad := range []Effect{"", "unknown", "Not_Applied", "not applied"} {
		if err := j.Reconcile(ctx, "u-bad", bad); err == nil || !strings.Contains(err.Error(), `want "applied" or "not_applied"`) {
			t.Errorf("Reconcile(%q) = %v; want an error naming applied and not_applied", bad, err)
		}
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Errorf("Verify: %v", rep.First)
	}
}

func TestParseOutcome(t *testing.T) {
	for in, want := range map[string]Effect{"applied": EffectApplied, "not_applied": EffectNotApplied, "not-applied": EffectNotApplied} {
		if got, err := ParseOutcome(in); err != nil || got != want {
			t.Errorf("ParseOutcome(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "unknown", "yes", " applied"} {
		if got, err := ParseOutcome(in); err == nil {
			t.Errorf("ParseOutcome(%q) = %q, nil; want an error", in, got)
		}
	}
}
