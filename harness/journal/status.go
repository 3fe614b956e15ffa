package journal

import "fmt"

// The journal's status vocabularies, each defined once here as a named
// string type. The values are what the database stores and what JSON
// carries (the types marshal as plain strings); the CHECK constraints of
// the schema (migrations.go) allow exactly these.

// SessionStatus is the status of a Session:
//
//	"open"    it takes turns (CreateSession; ReopenSession moves a closed or
//	          failed session back to open)
//	"closed"  the person closed it (FinishSession)
//	"failed"  it was closed after a failure, Session.Error says which
//	          (FinishSession)
//
// "interrupted" (SessionInterrupted) is never stored: lists show it for an
// open session whose process is gone (Session.Interrupted).
type SessionStatus string

// Session statuses.
const (
	SessionOpen   SessionStatus = "open"
	SessionClosed SessionStatus = "closed"
	SessionFailed SessionStatus = "failed"
	// SessionInterrupted is how lists (journal list, the app's Activity
	// screen) show an open session that is Interrupted. Not stored.
	SessionInterrupted SessionStatus = "interrupted"
)

// TurnStatus is the status of a Turn: "running" from StartTurn, then one
// of the final statuses FinishTurn records:
//
//	"running"    the turn is under way (or its process died: Open and
//	             Recover turn it into failed with RecoveredTurnReason)
//	"completed"  the model answered without asking for another tool call
//	"stopped"    a limit, the budget or a failed call stopped it
//	"failed"     the model provider failed, or the process stopped during
//	             the turn
//	"cancelled"  the person cancelled it
type TurnStatus string

// Turn statuses.
const (
	TurnRunning   TurnStatus = "running"
	TurnCompleted TurnStatus = "completed"
	TurnStopped   TurnStatus = "stopped"
	TurnFailed    TurnStatus = "failed"
	TurnCancelled TurnStatus = "cancelled"
)

// InvocationStatus is the status of an Invocation (docs/journal.md):
//
//	"prepared"   selected, validated, consented to and within budget; no I/O yet
//	"executing"  committed durably just before the one provider call
//	"succeeded"  the call returned a result
//	"failed"     the tool reported an error, or a read-only call did not
//	             complete (timeout, limit, crash)
//	"unknown"    a write call did not complete, or its process died while it
//	             was executing: it may have taken effect, only a person can
//	             say (ReconcileAs); the status stays unknown after that
//	"refused"    stopped before any I/O (not selected, bad arguments, denied,
//	             over budget, descriptor missing)
type InvocationStatus string

// Invocation statuses.
const (
	InvPrepared  InvocationStatus = "prepared"
	InvExecuting InvocationStatus = "executing"
	InvSucceeded InvocationStatus = "succeeded"
	InvFailed    InvocationStatus = "failed"
	InvUnknown   InvocationStatus = "unknown"
	InvRefused   InvocationStatus = "refused"
)

// InvocationStatuses lists every InvocationStatus in the order of the
// lifecycle above (the window mirrors it: app's TestVocabulariesMirroredInTypeScript).
func InvocationStatuses() []InvocationStatus {
	return []InvocationStatus{InvPrepared, InvExecuting, InvSucceeded, InvFailed, InvUnknown, InvRefused}
}

// Effect says whether an invocation's side effect happened
// (Invocation.Effect), and is also what a person records when reconciling
// an unknown invocation (Invocation.Reconciled, an outcome):
//
//	""             not stated (a failed call whose tool did not say; an
//	               invocation not finished yet); for Reconciled: not
//	               reconciled
//	"applied"      it took effect (a succeeded call; or reconciled so)
//	"not_applied"  it certainly did not (a refused call; or reconciled so)
//	"unknown"      it may have (an unknown call before reconciliation);
//	               never an outcome
//
// The outcome "not_applied" used to be spelled "not-applied": rows
// reconciled before schema version 8 store that spelling, which the
// journal reads as "not_applied" (see ParseOutcome).
type Effect string

// Effects.
const (
	EffectApplied    Effect = "applied"
	EffectNotApplied Effect = "not_applied"
	EffectUnknown    Effect = "unknown"
)

// Reconcile outcomes: the two Effects a person may record for an unknown
// invocation.
const (
	OutcomeApplied    = EffectApplied
	OutcomeNotApplied = EffectNotApplied
)

// legacyNotApplied is the spelling of OutcomeNotApplied before schema
// version 8, still in the reconciled column of rows written then (the
// hash chain covers them, so they are read as OutcomeNotApplied rather
// than rewritten) and still accepted as input.
const legacyNotApplied Effect = "not-applied"

// ParseOutcome reads a reconcile outcome as a person or a caller gives it:
// "applied", "not_applied", or the older spelling "not-applied" (which
// becomes "not_applied"). Anything else is an error naming the two
// outcomes.
func ParseOutcome(s string) (Effect, error) {
	switch e := Effect(s).normalize(); e {
	case OutcomeApplied, OutcomeNotApplied:
		return e, nil
	}
	return "", fmt.Errorf("outcome %q; want %q or %q", s, OutcomeApplied, OutcomeNotApplied)
}

// normalize maps the legacy spelling "not-applied" to EffectNotApplied and
// returns any other value unchanged.
func (e Effect) normalize() Effect {
	if e == legacyNotApplied {
		return EffectNotApplied
	}
	return e
}
