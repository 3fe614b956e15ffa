package app

import (
	"context"
	"errors"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/inbox"
	"github.com/openworker/desktop/harness/journal"
)

// chatBudget is the harness.BudgetAsker of the app's chats
// (docs/app.md#limits): a chat the person watches waits at its budget
// for the answer of its budget item (the Inbox screen, a notification
// when the window is not focused, `openworker inbox answer`); a chat that
// runs on its own parks on it, as scheduled runs do.
type chatBudget struct {
	prompter *modalPrompter
}

// AskBudget implements harness.BudgetAsker.
func (c chatBudget) AskBudget(ctx context.Context, it journal.InboxItem) (journal.InboxItem, error) {
	if c.prompter.isUnattended(it.SessionID) {
		return it, harness.ErrParkBudget
	}
	b, err := c.prompter.inbox()
	if err != nil {
		return it, errors.Join(harness.ErrParkBudget, err) // no inbox to wait on: park
	}
	return (&inbox.BudgetAsker{Inbox: b}).AskBudget(ctx, it)
}
