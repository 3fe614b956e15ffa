package journal

import (
	"context"
	"testing"
	"time"
)

// TestRunOf: every run state from turns and inbox items, in words.
func TestRunOf(t *testing.T) {
	turn := func(st TurnStatus, reason string) []Turn { return []Turn{{ID: "t1", Status: st, Reason: reason}} }
	approval := func(st InboxStatus) InboxItem {
		return InboxItem{ID: "inb_1", Kind: InboxApproval, TurnID: "t1", Tool: "notes.append", Status: st, AnsweredBy: "prompt timeout"}
	}
	for _, c := range []struct {
		name  string
		turns []Turn
		items []InboxItem
		want  string
		state RunState
	}{
		{"none", nil, nil, "not started", RunNotStarted},
		{"running", turn(TurnRunning, ""), nil, "running", RunRunning},
		{"succeeded", turn(TurnCompleted, ""), nil, "succeeded", RunSucceeded},
		{"parked on an approval", turn(TurnStopped, "waiting on you"), []InboxItem{approval(InboxOpen)}, "waiting on you: inb_1 (approval of notes.append)", RunWaiting},
		{"open item, completed turn", turn(TurnCompleted, ""), []InboxItem{approval(InboxOpen)}, "waiting on you: inb_1 (approval of notes.append)", RunWaiting},
		{"answered", turn(TurnStopped, "waiting on you"), []InboxItem{approval(InboxAnswered)}, "answered, waiting to resume", RunAnswered},
		{"consumed", turn(TurnCompleted, ""), []InboxItem{approval(InboxConsumed)}, "succeeded", RunSucceeded},
		{"approval expired", turn(TurnCompleted, ""), []InboxItem{approval(InboxExpired)},
			"failed: the approval inb_1 of notes.append was never answered (expired: prompt timeout), so the call did not run", RunFailed},
		{"approval of an earlier turn expired", []Turn{{ID: "t0", Status: TurnCompleted}, {ID: "t2", Status: TurnCompleted}}, []InboxItem{approval(InboxExpired)}, "succeeded", RunSucceeded},
		{"budget stop", turn(TurnStopped, "stopped at budget: tokens_per_run (1500 of 1000); you answered stop"), nil,
			"stopped at budget: tokens_per_run (1500 of 1000); you answered stop", RunStoppedAtBudget},
		{"a turn limit", turn(TurnStopped, "the turn used its budget of 16 provider attempts"), nil, "failed: stopped: the turn used its budget of 16 provider attempts", RunFailed},
		{"provider failed", turn(TurnFailed, "model unreachable"), nil, "failed: model unreachable", RunFailed},
		{"cancelled", turn(TurnCancelled, "the turn was cancelled"), nil, "cancelled", RunCancelled},
	} {
		r := RunOf(c.turns, c.items)
		if r.State != c.state || r.String() != c.want {
			t.Errorf("%s: RunOf = %+v %q; want %s %q", c.name, r, r.String(), c.state, c.want)
		}
	}
	if s := (Run{State: RunCaughtUp, Missed: 5}).String(); s != "caught up (missed 5)" {
		t.Errorf("caught up = %q", s)
	}
	if s := (Run{State: RunMissed, Missed: 3}).String(); s != "missed (3 slots)" {
		t.Errorf("missed = %q", s)
	}
}

// TestScheduledRun: a schedule run's status follows its session: a run
// that was waiting on you and then succeeded reads caught up when it
// covered missed slots; missed slots read missed.
func TestScheduledRun(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	mkSession(t, j, "ses_s")
	s, err := j.AddSchedule(ctx, Schedule{Coworker: "demo", Prompt: "p", Every: time.Hour, CatchUp: true})
	if err != nil {
		t.Fatal(err)
	}
	r, _, err := j.ClaimSlot(ctx, s.ID, s.CreatedAt.Add(5*time.Hour), 5, "claimed")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := j.ScheduledRun(ctx, r); got.State != RunRunning {
		t.Fatalf("claimed = %+v", got)
	}
	r.SessionID, r.Status = "ses_s", "waiting on you"
	if err := j.SetScheduleRun(ctx, r.ID, r.SessionID, r.Status); err != nil {
		t.Fatal(err)
	}
	if err := j.FinishTurn(ctx, "ses_s-t1", TurnCompleted, "", 1, 0); err != nil {
		t.Fatal(err)
	}
	if got, err := j.ScheduledRun(ctx, r); err != nil || got.String() != "caught up (missed 5)" {
		t.Fatalf("after the run succeeded = %+v, %v", got, err)
	}
	m := ScheduleRun{Status: "missed", Missed: 4}
	if got, _ := j.ScheduledRun(ctx, m); got.String() != "missed (4 slots)" {
		t.Fatalf("missed = %+v", got)
	}
	if got, _ := j.ScheduledRun(ctx, ScheduleRun{Status: "missed", Missed: 1}); got.String() != "missed (1 slot)" {
		t.Fatalf("one missed = %+v", got)
	}
	h := ScheduleRun{Status: "held: the last run is waiting on you — inbox item inb_1", Missed: 1}
	if got, _ := j.ScheduledRun(ctx, h); got.State != RunHeld || got.Missed != 1 || got.String() != h.Status {
		t.Fatalf("held = %+v (%s)", got, got)
	}
	f := ScheduleRun{Status: "failed: coworker \"x\" is not in the folder"}
	if got, _ := j.ScheduledRun(ctx, f); got.State != RunFailed || got.Detail != "coworker \"x\" is not in the folder" {
		t.Fatalf("failed = %+v", got)
	}
}
