package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
)

// Budgets (docs/limits.md#budgets). A coworker's limits (manifest front
// matter "limits", zero fields from SessionOptions.Limits) bound the
// tokens of a run, the tokens of the coworker's day and the tool calls of
// a run. The tokens come from the model's reported usage, journaled per
// response (journal.RecordUsage), so they hold across a parked run's
// restart. They are checked before each model request and before the tool
// calls of each reply. When one is reached the run does not fail: a
// budget inbox item asks "continue with N more, or stop?" — attended
// (SessionOptions.Budget set) the turn waits for its answer; unattended
// the turn parks (CodeParked) and Continue takes the answer. "continue"
// raises that limit by the item's More for the rest of the run (or of the
// day, for tokens_per_day); "stop" ends the turn stopped at budget
// (CodeStoppedAtBudget). Nothing runs, not the model nor a tool, while the
// item is open.

// CodeStoppedAtBudget: the person answered "stop" to a budget item, or no
// one answered it (TurnResult.Code, EventTurnFinished.Code).
const CodeStoppedAtBudget = "stopped_at_budget"

// The limits a budget item names (BudgetRequest.Limit).
const (
	LimitTokensPerRun    = "tokens_per_run"
	LimitTokensPerDay    = "tokens_per_day"
	LimitToolCallsPerRun = "tool_calls_per_run"
)

// BudgetRequest is what a budget inbox item asks (its Asked JSON).
type BudgetRequest struct {
	Limit     string `json:"limit"` // LimitTokensPerRun, ...
	Used      int    `json:"used"`  // tokens or tool calls used so far
	Max       int    `json:"max"`   // the limit in force, with earlier "continue"s
	More      int    `json:"more"`  // what "continue" adds: the coworker's limit again
	Coworker  string `json:"coworker"`
	SessionID string `json:"session_id"`
	// Text is the question in words, for a list that shows no more.
	Text string `json:"text"`
}

// BudgetAsker asks the person about a budget item in an attended run: it
// returns the item once it is closed (answered "continue" or "stop" here
// or elsewhere, or withdrawn). inbox.BudgetAsker is one; nil parks. An
// asker whose session runs on its own now (a chat switched to "run on its
// own") returns ErrParkBudget: the run parks as with nil.
type BudgetAsker interface {
	AskBudget(ctx context.Context, it journal.InboxItem) (journal.InboxItem, error)
}

// ErrParkBudget is a BudgetAsker's answer for a run that is not attended
// after all: the run parks on the item, which stays open.
var ErrParkBudget = errors.New("the run parks on its budget item")

// limits is the session's limits in force: the bundle's, zero fields
// from the settings' defaults.
func (s *Session) limits() bundle.Limits {
	return s.res.Bundle.Limits.Or(s.opts.Limits)
}

// recordUsage journals the tokens of one model response; a journal that
// refuses it is a warning, not the turn's end.
func (t *turn) recordUsage(ctx context.Context, resp model.Response) {
	s := t.s
	_, err := s.rt.journal.RecordUsage(ctx, journal.Usage{SessionID: s.id, TurnID: t.id, Coworker: s.Coworker(),
		Model: s.model().Describe(), Attempt: t.attempts, InputTokens: int(max(resp.InputTokens, 0)), OutputTokens: int(max(resp.OutputTokens, 0))})
	if err != nil {
		t.warn(ctx, "usage_not_journaled", "the tokens of a model response could not be journaled, so the budgets do not count them: "+err.Error())
	}
}

