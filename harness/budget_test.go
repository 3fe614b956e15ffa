package harness_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/inbox"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// budgetReplies: a tool call whose response reports 1,100 tokens (over a
// budget of 1,000), then another call and a final answer of 100 each.
func budgetReplies() []modeltest.Reply {
	return []modeltest.Reply{
		{ToolCalls: []model.ToolCall{call("c1", "notes__append", `{"text":"one"}`)}, InputTokens: 900, OutputTokens: 200},
		{ToolCalls: []model.ToolCall{call("c2", "notes__append", `{"text":"two"}`)}, InputTokens: 60, OutputTokens: 40},
		{Text: "Done.", InputTokens: 70, OutputTokens: 30},
	}
}

// TestBudgetParksUnattended: a run whose model reports more tokens than
// tokens_per_run parks on a budget inbox item before the tool calls of
// that reply and before the next model request; nothing runs while the
// item is open, across a close and resume; answered "continue", the run
// goes on with 1,000 more tokens and ends succeeded. The tokens of each
// response are journaled as reported (OpenAI, streamed).
func TestBudgetParksUnattended(t *testing.T) {
	notes := &testTool{name: "notes.append", risk: tool.NonIdempotentWrite}
	e := newEnv(t, envOpts{tools: []tool.Tool{notes}, selected: []string{"notes.append"}, mode: consent.Bypass, replies: budgetReplies()})
	ctx := context.Background()
	j := e.rt.Journal()
	e.so.Limits = bundle.Limits{TokensPerRun: 1000} // the settings' default; the manifest sets none
	s, res, err := e.send("Note twice.")
	if err != nil || res.Status != harness.TurnStopped || res.Code != harness.CodeParked || !strings.Contains(res.Reason, "tokens_per_run") {
		t.Fatalf("Send = %+v, %v; want stopped, waiting on you at the budget", res, err)
	}
	if n, calls := len(e.model.Requests()), notes.calls.Load(); n != 1 || calls != 0 {
		t.Fatalf("%d model requests, %d tool calls; want 1 and 0 (parked before the call)", n, calls)
	}
	items, _ := j.Inbox(ctx, journal.InboxFilter{SessionID: s.ID()})
	if len(items) != 1 || items[0].Kind != journal.InboxBudget {
		t.Fatalf("inbox = %+v; want one budget item", items)
	}
	var asked harness.BudgetRequest
	if err := json.Unmarshal(items[0].Asked, &asked); err != nil || asked.Limit != harness.LimitTokensPerRun ||
		asked.Used != 1100 || asked.Max != 1000 || asked.More != 1000 || asked.Coworker != "tester" {
		t.Fatalf("asked = %+v, %v", asked, err)
	}
	if u, _ := j.RunUsage(ctx, s.ID()); u != (journal.UsageTotal{InputTokens: 900, OutputTokens: 200, Responses: 1}) {
		t.Fatalf("RunUsage = %+v", u)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	rs, err := e.rt.ResumeSession(ctx, s.ID(), e.so)
	if err != nil {
		t.Fatal(err)
	}
	if got := rs.Pending(); len(got) != 1 || got[0] != items[0].ID {
		t.Fatalf("Pending = %v; want the budget item", got)
	}
	var we *harness.WaitingError
	if _, err := rs.Continue(ctx, e.sink); !errors.As(err, &we) {
		t.Fatalf("Continue while open = %v; want a WaitingError", err)
	}
	if n, calls := len(e.model.Requests()), notes.calls.Load(); n != 1 || calls != 0 {
		t.Fatalf("%d model requests, %d tool calls while the item is open; want 1 and 0", n, calls)
	}
	if _, err := inbox.New(j, nil).Answer(ctx, items[0].ID, json.RawMessage(`"continue"`), "test"); err != nil {
		t.Fatal(err)
	}
	res, err = rs.Continue(ctx, e.sink)
	if err != nil || res.Status != harness.TurnCompleted || res.Text != "Done." {
		t.Fatalf("Continue = %+v, %v", res, err)
	}
	if n, calls := len(e.model.Requests()), notes.calls.Load(); n != 3 || calls != 1 {
		t.Fatalf("%d model requests, %d tool calls; want 3 and 1 (c1 was answered not run, c2 ran)", n, calls)
	}
	if !strings.Contains(lastText(e.model.Requests()[1].Messages), "not run") {
		t.Errorf("the model was not told c1 did not run: %q", lastText(e.model.Requests()[1].Messages))
	}
	if it, _ := j.InboxItem(ctx, items[0].ID); it.Status != journal.InboxConsumed {
		t.Fatalf("item = %+v; want consumed", it)
	}
	if u, _ := j.RunUsage(ctx, s.ID()); u.Tokens() != 1300 || u.Responses != 3 {
		t.Fatalf("RunUsage = %+v; want 1,300 tokens in 3 responses", u)
	}
}

// TestBudgetAsksAttended: attended, the run asks through the inbox
// (Anthropic usage, streamed): while the person is asked, no tool call and
// no model request happens; "stop" ends the turn stopped at budget, and
// "continue" (another run) goes on to the end.
func TestBudgetAsksAttended(t *testing.T) {
	for _, answer := range []string{"stop", "continue"} {
		t.Run(answer, func(t *testing.T) {
			notes := &testTool{name: "notes.append", risk: tool.NonIdempotentWrite}
			e := newEnv(t, envOpts{tools: []tool.Tool{notes}, selected: []string{"notes.append"}, mode: consent.Bypass,
				replies: budgetReplies(), anthropic: true})
			j := e.rt.Journal()
			e.so.Limits = bundle.Limits{TokensPerRun: 1000}
			var asked atomic.Int32
			e.so.Budget = &inbox.BudgetAsker{Inbox: inbox.New(j, nil), AskedBy: "test", Ask: func(ctx context.Context, it journal.InboxItem) (string, error) {
				asked.Add(1)
				if n, calls := len(e.model.Requests()), notes.calls.Load(); n != 1 || calls != 0 {
					t.Errorf("asked after %d model requests, %d tool calls; want 1 and 0", n, calls)
				}
				if open, _ := j.InboxItem(ctx, it.ID); !open.Open() || open.Kind != journal.InboxBudget {
					t.Errorf("item while asking = %+v; want an open budget item", open)
				}
				return answer, nil
			}}
			s, res, err := e.send("Note twice.")
			if err != nil || asked.Load() != 1 {
				t.Fatalf("Send = %+v, %v; asked %d times", res, err, asked.Load())
			}
			items, _ := j.Inbox(context.Background(), journal.InboxFilter{SessionID: s.ID(), Statuses: []journal.InboxStatus{journal.InboxConsumed}})
			if len(items) != 1 || harness.BudgetAnswer(items[0]) != answer || items[0].AnsweredBy != "test" {
				t.Fatalf("items = %+v; want one consumed budget item answered %q", items, answer)
			}
			switch answer {
			case "stop":
				if res.Status != harness.TurnStopped || res.Code != harness.CodeStoppedAtBudget || !strings.HasPrefix(res.Reason, "stopped at budget") ||
					notes.calls.Load() != 0 || len(e.model.Requests()) != 1 {
					t.Fatalf("Send = %+v; %d calls, %d requests; want stopped at budget with nothing more run", res, notes.calls.Load(), len(e.model.Requests()))
				}
			case "continue":
				if res.Status != harness.TurnCompleted || notes.calls.Load() != 2 || len(e.model.Requests()) != 3 {
					t.Fatalf("Send = %+v; %d calls, %d requests; want completed, 2 calls, 3 requests", res, notes.calls.Load(), len(e.model.Requests()))
				}
			}
		})
	}
}

// TestBudgetToolCalls: tool_calls_per_run from the manifest's default is
// checked before a reply's calls run: a reply asking for more calls than
// are left parks with none of them run.
func TestBudgetToolCalls(t *testing.T) {
	notes := &testTool{name: "notes.append", risk: tool.NonIdempotentWrite}
	e := newEnv(t, envOpts{tools: []tool.Tool{notes}, selected: []string{"notes.append"}, mode: consent.Bypass, replies: []modeltest.Reply{
		{ToolCalls: []model.ToolCall{call("c1", "notes__append", `{"text":"one"}`)}},
		{ToolCalls: []model.ToolCall{call("c2", "notes__append", `{"text":"two"}`), call("c3", "notes__append", `{"text":"three"}`)}},
		{Text: "Done."},
	}})
	e.so.Limits = bundle.Limits{ToolCallsPerRun: 2}
	s, res, err := e.send("Note three times.")
	if err != nil || res.Code != harness.CodeParked || notes.calls.Load() != 1 {
		t.Fatalf("Send = %+v, %v; %d calls; want parked after 1 call", res, err, notes.calls.Load())
	}
	items, _ := e.rt.Journal().Inbox(context.Background(), journal.InboxFilter{SessionID: s.ID()})
	var asked harness.BudgetRequest
	if len(items) != 1 || json.Unmarshal(items[0].Asked, &asked) != nil || asked.Limit != harness.LimitToolCallsPerRun || asked.Used != 1 || asked.Max != 2 {
		t.Fatalf("items = %+v (%+v)", items, asked)
	}
}

// TestBudgetPerDay: tokens_per_day counts every run of the coworker that
// day: a second run parks once the two together reach the limit, before
// its tool call; its item names tokens_per_day.
func TestBudgetPerDay(t *testing.T) {
	notes := &testTool{name: "notes.append", risk: tool.NonIdempotentWrite}
	e := newEnv(t, envOpts{tools: []tool.Tool{notes}, selected: []string{"notes.append"}, mode: consent.Bypass, replies: []modeltest.Reply{
		{Text: "First.", InputTokens: 500, OutputTokens: 100},
		{ToolCalls: []model.ToolCall{call("c1", "notes__append", `{"text":"x"}`)}, InputTokens: 300, OutputTokens: 150},
	}})
	e.so.Limits = bundle.Limits{TokensPerDay: 1000}
	if _, res, err := e.send("One."); err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("first run = %+v, %v", res, err)
	}
	s, res, err := e.send("Two.")
	if err != nil || res.Code != harness.CodeParked || notes.calls.Load() != 0 {
		t.Fatalf("second run = %+v, %v; %d calls; want parked before the call", res, err, notes.calls.Load())
	}
	items, _ := e.rt.Journal().Inbox(context.Background(), journal.InboxFilter{SessionID: s.ID()})
	var asked harness.BudgetRequest
	if len(items) != 1 || json.Unmarshal(items[0].Asked, &asked) != nil || asked.Limit != harness.LimitTokensPerDay || asked.Used != 1050 || asked.Max != 1000 {
		t.Fatalf("items = %+v (%+v)", items, asked)
	}
}
