package journal

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/openworker/desktop/harness/consent"
)

func TestOpenPragmas(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	// Hold several pooled connections at once: the pragmas must be set on
	// each, not just the first.
	var conns []interface{ Close() error }
	for i := 0; i < 3; i++ {
		c, err := j.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		checks := map[string]string{"journal_mode": "wal", "synchronous": "2", "foreign_keys": "1", "busy_timeout": "5000"}
		for p, want := range checks {
			var got string
			if err := c.QueryRowContext(ctx, "PRAGMA "+p).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("conn %d: PRAGMA %s = %s, want %s", i, p, got, want)
			}
		}
	}
	for _, c := range conns {
		c.Close()
	}
	var v int
	j.db.QueryRow(`SELECT max(version) FROM schema_migrations`).Scan(&v)
	if v != SchemaVersion() {
		t.Errorf("schema version = %d, want %d", v, SchemaVersion())
	}
}

func TestSessionsAndTurns(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	mkSession(t, j, "s1")
	mkSession(t, j, "s2")
	s, err := j.Session(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	want := Session{ID: "s1", Coworker: "demo", CoworkerVersion: "1.0.0", Identity: "sha-s1", Provider: "openai",
		Model: "m", Approve: "ask", Status: SessionOpen, IdentityParts: json.RawMessage(`{"bundle":"b"}`)}
	if diff := cmp.Diff(want, s, cmpIgnoreTimes); diff != "" {
		t.Errorf("Session(s1) mismatch (-want +got):\n%s", diff)
	}
	if s.CreatedAt.Location() != time.UTC || s.CreatedAt.IsZero() {
		t.Errorf("CreatedAt = %v, want a UTC time", s.CreatedAt)
	}
	list, err := j.Sessions(ctx, 0)
	if err != nil || len(list) != 2 || list[0].ID != "s2" || list[1].ID != "s1" {
		t.Fatalf("Sessions(0) = %v, %v; want s2, s1 (newest first)", list, err)
	}
	if list[0].Interrupted || list[1].Interrupted {
		t.Error("Sessions: a session this live Journal holds is listed as interrupted")
	}
	if list[1].FirstPrompt != "hello" {
		t.Errorf("Sessions: FirstPrompt of s1 = %q, want its first turn's prompt", list[1].FirstPrompt)
	}
	if list, _ := j.Sessions(ctx, 1); len(list) != 1 || list[0].ID != "s2" {
		t.Errorf("Sessions(1) = %v, want [s2]", list)
	}
	if _, err := j.Session(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Session(nope) = %v, want ErrNotFound", err)
	}
	if err := j.CreateSession(ctx, Session{ID: "s1", Coworker: "demo", Identity: "x"}); err == nil {
		t.Error("CreateSession with a duplicate ID: no error")
	}
	if err := j.CreateSession(ctx, Session{ID: "s3", Coworker: "demo"}); err == nil {
		t.Error("CreateSession without identity: no error")
	}

	// Turns: auto seq, legal and illegal transitions.
	if err := j.StartTurn(ctx, Turn{ID: "s1-t2", SessionID: "s1", Prompt: "again"}); err != nil {
		t.Fatal(err)
	}
	if err := j.FinishTurn(ctx, "s1-t1", TurnCompleted, "", 2, 1); err != nil {
		t.Fatalf("FinishTurn = %v", err)
	}
	if err := j.FinishTurn(ctx, "s1-t1", TurnFailed, "x", 0, 0); !errors.Is(err, ErrBadTransition) {
		t.Errorf("FinishTurn twice = %v, want ErrBadTransition", err)
	}
	if err := j.FinishTurn(ctx, "s1-t2", "paused", "", 0, 0); err == nil {
		t.Error("FinishTurn(paused): no error")
	}
	if err := j.FinishTurn(ctx, "nope", TurnStopped, "", 0, 0); !errors.Is(err, ErrNotFound) {
		t.Errorf("FinishTurn(nope) = %v, want ErrNotFound", err)
	}
	for _, st := range []TurnStatus{TurnStopped, TurnFailed, TurnCancelled} {
		id := "s2-" + string(st)
		if err := j.StartTurn(ctx, Turn{ID: id, SessionID: "s2"}); err != nil {
			t.Fatal(err)
		}
		if err := j.FinishTurn(ctx, id, st, "reason "+string(st), 1, 0); err != nil {
			t.Errorf("FinishTurn(%s) = %v", st, err)
		}
	}
	turns, err := j.Turns(ctx, "s1")
	if err != nil || len(turns) != 2 {
		t.Fatalf("Turns(s1) = %v, %v", turns, err)
	}
	if turns[0].Seq != 1 || turns[1].Seq != 2 || turns[0].Status != TurnCompleted || turns[0].Attempts != 2 ||
		turns[0].Calls != 1 || turns[0].FinishedAt.IsZero() || turns[1].Status != TurnRunning {
		t.Errorf("turns = %+v", turns)
	}

	// Sessions: open → closed; no turns in a closed session.
	if err := j.FinishSession(ctx, "s1", SessionClosed, ""); err != nil {
		t.Fatal(err)
	}
	if err := j.FinishSession(ctx, "s1", SessionFailed, "x"); !errors.Is(err, ErrBadTransition) {
		t.Errorf("FinishSession twice = %v, want ErrBadTransition", err)
	}
	if err := j.StartTurn(ctx, Turn{ID: "late", SessionID: "s1"}); !errors.Is(err, ErrBadTransition) {
		t.Errorf("StartTurn in closed session = %v, want ErrBadTransition", err)
	}
	if err := j.FinishSession(ctx, "s2", SessionFailed, "model unreachable"); err != nil {
		t.Fatal(err)
	}
	if s, _ := j.Session(ctx, "s2"); s.Status != SessionFailed || s.Error != "model unreachable" || !s.UpdatedAt.After(s.CreatedAt) {
		t.Errorf("failed session = %+v", s)
	}
	if err := j.FinishSession(ctx, "s2", "open", ""); err == nil {
		t.Error("FinishSession(open): no error")
	}
}

var cmpIgnoreTimes = cmpopts.IgnoreTypes(time.Time{})

func TestMessages(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	mkSession(t, j, "s1")
	in := []Message{
		{SessionID: "s1", Role: "system", Content: json.RawMessage(`"you are helpful"`)},
		{SessionID: "s1", TurnID: "s1-t1", Role: "user", Content: json.RawMessage(`{"text":"hi"}`)},
		{SessionID: "s1", TurnID: "s1-t1", Role: "assistant", Content: json.RawMessage(`{"image":{"digest":"sha256:ab"}}`)},
	}
	var last int64
	for i, m := range in {
		id, err := j.AppendMessage(ctx, m)
		if err != nil {
			t.Fatalf("AppendMessage #%d = %v", i, err)
		}
		if id <= last {
			t.Errorf("AppendMessage #%d id = %d, want > %d", i, id, last)
		}
		last = id
	}
	got, err := j.Messages(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(in, got, cmpIgnoreTimes, cmpopts.IgnoreFields(Message{}, "ID")); diff != "" {
		t.Errorf("Messages mismatch (-want +got):\n%s", diff)
	}
	for _, bad := range []Message{
		{SessionID: "s1", Role: "user"},
		{SessionID: "s1", Role: "user", Content: json.RawMessage(`{oops`)},
		{SessionID: "s1", Role: "", Content: json.RawMessage(`1`)},
		{SessionID: "nope", Role: "user", Content: json.RawMessage(`1`)},
		{SessionID: "s1", TurnID: "nope", Role: "user", Content: json.RawMessage(`1`)},
	} {
		if _, err := j.AppendMessage(ctx, bad); err == nil {
			t.Errorf("AppendMessage(%+v): no error", bad)
		}
	}
}

func TestApprovalsPoliciesWarningsDetail(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	mkSession(t, j, "s1")
	a := Approval{SessionID: "s1", TurnID: "s1-t1", InvocationID: "inv1", CallID: "c1", Tool: "notes.append",
		Decision: "allow_always", Scope: "coworker", Source: "prompt", Reason: "user clicked", Identity: "sha-s1"}
	id, err := j.RecordApproval(ctx, a)
	if err != nil || id <= 0 {
		t.Fatalf("RecordApproval = %d, %v", id, err)
	}
	if _, err := j.RecordApproval(ctx, Approval{SessionID: "s1", Decision: "deny", Source: "timeout", Reason: "no answer in 5m0s"}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []Approval{{SessionID: "s1", Decision: "maybe", Source: "prompt"}, {SessionID: "s1", Decision: "deny"},
		{SessionID: "nope", Decision: "deny", Source: "prompt"}} {
		if _, err := j.RecordApproval(ctx, bad); err == nil {
			t.Errorf("RecordApproval(%+v): no error", bad)
		}
	}
	got, err := j.Approvals(ctx, "s1")
	if err != nil || len(got) != 2 {
		t.Fatalf("Approvals = %v, %v", got, err)
	}
	a.ID = id
	if diff := cmp.Diff(a, got[0], cmpIgnoreTimes); diff != "" {
		t.Errorf("approval mismatch (-want +got):\n%s", diff)
	}
	if got[1].Decision != "deny" || got[1].Source != "timeout" {
		t.Errorf("second approval = %+v", got[1])
	}

	// User policies are keyed by coworker, tool and descriptor digest.
	if p, ok, err := j.UserPolicy(ctx, "demo", "notes.append", "sha256:d1"); p != "" || ok || err != nil {
		t.Errorf("UserPolicy before saving = %q, %v, %v", p, ok, err)
	}
	if err := j.SaveUserPolicy(ctx, "demo", "notes.append", "sha256:d1", string(consent.PolicyAllow)); err != nil {
		t.Fatal(err)
	}
	if p, ok, _ := j.UserPolicy(ctx, "demo", "notes.append", "sha256:d1"); p != string(consent.PolicyAllow) || !ok {
		t.Errorf("UserPolicy = %q, %v, want allow", p, ok)
	}
	if _, ok, _ := j.UserPolicy(ctx, "demo", "notes.append", "sha256:d2"); ok {
		t.Error("a changed descriptor digest found the old policy")
	}
	if _, ok, _ := j.UserPolicy(ctx, "other", "notes.append", "sha256:d1"); ok {
		t.Error("another coworker found demo's policy")
	}
	if err := j.SaveUserPolicy(ctx, "demo", "notes.append", "sha256:d1", string(consent.PolicyDeny)); err != nil {
		t.Fatal(err)
	}
	if p, _, _ := j.UserPolicy(ctx, "demo", "notes.append", "sha256:d1"); p != string(consent.PolicyDeny) {
		t.Errorf("UserPolicy after replace = %q, want deny", p)
	}
	if err := j.SaveUserPolicy(ctx, "demo", "notes.append", "sha256:d1", "sometimes"); err == nil {
		t.Error("SaveUserPolicy(sometimes): no error")
	}
	if rows, err := j.UserPolicies(ctx, "demo"); err != nil || len(rows) != 1 || rows[0].Policy != string(consent.PolicyDeny) {
		t.Errorf("UserPolicies(demo) = %v, %v", rows, err)
	}

	if err := j.Warn(ctx, "s1", "s1-t1", "model_context_dropped", "fact clock dropped: 9 KB over budget"); err != nil {
		t.Fatal(err)
	}
	prepare(t, j, "s1", "inv1")
	j.AppendMessage(ctx, Message{SessionID: "s1", Role: "user", Content: json.RawMessage(`"hi"`)})
	d, err := j.Detail(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if d.ID != "s1" || len(d.Turns) != 1 || len(d.Messages) != 1 || len(d.Invocations) != 1 || len(d.Approvals) != 2 ||
		len(d.Warnings) != 1 || d.Warnings[0].Code != "model_context_dropped" || d.Warnings[0].TurnID != "s1-t1" {
		t.Errorf("Detail = %+v", d)
	}
	if _, err := json.Marshal(d); err != nil {
		t.Errorf("json.Marshal(Detail) = %v", err)
	}
	if _, err := j.Detail(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Detail(nope) = %v, want ErrNotFound", err)
	}
	if rep := mustVerify(t, j); !rep.OK || rep.Rows == 0 {
		t.Errorf("Verify = %+v", rep)
	}
}

func TestDefaultPathAndBadFile(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", "/cfg")
	t.Setenv("HOME", "/home/u")
	p, err := DefaultPath()
	if err != nil || !strings.HasSuffix(p, filepath.Join("OpenWorker", "journal.db")) {
		t.Errorf("DefaultPath() = %q, %v", p, err)
	}
	bad := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(bad, []byte(strings.Repeat("not a database\n", 100)), 0o600)
	if _, err := Open(bad, nil); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("Open(text file) = %v, want an error naming the file", err)
	}
}

func TestReopenSession(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	mkSession(t, j, "s1")
	before, _ := j.Session(ctx, "s1")
	if err := j.ReopenSession(ctx, "s1", Reopening{}); err != nil {
		t.Errorf("ReopenSession of a session this Journal holds = %v, want nil", err)
	}
	if after, _ := j.Session(ctx, "s1"); !after.UpdatedAt.Equal(before.UpdatedAt) {
		t.Error("ReopenSession of a session this Journal holds changed the row")
	}
	if err := j.ReopenSession(ctx, "nope", Reopening{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("ReopenSession(nope) = %v, want ErrNotFound", err)
	}
	for _, st := range []SessionStatus{SessionClosed, SessionFailed} {
		if err := j.FinishSession(ctx, "s1", st, "because "+string(st)); err != nil {
			t.Fatal(err)
		}
		before, _ := j.Session(ctx, "s1")
		if err := j.ReopenSession(ctx, "s1", Reopening{}); err != nil {
			t.Fatalf("ReopenSession(%s) = %v", st, err)
		}
		s, err := j.Session(ctx, "s1")
		if err != nil {
			t.Fatal(err)
		}
		if s.Status != SessionOpen || s.Error != "" || s.UpdatedAt.Before(before.UpdatedAt) {
			t.Errorf("after ReopenSession(%s): status %q error %q updated %v (was %v)", st, s.Status, s.Error, s.UpdatedAt, before.UpdatedAt)
		}
		if err := j.StartTurn(ctx, Turn{ID: "t-" + string(st), SessionID: "s1", Prompt: "again"}); err != nil {
			t.Errorf("StartTurn after reopening a %s session = %v", st, err)
		}
		if err := j.FinishTurn(ctx, "t-"+string(st), TurnCompleted, "", 1, 0); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := j.Verify(ctx)
	if err != nil || !rep.OK {
		t.Errorf("Verify after reopening = %+v, %v; the reopen must be chained", rep, err)
	}
}

// RunningElsewhere sees a turn that another live Journal on the same file
// is running, not this Journal's own turns, and not after the other closes
// (its turn then belongs to a dead owner).
func TestRunningElsewhere(t *testing.T) {
	ctx := context.Background()
	path := testPath(t)
	a := openAt(t, path)
	mkSession(t, a, "s1") // with its running turn s1-t1
	b := openAt(t, path)
	if busy, err := a.RunningElsewhere(ctx, "s1"); err != nil || busy {
		t.Errorf("RunningElsewhere from the owner = %v, %v; want false", busy, err)
	}
	if busy, err := b.RunningElsewhere(ctx, "s1"); err != nil || !busy {
		t.Errorf("RunningElsewhere from another Journal = %v, %v; want true", busy, err)
	}
	if busy, _ := b.RunningElsewhere(ctx, "nope"); busy {
		t.Error("RunningElsewhere of an unknown session = true")
	}
	if err := a.FinishTurn(ctx, "s1-t1", TurnCompleted, "", 1, 0); err != nil {
		t.Fatal(err)
	}
	if busy, _ := b.RunningElsewhere(ctx, "s1"); busy {
		t.Error("RunningElsewhere after the turn finished = true")
	}
	if err := a.StartTurn(ctx, Turn{ID: "t2", SessionID: "s1", Prompt: "p"}); err != nil {
		t.Fatal(err)
	}
	a.Close()
	if busy, _ := b.RunningElsewhere(ctx, "s1"); busy {
		t.Error("RunningElsewhere with the owner closed = true")
	}
	// Its process gone, the open session is listed as interrupted.
	list, err := b.Sessions(ctx, 0)
	if err != nil || len(list) != 1 || !list[0].Interrupted {
		t.Errorf("Sessions after the owner closed = %+v, %v; want s1 interrupted", list, err)
	}
}

// A session another live process holds open is not taken; once that
// process is gone (or the session closed) it is.
func TestReopenSessionHeldElsewhere(t *testing.T) {
	ctx := context.Background()
	path := testPath(t)
	a := openAt(t, path)
	mkSession(t, a, "s1")
	mkSession(t, a, "s2")
	b := openAt(t, path)
	if err := b.ReopenSession(ctx, "s1", Reopening{}); !errors.Is(err, ErrHeldElsewhere) {
		t.Fatalf("ReopenSession of a session another live Journal holds = %v, want ErrHeldElsewhere", err)
	}
	if err := a.FinishSession(ctx, "s2", SessionClosed, ""); err != nil {
		t.Fatal(err)
	}
	if err := b.ReopenSession(ctx, "s2", Reopening{Model: "other-model", Approve: "bypass"}); err != nil {
		t.Errorf("ReopenSession of a session the live owner closed = %v", err)
	}
	if s2, _ := b.Session(ctx, "s2"); s2.Model != "other-model" || s2.Approve != "bypass" || s2.Provider != "openai" {
		t.Errorf("after reopening with another model and mode: provider %q model %q approve %q; want openai, other-model, bypass", s2.Provider, s2.Model, s2.Approve)
	}
	if err := a.ReopenSession(ctx, "s2", Reopening{}); !errors.Is(err, ErrHeldElsewhere) {
		t.Errorf("the first owner took back a session the second holds: %v", err)
	}
	a.Close()
	if err := b.ReopenSession(ctx, "s1", Reopening{}); err != nil {
		t.Fatalf("ReopenSession after the owner closed its journal = %v", err)
	}
	var owner string
	b.db.QueryRow(`SELECT owner FROM sessions WHERE id='s1'`).Scan(&owner)
	if owner != b.owner.token {
		t.Errorf("owner after takeover = %q, want %q", owner, b.owner.token)
	}
	if rep, err := b.Verify(ctx); err != nil || !rep.OK {
		t.Errorf("Verify = %+v, %v", rep, err)
	}
}
