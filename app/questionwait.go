package app

import (
	"context"
	"time"

	"github.com/openworker/desktop/harness/elicit"
)

// questionWait bounds a server's question in an unattended run of the app
// (a schedule's run, a chat that runs on its own, a parked run continued)
// by the Settings value (Settings.QuestionWaitSeconds, default 60 s;
// docs/inbox.md#missed-questions): the question still shows in the window
// and the Inbox, and unanswered by then it is declined and its item stays
// as expired, a missed question. Attended chats wait as long as the call
// allows, as before.
type questionWait struct {
	inner      elicit.Elicitor
	unattended func(sessionID string) bool // nil: every session
	wait       func() time.Duration
}

// Elicit implements elicit.Elicitor.
func (w *questionWait) Elicit(ctx context.Context, q elicit.Question) (elicit.Answer, error) {
	if w.unattended == nil || w.unattended(q.SessionID) {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, w.wait())
		defer cancel()
		if dl, _ := ctx.Deadline(); q.Deadline.IsZero() || dl.Before(q.Deadline) {
			q.Deadline = dl // the item says when it is declined
		}
	}
	return w.inner.Elicit(ctx, q)
}
