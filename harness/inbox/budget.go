package inbox

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/openworker/desktop/harness/journal"
)

// BudgetAsker is the harness.BudgetAsker of an attended run
// (docs/limits.md#budgets): the harness has written the budget item; Ask,
// when set, asks the person at the same time as the item waits for an
// answer from anywhere else (the window, `openworker inbox answer`, the
// stdio protocol). The first answer wins (one compare-and-set); the other
// is dropped. With Ask nil it waits only for answers given to the inbox.
// If ctx ends first the item is withdrawn.
type BudgetAsker struct {
	Inbox *Inbox
	// Ask asks the person and returns "continue" or "stop"; an error or
	// another answer withdraws the item (the run stops at budget).
	Ask     func(ctx context.Context, it journal.InboxItem) (string, error)
	AskedBy string // who Ask's answers are from: "terminal", "window", ...
}

// AskBudget implements harness.BudgetAsker: it returns the item once it
// is closed.
func (a *BudgetAsker) AskBudget(ctx context.Context, it journal.InboxItem) (journal.InboxItem, error) {
	if a.Ask == nil {
		return a.Inbox.Wait(ctx, it.ID)
	}
	askCtx, stopAsking := context.WithCancel(ctx)
	defer stopAsking()
	type reply struct {
		answer string
		err    error
	}
	answered := make(chan reply, 1)
	go func() {
		s, err := a.Ask(askCtx, it)
		answered <- reply{s, err}
	}()
	watchCtx, stopWatching := context.WithCancel(ctx)
	defer stopWatching()
	watched := make(chan journal.InboxItem, 1)
	go func() {
		if got, err := a.Inbox.Watch(watchCtx, it.ID); err == nil {
			watched <- got
		}
	}()
	select {
	case got := <-watched: // answered elsewhere
		return got, nil
	case <-ctx.Done():
		return a.Inbox.Wait(ctx, it.ID) // withdraws it, unless an answer came first
	case r := <-answered:
		stopWatching()
		bg := context.WithoutCancel(ctx)
		if r.err != nil || (r.answer != "continue" && r.answer != "stop") {
			return a.Inbox.Withdraw(bg, it.ID, journal.InboxCancelled, "could not ask: "+errText(r.err))
		}
		raw, _ := json.Marshal(r.answer)
		got, err := a.Inbox.Answer(bg, it.ID, raw, a.AskedBy)
		var ae *journal.AnsweredError
		if errors.As(err, &ae) {
			return ae.Item, nil // someone else answered first; theirs stands
		}
		return got, err
	}
}
