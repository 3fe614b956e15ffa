package harness_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// A failed turn is retried in the same session: the model sees the prompt
// once, the journal keeps one user message and a second turn with the
// prompt, and a completed turn has nothing to retry.
func TestRetryRunsTheFailedTurnAgainWithThePromptOnce(t *testing.T) {
	e := newEnv(t, envOpts{selected: []string{}, replies: []modeltest.Reply{
		{Err: 401, ErrMessage: "bad key"},
		{Text: "the answer"},
	}})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, res, err := e.send("what is up?")
	if res == nil || res.Status != harness.TurnFailed {
		t.Fatalf("first turn = %+v, %v; want failed", res, err)
	}
	res, err = s.TryRetry(ctx, e.sink)
	if err != nil || res.Status != harness.TurnCompleted || res.Text != "the answer" {
		t.Fatalf("TryRetry = %+v, %v; want completed with the answer", res, err)
	}
	reqs := e.model.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	users := 0
	for _, m := range reqs[1].Messages {
		if m.Role == "user" {
			users++
		}
	}
	if users != 1 {
		t.Fatalf("the retried request has %d user messages, want 1: %+v", users, reqs[1].Messages)
	}
	turns, err := e.rt.Journal().Turns(ctx, s.ID())
	if err != nil || len(turns) != 2 || turns[1].Prompt != "what is up?" || turns[1].Status != harness.TurnCompleted {
		t.Fatalf("journal turns = %+v, %v; want 2, the second completed with the prompt", turns, err)
	}
	n := 0
	for _, m := range e.messages(s.ID()) {
		if m.Role == "user" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("the journal has %d user messages, want 1", n)
	}
	var retried bool
	for _, ev := range e.eventsOf(harness.EventTurnStarted) {
		if ev.TurnID == turns[1].ID && ev.Status == "retry" && ev.Text == "what is up?" {
			retried = true
		}
	}
	if !retried {
		t.Fatalf("no turn.started with status retry for %s: %+v", turns[1].ID, e.eventsOf(harness.EventTurnStarted))
	}
	if _, err := s.TryRetry(ctx, nil); !errors.Is(err, harness.ErrNothingToRetry) {
		t.Fatalf("TryRetry after a completed turn = %v, want ErrNothingToRetry", err)
	}
}

// A session continued after a failed turn can retry it (from the journal).
func TestRetryAfterResume(t *testing.T) {
	e := newEnv(t, envOpts{selected: []string{}, replies: []modeltest.Reply{
		{Err: 401, ErrMessage: "bad key"},
		{Text: "now it works"},
	}})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, res, _ := e.send("try me")
	if res == nil || res.Status != harness.TurnFailed {
		t.Fatalf("first turn = %+v; want failed", res)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	rs, err := e.rt.ResumeSession(ctx, s.ID(), e.so)
	if err != nil {
		t.Fatalf("ResumeSession = %v", err)
	}
	res, err = rs.Retry(ctx, nil)
	if err != nil || res.Status != harness.TurnCompleted || res.Text != "now it works" {
		t.Fatalf("Retry after resume = %+v, %v", res, err)
	}
	if got := len(e.model.Requests()[1].Messages); got != 1 {
		t.Fatalf("the retried request has %d messages, want the one prompt", got)
	}
}

// A fresh session has nothing to retry.
func TestRetryWithNoTurn(t *testing.T) {
	e := newEnv(t, envOpts{selected: []string{}})
	s := e.open()
	if _, err := s.TryRetry(context.Background(), nil); !errors.Is(err, harness.ErrNothingToRetry) {
		t.Fatalf("TryRetry on a new session = %v, want ErrNothingToRetry", err)
	}
}
