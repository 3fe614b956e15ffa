package journal

import (
	"context"
	"fmt"
	"strings"
)

// Run statuses (docs/journal.md#run-status): one function says where a
// run is, for `journal show`, `journal list`, `schedule list` and the
// app's Activity and Inbox screens alike, from its turns and its inbox
// items — never from what a process hoped.

// RunState is the kind of a run's status.
type RunState string

// The run states, in the words the person reads.
const (
	RunNotStarted      RunState = "not started"
	RunRunning         RunState = "running"
	RunWaiting         RunState = "waiting on you"              // Detail: with what (open items)
	RunAnswered        RunState = "answered, waiting to resume" // its items answered; not continued yet
	RunSucceeded       RunState = "succeeded"
	RunFailed          RunState = "failed" // Detail: why
	RunStoppedAtBudget RunState = "stopped at budget"
	RunCancelled       RunState = "cancelled"
	RunMissed          RunState = "missed"    // a schedule's slots passed without a run (catch-up off)
	RunCaughtUp        RunState = "caught up" // a scheduled run that covered Missed slots and succeeded
	RunHeld            RunState = "held"      // a schedule's slots passed without a run: its last run waited on you (Detail)
)

// Run is where a run is: its State, and Detail (what it waits on, why
// it failed or stopped) and Missed (slots, for missed and caught up).
type Run struct {
	State  RunState `json:"state"`
	Detail string   `json:"detail,omitempty"`
	Missed int      `json:"missed,omitempty"`
}

// String is the status in words: "waiting on you: inb_… (approval of
// notes.append)", "failed: why", "caught up (missed 5)", "missed (5
// slots)", "stopped at budget: tokens_per_run (1500 of 1000); you
// answered stop", "succeeded", ...
func (r Run) String() string {
	switch {
	case r.State == RunCaughtUp:
		return fmt.Sprintf("caught up (missed %d)", r.Missed)
	case r.State == RunMissed && r.Missed > 0:
		return fmt.Sprintf("missed (%s)", slots(r.Missed))
	case r.Detail != "":
		return string(r.State) + ": " + r.Detail
	}
	return string(r.State)
}

// slots is "1 slot" or "N slots".
func slots(n int) string {
	if n == 1 {
		return "1 slot"
	}
	return fmt.Sprintf("%d slots", n)
}

// RunOf says where the run of a session is, from its turns (oldest
// first) and its inbox items (any status):
//
//   - an open item: waiting on you, with what — whatever the last turn
//     says, so a parked run is never succeeded;
//   - items answered but not taken: answered, waiting to resume;
//   - else the last turn: running; succeeded (completed) — unless an
//     approval it asked was never answered (withdrawn or expired), then
//     failed, saying so; stopped at budget; cancelled; failed with why
//     (a provider failure, a limit of the turn, a failed journal, ...).
func RunOf(turns []Turn, items []InboxItem) Run {
	var open, answered []string
	for _, it := range items {
		switch it.Status {
		case InboxOpen:
			what := string(it.Kind)
			if it.Tool != "" {
				what += " of " + it.Tool
			}
			open = append(open, it.ID+" ("+what+")")
		case InboxAnswered:
			answered = append(answered, it.ID)
		}
	}
	switch {
	case len(open) > 0:
		return Run{State: RunWaiting, Detail: strings.Join(open, ", ")}
	case len(answered) > 0:
		return Run{State: RunAnswered}
	case len(turns) == 0:
		return Run{State: RunNotStarted}
	}
	t := turns[len(turns)-1]
	switch t.Status {
	case TurnRunning:
		return Run{State: RunRunning}
	case TurnCompleted:
		if why := unanswered(t, items); why != "" {
			return Run{State: RunFailed, Detail: why}
		}
		return Run{State: RunSucceeded}
	case TurnCancelled:
		return Run{State: RunCancelled}
	case TurnStopped:
		if rest, ok := strings.CutPrefix(t.Reason, "stopped at budget: "); ok {
			return Run{State: RunStoppedAtBudget, Detail: rest}
		}
		return Run{State: RunFailed, Detail: "stopped: " + t.Reason}
	}
	return Run{State: RunFailed, Detail: t.Reason}
}

// unanswered says which approval of turn t no one answered (withdrawn or
// expired), or "".
func unanswered(t Turn, items []InboxItem) string {
	for _, it := range items {
		if it.Kind == InboxApproval && it.TurnID == t.ID && (it.Status == InboxCancelled || it.Status == InboxExpired) {
			return fmt.Sprintf("the approval %s of %s was never answered (%s: %s), so the call did not run", it.ID, it.Tool, it.Status, it.AnsweredBy)
		}
	}
	return ""
}

// RunStatus is RunOf(d.Turns, items) in words, for `journal show`.
func RunStatus(d SessionDetail, items []InboxItem) string {
	return RunOf(d.Turns, items).String()
}

// RunStatusOf reads the turns and inbox items of a session and says
// where its run is (RunOf).
func (j *Journal) RunStatusOf(ctx context.Context, sessionID string) (Run, error) {
	turns, err := j.Turns(ctx, sessionID)
	if err != nil {
		return Run{}, err
	}
	items, err := j.Inbox(ctx, InboxFilter{SessionID: sessionID, Statuses: []InboxStatus{InboxOpen, InboxAnswered, InboxConsumed, InboxCancelled, InboxExpired}})
	if err != nil {
		return Run{}, err
	}
	return RunOf(turns, items), nil
}

// ScheduledRun is where a schedule's run is: "missed" for slots passed
// without a run, "caught up (missed N)" for a run that covered N > 1
// slots and succeeded, else the run of its session (RunStatusOf), which
// may have moved on since the slot ran (a parked run answered and
// resumed). A claimed slot without a session yet is running; one whose
// session never opened keeps its recorded status (failed: why).
func (j *Journal) ScheduledRun(ctx context.Context, r ScheduleRun) (Run, error) {
	switch {
	case r.Status == string(RunMissed):
		return Run{State: RunMissed, Missed: r.Missed}, nil
	case strings.HasPrefix(r.Status, string(RunHeld)+": "):
		return Run{State: RunHeld, Detail: strings.TrimPrefix(r.Status, string(RunHeld)+": "), Missed: r.Missed}, nil
	case r.SessionID == "" && r.Status == "claimed":
		return Run{State: RunRunning}, nil
	case r.SessionID == "":
		state, detail, _ := strings.Cut(r.Status, ": ")
		return Run{State: RunState(state), Detail: detail}, nil
	}
	run, err := j.RunStatusOf(ctx, r.SessionID)
	if err != nil {
		return run, err
	}
	if run.State == RunSucceeded && r.Missed > 1 {
		return Run{State: RunCaughtUp, Missed: r.Missed}, nil
	}
	return run, nil
}
