package harness

import (
	"context"
	"fmt"
	"time"

	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
)

// BenchCaller returns a function that makes one tool call through the
// harness call path (selection, validation, budget, consent, the durable
// executing row, the call under limits, the terminal row) in a journaled
// turn of s, without a model round trip. For bench_test.go only.
func BenchCaller(ctx context.Context, s *Session) (func(alias, args string) model.Message, error) {
	call, err := ToolCaller(ctx, s)
	if err != nil {
		return nil, err
	}
	return func(alias, args string) model.Message {
		msg, stop := call(alias, args)
		if stop != "" {
			panic("benchmark call stopped the turn: " + stop)
		}
		return msg
	}, nil
}

// ToolCaller is BenchCaller returning, with each call's tool message, the
// reason it stopped the turn ("" if it did not).
func ToolCaller(ctx context.Context, s *Session) (func(alias, args string) (msg model.Message, stop string), error) {
	t, err := journaledTurn(ctx, s, "benchmark")
	if err != nil {
		return nil, err
	}
	n := 0
	return func(alias, args string) (model.Message, string) {
		n++
		t.proposed, t.calls, t.stop = 0, 0, ""
		msg := t.call(ctx, model.ToolCall{ID: fmt.Sprintf("call_%d", n), Name: alias, Arguments: args}, 0)
		return msg, t.stop
	}, nil
}

// SetModelContextBudget replaces the 50 ms ModelContext budget until the
// returned function restores it.
func SetModelContextBudget(d time.Duration) (restore func()) {
	old := modelContextBudget
	modelContextBudget = d
	return func() { modelContextBudget = old }
}

// FactsOf starts a journaled turn of s and returns a function that
// collects its model_context facts (what each provider attempt does),
// without a model round trip. For hooks_test.go only.
func FactsOf(ctx context.Context, s *Session) (func(ctx context.Context) string, error) {
	t, err := journaledTurn(ctx, s, "facts")
	if err != nil {
		return nil, err
	}
	return t.facts, nil
}

// journaledTurn starts a journaled turn of s without a model round trip.
func journaledTurn(ctx context.Context, s *Session, prompt string) (*turn, error) {
	t := &turn{s: s, id: journal.NewID("turn_")}
	s.mu.Lock()
	s.seq++
	seq := s.seq
	s.mu.Unlock()
	if err := s.rt.journal.StartTurn(ctx, journal.Turn{ID: t.id, SessionID: s.id, Seq: seq, Prompt: prompt}); err != nil {
		return nil, err
	}
	return t, nil
}
