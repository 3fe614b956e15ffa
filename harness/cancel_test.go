package harness_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

func (e *env) turnStatuses(sessionID string) []string {
	e.t.Helper()
	turns, err := e.rt.Journal().Turns(context.Background(), sessionID)
	if err != nil {
		e.t.Fatal(err)
	}
	var out []string
	for _, t := range turns {
		out = append(out, string(t.Status))
	}
	return out
}

// Session.Cancel during a streaming reply stops the provider stream at once:
// the reply would take 73 s (367 chunks 200 ms apart), so a Send that
// returns cancelled within hangGuard did not wait for it.
func TestCancelDuringModelStream(t *testing.T) {
	echo := &testTool{name: "test.echo", risk: tool.ReadOnly}
	e := newEnv(t, envOpts{
		tools: []tool.Tool{echo}, selected: []string{"test.echo"},
		replies: []modeltest.Reply{{Text: strings.Repeat("slow words ", 100), Delay: 200 * time.Millisecond}},
	})
	s := e.open()
	var res *harness.TurnResult
	var err error
	within(t, hangGuard, "Send cancelled at its first text", func() {
		cancelled := false
		res, err = s.Send(context.Background(), "talk", func(ev harness.Event) {
			if ev.Type == harness.EventText && !cancelled {
				cancelled = true
				go s.Cancel()
			}
		})
	})
	if err != nil || res.Status != harness.TurnCancelled {
		t.Fatalf("Send = %+v, %v; want cancelled", res, err)
	}
	if got := e.turnStatuses(s.ID()); len(got) != 1 || got[0] != "cancelled" {
		t.Fatalf("journaled turns = %v; want [cancelled]", got)
	}
}

// Session.Cancel during a running call: the tool sees its context end, the
// write ends unknown and the read-only call failed, the turn is journaled
// cancelled, and session grants are revoked (the next call asks again).
func TestCancelDuringToolCall(t *testing.T) {
	for _, risk := range []tool.Risk{tool.NonIdempotentWrite, tool.ReadOnly} {
		t.Run(string(risk), func(t *testing.T) {
			started := make(chan struct{}, 4)
			var block bool
			slow := &testTool{name: "test.slow", risk: risk}
			slow.fn = func(ctx context.Context, _ *tool.Call, _ json.RawMessage) (tool.Output, error) {
				if !block {
					return tool.Output{Text: "quick"}, nil
				}
				started <- struct{}{}
				<-ctx.Done()
				return tool.Output{}, ctx.Err()
			}
			p := &fixedPrompter{d: consent.AllowSession}
			c := func(id string) modeltest.Reply {
				return modeltest.Reply{ToolCalls: []model.ToolCall{call(id, "test__slow", `{}`)}}
			}
			e := newEnv(t, envOpts{
				tools: []tool.Tool{slow}, selected: []string{"test.slow"}, mode: consent.Ask, prompter: p,
				replies: []modeltest.Reply{c("a"), {Text: "one"}, c("b"), c("c"), {Text: "three"}},
			})
			s := e.open()
			if res, err := s.Send(context.Background(), "one", nil); err != nil || res.Status != harness.TurnCompleted || p.count.Load() != 1 {
				t.Fatalf("turn 1 = %+v, %v, prompts %d", res, err, p.count.Load())
			}
			block = true
			go func() {
				<-started
				s.Cancel()
			}()
			// The tool returns only when its context ends: without the
			// cancel that is CallTimeout, 75 s, far past hangGuard.
			var res *harness.TurnResult
			var err error
			within(t, hangGuard, "Send cancelled during the call", func() { res, err = s.Send(context.Background(), "two", nil) })
			if err != nil || res.Status != harness.TurnCancelled {
				t.Fatalf("turn 2 = %+v, %v; want cancelled", res, err)
			}
			if p.count.Load() != 1 {
				t.Fatalf("turn 2 prompted (%d prompts); the session grant should have held until the cancel", p.count.Load())
			}
			invs := e.invocations(s.ID())
			want := harness.StatusUnknown
			if risk == tool.ReadOnly {
				want = harness.StatusFailed
			}
			if last := invs[len(invs)-1]; last.Status != want || last.ErrorCode != "cancelled" {
				t.Fatalf("cancelled invocation = %s/%s; want %s/cancelled", last.Status, last.ErrorCode, want)
			}
			block = false
			if res, err := s.Send(context.Background(), "three", nil); err != nil || res.Status != harness.TurnCompleted {
				t.Fatalf("turn 3 = %+v, %v", res, err)
			}
			if p.count.Load() != 2 {
				t.Fatalf("prompts = %d after the cancel; want the revoked grant to ask again", p.count.Load())
			}
			if got := strings.Join(e.turnStatuses(s.ID()), ","); got != "completed,cancelled,completed" {
				t.Fatalf("journaled turns = %s", got)
			}
			if slow.calls.Load() != 3 {
				t.Fatalf("tool ran %d times, want 3", slow.calls.Load())
			}
		})
	}
}