// overBudget returns the first limit the run has reached, counting
// calls more tool calls about to run, or nil.
func (t *turn) overBudget(ctx context.Context, calls int) (*BudgetRequest, error) {
	s := t.s
	lim := s.limits()
	if lim.IsZero() {
		return nil, nil
	}
	j := s.rt.journal
	grants, err := t.grants(ctx)
	if err != nil {
		return nil, err
	}
	req := func(limit string, used, configured int) *BudgetRequest {
		return &BudgetRequest{Limit: limit, Used: used, Max: configured + grants[limit], More: configured, Coworker: s.Coworker(), SessionID: s.id}
	}
	if lim.TokensPerRun > 0 || lim.TokensPerDay > 0 {
		run, err := j.RunUsage(ctx, s.id)
		if err != nil {
			return nil, err
		}
		if r := req(LimitTokensPerRun, run.Tokens(), lim.TokensPerRun); lim.TokensPerRun > 0 && r.Used >= r.Max {
			r.Text = fmt.Sprintf("This run of %s used %d tokens; its budget is %d. Continue with %d more tokens, or stop?", s.Coworker(), r.Used, r.Max, r.More)
			return r, nil
		}
		if lim.TokensPerDay > 0 {
			day, err := j.CoworkerDayUsage(ctx, s.Coworker(), time.Now())
			if err != nil {
				return nil, err
			}
			if r := req(LimitTokensPerDay, day.Tokens(), lim.TokensPerDay); r.Used >= r.Max {
				r.Text = fmt.Sprintf("%s used %d tokens today; its daily budget is %d. Continue with %d more tokens today, or stop?", s.Coworker(), r.Used, r.Max, r.More)
				return r, nil
			}
		}
	}
	if lim.ToolCallsPerRun > 0 {
		invs, err := j.Invocations(ctx, s.id)
		if err != nil {
			return nil, err
		}
		if r := req(LimitToolCallsPerRun, len(invs), lim.ToolCallsPerRun); calls > 0 && r.Used+calls > r.Max {
			r.Text = fmt.Sprintf("This run of %s made %d tool calls and asks for %d more; its budget is %d. Continue with %d more tool calls, or stop?", s.Coworker(), r.Used, calls, r.Max, r.More)
			return r, nil
		}
	}
	return nil, nil
}

// grants adds up, per limit, the "continue" answers taken in this run
// (and, for tokens_per_day, those of the coworker's other runs today).
func (t *turn) grants(ctx context.Context) (map[string]int, error) {
	s := t.s
	day := time.Now().UTC().Truncate(24 * time.Hour)
	items, err := s.rt.journal.Inbox(ctx, journal.InboxFilter{Statuses: []journal.InboxStatus{journal.InboxConsumed}, Since: day})
	if err != nil {
		return nil, err
	}
	run, err := s.rt.journal.Inbox(ctx, journal.InboxFilter{Statuses: []journal.InboxStatus{journal.InboxConsumed}, SessionID: s.id})
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	seen := map[string]bool{}
	for _, it := range append(run, items...) {
		var r BudgetRequest
		if seen[it.ID] || it.Kind != journal.InboxBudget || BudgetAnswer(it) != "continue" || json.Unmarshal(it.Asked, &r) != nil {
			continue
		}
		seen[it.ID] = true
		switch {
		case r.Limit == LimitTokensPerDay && it.Coworker == s.Coworker() && !it.CreatedAt.Before(day):
			out[r.Limit] += r.More
		case r.Limit != LimitTokensPerDay && it.SessionID == s.id:
			out[r.Limit] += r.More
		}
	}
	return out, nil
}

// BudgetAnswer is a budget item's answer, "continue" or "stop"; "" when
// it has none.
func BudgetAnswer(it journal.InboxItem) string {
	var a string
	if it.Kind != journal.InboxBudget || json.Unmarshal(it.Answer, &a) != nil || (a != "continue" && a != "stop") {
		return ""
	}
	return a
}

