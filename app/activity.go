package app

import (
	"errors"

	"github.com/openworker/desktop/harness/journal"
)

// sessionListLimit bounds the Activity list.
const sessionListLimit = 200

var errNoJournal = errors.New("the journal is not open; see the message at the top of the window")

// Sessions lists journaled sessions, newest first, at most 200.
func (a *App) Sessions() ([]journal.Session, error) {
	j, err := a.openJournal()
	if err != nil {
		return nil, err
	}
	return j.Sessions(a.base, sessionListLimit)
}

// SessionDetail returns everything journaled about one session: turns,
// messages, approvals, invocations with their status, warnings.
func (a *App) SessionDetail(sessionID string) (journal.SessionDetail, error) {
	j, err := a.openJournal()
	if err != nil {
		return journal.SessionDetail{}, err
	}
	return j.Detail(a.base, sessionID)
}

// Reconcile records what really happened to an invocation whose status is
// "unknown" (docs/journal.md): outcome "applied" or "not_applied". It never re-runs
// the call. It returns the updated invocation.
func (a *App) Reconcile(invocationID, outcome string) (journal.Invocation, error) {
	j, err := a.openJournal()
	if err != nil {
		return journal.Invocation{}, err
	}
	if err := j.Reconcile(a.base, invocationID, journal.Effect(outcome)); err != nil {
		return journal.Invocation{}, err
	}
	return j.Invocation(a.base, invocationID)
}

func (a *App) openJournal() (*journal.Journal, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.journal == nil {
		return nil, errNoJournal
	}
	return a.journal, nil
}
