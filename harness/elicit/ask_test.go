package elicit

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

type elicitorFunc func(ctx context.Context, q Question) (Answer, error)

func (f elicitorFunc) Elicit(ctx context.Context, q Question) (Answer, error) { return f(ctx, q) }

func nameQuestion(t *testing.T) Question {
	t.Helper()
	f, err := Parse(json.RawMessage(`{"type":"object","required":["name"],"properties":{"name":{"type":"string","minLength":2}}}`))
	if err != nil {
		t.Fatal(err)
	}
	return NewQuestion("eli_t", "Who are you?", f)
}

// An unanswered question is declined at the call's bound less Margin,
// not later: the bound is not extended (synctest's clock, no sleeps).
func TestAskDeclinesAtTheBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 75*time.Second)
		defer cancel()
		var deadline time.Time
		ans, src, why := Ask(ctx, elicitorFunc(func(ctx context.Context, q Question) (Answer, error) {
			deadline = q.Deadline
			<-ctx.Done()
			return Answer{Action: Accept, Content: map[string]any{"name": "late"}}, nil // too late: not taken
		}), nameQuestion(t))
		if ans.Action != Decline || ans.Content != nil || src != ByBound || !strings.Contains(why, "not extended") {
			t.Errorf("Ask = %+v, %s, %q; want a decline by the bound", ans, src, why)
		}
		if got := time.Since(start); got != 75*time.Second-Margin {
			t.Errorf("declined after %v; want %v", got, 75*time.Second-Margin)
		}
		if !deadline.Equal(start.Add(75*time.Second - Margin)) {
			t.Errorf("q.Deadline = %v; want the bound less Margin", deadline.Sub(start))
		}
		if ctx.Err() != nil {
			t.Error("the call's own bound passed while asking")
		}
	})
}

// An answer given just before the deadline is taken.
func TestAskTakesAnAnswerBeforeTheBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		ans, src, _ := Ask(ctx, elicitorFunc(func(ctx context.Context, q Question) (Answer, error) {
			time.Sleep(q.Deadline.Sub(time.Now()) - time.Millisecond) // the fake clock: the person is slow
			return Answer{Action: Accept, Content: map[string]any{"name": "Ada"}}, nil
		}), nameQuestion(t))
		if ans.Action != Accept || ans.Content["name"] != "Ada" || src != ByPerson {
			t.Errorf("Ask = %+v, %s", ans, src)
		}
	})
}

// An invalid accept is asked again with the problem and the previous
// content; a cancelled call cancels; ErrNoPerson and a bad action decline.
func TestAskAgainAndOtherEnds(t *testing.T) {
	var seen []Question
	ans, src, _ := Ask(context.Background(), elicitorFunc(func(ctx context.Context, q Question) (Answer, error) {
		seen = append(seen, q)
		if len(seen) == 1 {
			return Answer{Action: Accept, Content: map[string]any{"name": "A"}}, nil
		}
		return Answer{Action: Accept, Content: map[string]any{"name": "Ada"}}, nil
	}), nameQuestion(t))
	if ans.Content["name"] != "Ada" || src != ByPerson || len(seen) != 2 || !strings.Contains(seen[1].Problem, "name: minLength") || seen[1].Previous["name"] != "A" {
		t.Errorf("Ask = %+v, %s; asked %+v", ans, src, seen)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ans, src, _ = Ask(ctx, elicitorFunc(func(ctx context.Context, q Question) (Answer, error) { cancel(); return Answer{}, ctx.Err() }), nameQuestion(t))
	if ans.Action != Cancel || src != ByCancelled {
		t.Errorf("cancelled call: %+v, %s", ans, src)
	}
	ans, src, _ = Ask(context.Background(), elicitorFunc(func(context.Context, Question) (Answer, error) { return Answer{}, ErrNoPerson }), nameQuestion(t))
	if ans.Action != Decline || src != ByNoOne {
		t.Errorf("no person: %+v, %s", ans, src)
	}
	ans, src, why := Ask(context.Background(), elicitorFunc(func(context.Context, Question) (Answer, error) { return Answer{Action: "maybe"}, nil }), nameQuestion(t))
	if ans.Action != Decline || src != ByPerson || !strings.Contains(why, `"maybe"`) {
		t.Errorf("a bad action: %+v, %s, %q", ans, src, why)
	}
	ans, _, why = Ask(context.Background(), elicitorFunc(func(context.Context, Question) (Answer, error) { return Answer{}, errors.New("window closed") }), nameQuestion(t))
	if ans.Action != Decline || !strings.Contains(why, "window closed") {
		t.Errorf("a failing host: %+v, %q", ans, why)
	}
}
