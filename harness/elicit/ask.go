package elicit

import (
	"context"
	"errors"
	"fmt"
)

// Source says who closed a question; the spellings are the journal's
// (journal.ElicitBy*).
type Source string

// The sources Ask returns.
const (
	ByPerson    Source = "person"      // the person answered (or the host failed: see the reason)
	ByBound     Source = "bound"       // unanswered when the call's bound less Margin came: declined
	ByNoOne     Source = "no_elicitor" // the Elicitor had no one to ask (ErrNoPerson): declined
	ByCancelled Source = "cancelled"   // the call ended first: cancelled
)

// Ask asks el the question q until an answer passes q.Check, is not an
// accept, or time runs out, and returns the answer to send, who closed
// the question and why (when it was not the person's own answer). The
// question is open until ctx's deadline (the call's bound) less Margin,
// which Ask sets as q.Deadline; ctx without a deadline has no bound of
// its own. An accept that fails Check is asked again with q.Problem and
// q.Previous set (docs/mcp.md#elicitation). It never sends anything
// itself.
func Ask(ctx context.Context, el Elicitor, q Question) (Answer, Source, string) {
	decline := Answer{Action: Decline}
	qctx := ctx
	if d, ok := ctx.Deadline(); ok {
		q.Deadline = d.Add(-Margin)
		var cancel context.CancelFunc
		qctx, cancel = context.WithDeadline(ctx, q.Deadline)
		defer cancel()
	}
	for {
		ans, err := el.Elicit(qctx, q)
		switch {
		case qctx.Err() != nil && ctx.Err() == nil:
			return decline, ByBound, "unanswered before the call's time bound; declined (the bound is not extended)"
		case ctx.Err() != nil && errors.Is(context.Cause(ctx), ErrCompleted):
			return Answer{Action: Cancel}, ByCompleted, "the server said the interaction is complete before you chose"
		case ctx.Err() != nil:
			return Answer{Action: Cancel}, ByCancelled, "the call ended while the question was open"
		case errors.Is(err, ErrNoPerson):
			return decline, ByNoOne, err.Error()
		case err != nil:
			return decline, ByPerson, "the host failed to ask: " + err.Error()
		case !ans.Action.Valid():
			return decline, ByPerson, fmt.Sprintf("the host answered %q, not accept, decline or cancel", ans.Action)
		case ans.Action != Accept:
			return Answer{Action: ans.Action}, ByPerson, ""
		}
		if q.Mode == ModeURL {
			ans.Content = nil // accept means "I open it"; nothing is sent
		} else if ans.Content == nil {
			ans.Content = map[string]any{}
		}
		if cerr := q.Check(ans.Content); cerr != nil {
			q.Problem, q.Previous = cerr.Error(), ans.Content
			continue
		}
		return ans, ByPerson, ""
	}
}
