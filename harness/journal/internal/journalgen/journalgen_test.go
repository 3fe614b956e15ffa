package journalgen

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/journal"
)

// TestGenerate writes 120 sessions in two runs and checks the journal has
// what DefaultShape says, numbered on from the first run, and verifies.
func TestGenerate(t *testing.T) {
	ctx := context.Background()
	clock := NewClock(time.Date(2025, 1, 1, 8, 0, 0, 0, time.UTC), time.Second)
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.db"), &journal.Options{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	u1, err := Generate(ctx, j, 0, 100, Shape{})
	if err != nil {
		t.Fatal(err)
	}
	u2, err := Generate(ctx, j, 100, 20, Shape{})
	if err != nil {
		t.Fatal(err)
	}
	if u1 != 2 || u2 != 0 {
		t.Errorf("unknown calls = %d and %d, want 2 (sessions 49 and 99) and 0", u1, u2)
	}
	ss, err := j.Sessions(ctx, 0)
	if err != nil || len(ss) != 120 {
		t.Fatalf("Sessions = %d, %v; want 120", len(ss), err)
	}
	if ss[0].FirstPrompt[:12] != "request 119:" || ss[119].FirstPrompt[:10] != "request 0:" {
		t.Errorf("newest and oldest prompts = %q, %q", ss[0].FirstPrompt, ss[119].FirstPrompt)
	}
	open := 0
	for _, s := range ss {
		if s.Status == journal.SessionOpen {
			open++
		}
	}
	if open != 1 {
		t.Errorf("open sessions = %d, want 1 (session 99)", open)
	}
	d, err := j.Detail(ctx, ss[0].ID)
	if err != nil || len(d.Turns) != 1 || len(d.Messages) != 6 || len(d.Invocations) != 2 || len(d.Approvals) != 2 ||
		len(d.Invocations[1].Result) < 5000 || d.Turns[0].Status != journal.TurnCompleted {
		t.Errorf("a generated session = %d turns, %d messages, %d invocations, %d approvals, %v", len(d.Turns), len(d.Messages), len(d.Invocations), len(d.Approvals), err)
	}
	if p, err := j.Unknown(ctx, journal.UnknownQuery{}); err != nil || len(p.Invocations) != 2 {
		t.Errorf("Unknown = %+v, %v; want 2", p, err)
	}
	if rep, err := j.Verify(ctx); err != nil || !rep.OK {
		t.Errorf("Verify = %+v, %v", rep.First, err)
	}
}
