package app

import (
	"errors"

	"github.com/openworker/desktop/harness"

	"github.com/openworker/desktop/harness/journal"
)

// Activity is the Activity screen: the journaled sessions and their
// detail, what needs attention and its reconciliation, and the
// diagnostics (doctor.go) Settings copies. It has no state of its own:
// everything is read from the journal and the runtime.
type Activity struct {
	*env
	engine   *engine
	settings *settingsStore
	servers  *serversFile
}

// activityPageSize is how many sessions one page of Activity holds.
const activityPageSize = 100

// Sessions lists the newest journaled sessions, at most 100: the first
// page of SessionPage.
func (a *Activity) Sessions() ([]journal.Session, error) {
	p, err := a.SessionPage("", false)
	return p.Sessions, err
}

// SessionPage returns one page of Activity: up to 100 sessions, newest
// first, after the page whose Next is before ("" for the first page);
// with needsAttention, only sessions with calls waiting for
// reconciliation. Paging is stable while new sessions are written
// (docs/journal.md#pages).
func (a *Activity) SessionPage(before string, needsAttention bool) (journal.SessionPage, error) {
	j, err := a.engine.openJournal()
	if err != nil {
		return journal.SessionPage{}, err
	}
	p, err := j.SessionPage(a.base, journal.SessionQuery{Limit: activityPageSize, Before: before, NeedsAttention: needsAttention})
	return p, j.Explain(err)
}

// Waiting is what the Activity's "Needs attention" filter counts.
type Waiting struct {
	Sessions int `json:"sessions"` // sessions with calls waiting for reconciliation
	Calls    int `json:"calls"`    // those calls
}

// NeedsAttention counts the calls waiting for reconciliation and their
// sessions (journal.Journal.Waiting).
func (a *Activity) NeedsAttention() (Waiting, error) {
	j, err := a.engine.openJournal()
	if err != nil {
		return Waiting{}, err
	}
	s, c, err := j.Waiting(a.base)
	return Waiting{Sessions: s, Calls: c}, err
}

// SessionDetail returns everything journaled about one session: turns,
// messages, approvals, invocations with their status, warnings.
func (a *Activity) SessionDetail(sessionID string) (journal.SessionDetail, error) {
	j, err := a.engine.openJournal()
	if err != nil {
		return journal.SessionDetail{}, err
	}
	d, err := j.Detail(a.base, sessionID)
	return d, j.Explain(err)
}

// Reconcile records what really happened to an invocation whose status is
// "unknown" (docs/journal.md): outcome "applied" or "not_applied". It never re-runs
// the call. It returns the updated invocation.
func (a *Activity) Reconcile(invocationID, outcome string) (journal.Invocation, error) {
	j, err := a.engine.openJournal()
	if err != nil {
		return journal.Invocation{}, err
	}
	if err := j.Reconcile(a.base, invocationID, journal.Effect(outcome)); err != nil {
		return journal.Invocation{}, err
	}
	return j.Invocation(a.base, invocationID)
}

// AskAgent records what the A2A agent of an unknown invocation says its
// task became (docs/a2a.md#durable-handles): one tasks/get of the task
// ID journaled with the call (nothing is ever sent again), then applied
// (with its artifacts) or not_applied. A task still running, or one the
// agent no longer knows, stays unknown: the error says so, and the person
// records the outcome with Reconcile. It returns the invocation.
func (a *Activity) AskAgent(invocationID string) (journal.Invocation, error) {
	j, err := a.engine.openJournal()
	if err != nil {
		return journal.Invocation{}, err
	}
	rt := a.engine.runtime()
	if rt == nil {
		return journal.Invocation{}, errors.New("the agent cannot be asked: OpenWorker's runtime did not start (see Settings)")
	}
	// The newest registry generation holds the agents of the servers file.
	if _, err := harness.PollInvocation(a.base, j, rt.Registry(), invocationID); err != nil {
		return journal.Invocation{}, err
	}
	return j.Invocation(a.base, invocationID)
}