// checkBudget runs before each model request (calls 0) and before the
// tool calls of a reply: within budget it returns true; else it asks
// (attended) or parks (unattended) and returns whether the turn goes on.
// When it does not, t.stop says why.
func (t *turn) checkBudget(ctx context.Context, calls int) bool {
	if t.stop != "" {
		return false
	}
	r, err := t.overBudget(ctx, calls)
	if err != nil {
		t.stop, t.code = "the budgets could not be read from the journal, so the turn stopped: "+err.Error(), CodeJournalFailed
		return false
	}
	if r == nil {
		return true
	}
	s := t.s
	asked, _ := json.Marshal(r)
	it, err := s.rt.journal.AddInboxItem(ctx, journal.InboxItem{Kind: journal.InboxBudget, Coworker: r.Coworker, SessionID: s.id, TurnID: t.id, Asked: asked})
	if err != nil {
		t.stop, t.code = "the run reached its budget and the question could not be put in the inbox: "+err.Error(), CodeJournalFailed
		return false
	}
	t.sink.emit(Event{Type: EventWarning, SessionID: s.id, TurnID: t.id, Status: "budget", Code: "budget", Text: r.Text + " (inbox item " + it.ID + ")"})
	var closed journal.InboxItem
	if s.opts.Budget != nil {
		closed, err = s.opts.Budget.AskBudget(ctx, it)
	}
	if s.opts.Budget == nil || errors.Is(err, ErrParkBudget) {
		s.mu.Lock()
		s.budgetItem = it.ID
		s.mu.Unlock()
		t.stop, t.code = fmt.Sprintf("waiting on you: the run reached its %s budget (%d of %d); inbox item %s asks whether to continue", r.Limit, r.Used, r.Max, it.ID), CodeParked
		return false
	}
	if err != nil && BudgetAnswer(closed) == "" {
		t.stop, t.code = fmt.Sprintf("stopped at budget: %s (%d of %d); no answer: %v", r.Limit, r.Used, r.Max, err), CodeStoppedAtBudget
		return false
	}
	return t.takeBudget(ctx, closed, r)
}

// takeBudget consumes an answered budget item: "continue" goes on (the
// grant counts from now on), anything else stops the turn at budget.
func (t *turn) takeBudget(ctx context.Context, it journal.InboxItem, r *BudgetRequest) bool {
	a := BudgetAnswer(it)
	if it.Status == journal.InboxAnswered {
		if _, err := t.s.rt.journal.ConsumeInboxItem(context.WithoutCancel(ctx), it.ID); err != nil {
			t.stop, t.code = fmt.Sprintf("the answer to budget item %s could not be taken: %v", it.ID, err), CodeJournalFailed
			return false
		}
	}
	if a == "continue" {
		return true
	}
	why := "you answered stop"
	if a == "" {
		why = fmt.Sprintf("item %s was %s without an answer", it.ID, it.Status)
	}
	t.stop, t.code = fmt.Sprintf("stopped at budget: %s (%d of %d); %s", r.Limit, r.Used, r.Max, why), CodeStoppedAtBudget
	return false
}

// settleBudget takes the answer of the budget item a parked run waits on
// (Continue): it returns whether the turn goes on.
func (t *turn) settleBudget(ctx context.Context) bool {
	s := t.s
	s.mu.Lock()
	id := s.budgetItem
	s.budgetItem = ""
	s.mu.Unlock()
	if id == "" {
		return true
	}
	it, err := s.rt.journal.InboxItem(ctx, id)
	if err != nil {
		t.stop, t.code = fmt.Sprintf("budget item %s could not be read: %v", id, err), CodeJournalFailed
		return false
	}
	var r BudgetRequest
	_ = json.Unmarshal(it.Asked, &r)
	return t.takeBudget(ctx, it, &r)
}

// parkedBudget returns the budget item a session being resumed waits on
// (open, or answered and not yet taken), or "".
func (rt *Runtime) parkedBudget(ctx context.Context, sessionID string) (string, error) {
	items, err := rt.journal.Inbox(ctx, journal.InboxFilter{SessionID: sessionID,
		Statuses: []journal.InboxStatus{journal.InboxOpen, journal.InboxAnswered}})
	if err != nil {
		return "", err
	}
	for _, it := range items {
		if it.Kind == journal.InboxBudget {
			return it.ID, nil
		}
	}
	return "", nil
}
