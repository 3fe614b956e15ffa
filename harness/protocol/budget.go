package protocol

import (
	"context"

	"github.com/openworker/desktop/harness/inbox"
	"github.com/openworker/desktop/harness/journal"
)

// EventInboxItem is the type of InboxItemEvent.
const EventInboxItem = "inbox.item"

// InboxItemEvent is sent when a run waits on an inbox item that no other
// event announces (a budget pause, docs/stdio-protocol.md#inbox): answer
// it with inbox.answer and the item's ID.
type InboxItemEvent struct {
	Type string            `json:"type"` // "inbox.item"
	Item journal.InboxItem `json:"item"`
}

// AskBudget implements harness.BudgetAsker: it announces the budget item
// with an inbox.item event and waits for its answer (inbox.answer, or any
// other process on the journal).
func (srv *Server) AskBudget(ctx context.Context, it journal.InboxItem) (journal.InboxItem, error) {
	srv.write(EventLine{Event: InboxItemEvent{Type: EventInboxItem, Item: it}})
	return (&inbox.BudgetAsker{Inbox: srv.box()}).AskBudget(ctx, it)
}
