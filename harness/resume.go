package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/internal/jsonenc"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
)

// IdentityChangedError refuses to resume a session whose execution identity
// changed (docs/identity.md): approvals are bound to the identity, so a changed
// bundle, policy, selection, descriptor or executable needs a new session.
type IdentityChangedError struct {
	SessionID string
	Coworker  string   // the coworker (bundle id) of the session
	Changed   []string // human descriptions of the parts that changed
}

func (e *IdentityChangedError) Error() string {
	return fmt.Sprintf("session %s with coworker %q cannot be resumed: its execution identity changed (%s); start a new session",
		e.SessionID, e.Coworker, strings.Join(e.Changed, "; "))
}

// heldError refuses a session another live process holds; it is
// journal.ErrHeldElsewhere (errors.Is).
type heldError string

func (e heldError) Error() string { return string(e) }
func (e heldError) Unwrap() error { return journal.ErrHeldElsewhere }

// ResumeSession continues a journaled session (docs/identity.md, docs/journal.md): it resolves
// the coworker again, recomputes the execution identity and refuses with
// *IdentityChangedError when it differs from the pinned one. It refuses a
// session that another live process holds open or runs a turn in, and a
// history with a message that is not one (an edited journal). Before it
// reads the history it recovers the calls and turns of processes that died
// since the journal was opened. A closed or failed session is reopened
// (journal.ReopenSession). The history is rebuilt from the journal (images
// are never journaled, so they are not replayed), and a tool call the
// earlier process never answered gets an error answer, journaled, that says
// what the journal knows of it (not run, outcome unknown, reconciled,
// finished), so the history is one every provider accepts. Grants of the
// earlier process are not restored: the person is asked again. Resuming a
// session this Runtime already holds returns that Session as it is, with
// the options it was opened with (so is then ignored); one being closed is
// reopened once its close is journaled. A resumed session
// uses the newest registry generation and the settings in so.
func (rt *Runtime) ResumeSession(ctx context.Context, id string, so SessionOptions) (*Session, error) {
	so, err := rt.sessionOptions(so)
	if err != nil {
		return nil, fmt.Errorf("resume session %s: %w", id, err)
	}
	for {
		// A session open here is returned; one being closed is waited for
		// (without holding resumeMu, so other resumes go on), then reopened.
		if live, ok := rt.Session(id); ok {
			done := live.closingDone()
			if done == nil {
				return live, nil
			}
			select {
			case <-done:
			case <-ctx.Done():
				return nil, fmt.Errorf("resume session %s: it is being closed: %w", id, ctx.Err())
			}
			continue
		}
		rt.resumeMu.Lock()
		if _, ok := rt.Session(id); !ok {
			break // resumeMu held
		}
		rt.resumeMu.Unlock() // opened or closing meanwhile: look again
	}
	defer rt.resumeMu.Unlock()
	gen, err := rt.acquire()
	if err != nil {
		return nil, err
	}
	s, err := rt.resume(ctx, gen, id, so)
	if err != nil {
		rt.release(gen)
		return nil, err
	}
	return s, nil
}

// resume rebuilds session id from the journal: its coworker resolved
// again, its identity checked, its history and pending answers restored.
func (rt *Runtime) resume(ctx context.Context, gen *generation, id string, so SessionOptions) (*Session, error) {
	js, err := rt.journal.Session(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("resume session %s: %w", id, err)
	}
	res, err := rt.resolveAgain(ctx, gen, js, &so)
	if err != nil {
		return nil, err
	}
	identity, parts, err := rt.sameIdentity(js, res)
	if err != nil {
		return nil, err
	}
	if err := rt.notRunning(ctx, id); err != nil {
		return nil, err
	}
	msgs, turns, invs, err := rt.record(ctx, id)
	if err != nil {
		return nil, err
	}
	s := rt.session(gen, id, so, res, identity, parts)
	s.seq = len(turns)
	if s.history, err = history(id, msgs); err != nil {
		return nil, err
	}
	s.retry = retryPrompt(turns, msgs)
	if err := rt.journal.ReopenSession(ctx, id, journal.Reopening{Provider: so.Model.Name(), Model: so.Model.Describe(), Approve: string(so.Approve)}); err != nil {
		if errors.Is(err, journal.ErrHeldElsewhere) {
			return nil, heldError(fmt.Sprintf("session %s is open in another OpenWorker process; close the chat there (or quit that process), then try again", id))
		}
		return nil, fmt.Errorf("resume session %s: %w", id, err)
	}
	parked, err := rt.parkedItems(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := s.answerDangling(ctx, msgs, invs, parked); err != nil {
		return nil, err
	}
	if s.budgetItem, err = rt.parkedBudget(ctx, id); err != nil {
		return nil, err
	}
	if err := rt.add(s); err != nil {
		return nil, err
	}
	return s, nil
}

// resolveAgain finds the session's coworker in so.Coworkers, sets
// so.Workspace to its folder (a root even on a default workspace) and
// resolves it.
func (rt *Runtime) resolveAgain(ctx context.Context, gen *generation, js journal.Session, so *SessionOptions) (*Resolution, error) {
	set, err := bundles(so.Coworkers)
	if err != nil {
		return nil, err
	}
	b, ok := set.Get(js.Coworker)
	if !ok {
		return nil, fmt.Errorf("session %s cannot be resumed: coworker %q is no longer in %s", js.ID, js.Coworker, so.Coworkers)
	}
	so.Workspace = workspaceFor(so.Workspace, b) // the coworker's folder, docs/bundles.md#folder
	so.DefaultWorkspace = rootless(so.DefaultWorkspace, b)
	return rt.resolve(ctx, gen, b, so.Model, so.Workspace, so.DefaultWorkspace)
}

// sameIdentity returns the identity of res, or an IdentityChangedError
// naming what changed if it is not the session's.
func (rt *Runtime) sameIdentity(js journal.Session, res *Resolution) (string, consent.IdentityParts, error) {
	parts, err := rt.identityParts(res)
	if err != nil {
		return "", parts, err
	}
	identity, _, err := consent.Identity(parts)
	if err != nil {
		return "", parts, err
	}
	if identity == js.Identity {
		return identity, parts, nil
	}
	var old consent.IdentityParts
	changed := []string{"an unknown part"}
	if json.Unmarshal(js.IdentityParts, &old) == nil {
		if d := old.Diff(parts); len(d) > 0 {
			changed = d
		}
	}
	return "", parts, &IdentityChangedError{SessionID: js.ID, Coworker: js.Coworker, Changed: changed}
}

// notRunning recovers the journal and refuses a session with a turn
// running in another process.
func (rt *Runtime) notRunning(ctx context.Context, id string) error {
	if _, _, err := rt.journal.Recover(ctx); err != nil {
		return fmt.Errorf("resume session %s: %w", id, err)
	}
	busy, err := rt.journal.RunningElsewhere(ctx, id)
	if err != nil {
		return err
	}
	if busy {
		return heldError(fmt.Sprintf("session %s has a turn running in another OpenWorker process; wait for it to end there (or quit that process), then try again", id))
	}
	return nil
}

// record reads the session's messages, turns and invocations.
func (rt *Runtime) record(ctx context.Context, id string) ([]journal.Message, []journal.Turn, []journal.Invocation, error) {
	msgs, err := rt.journal.Messages(ctx, id)
	if err != nil {
		return nil, nil, nil, err
	}
	turns, err := rt.journal.Turns(ctx, id)
	if err != nil {
		return nil, nil, nil, err
	}
	invs, err := rt.journal.Invocations(ctx, id)
	if err != nil {
		return nil, nil, nil, err
	}
	return msgs, turns, invs, nil
}

// history decodes the journaled messages of session id, refusing one that
// is not a message the model can be sent (an edited journal).
func history(id string, msgs []journal.Message) ([]model.Message, error) {
	out := make([]model.Message, 0, len(msgs))
	for _, m := range msgs {
		var mm model.Message
		err := json.Unmarshal(m.Content, &mm)
		if err == nil {
			switch {
			case mm.Role != model.User && mm.Role != model.Assistant && mm.Role != model.ToolRole:
				err = fmt.Errorf("role %q", mm.Role)
			case string(mm.Role) != m.Role:
				err = fmt.Errorf("role %q in a %q row", mm.Role, m.Role)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("session %s cannot be resumed: journaled message %d is not a message the model can be sent (%v); the journal may have been edited: verify the journal", id, m.ID, err)
		}
		out = append(out, mm)
	}
	return out, nil
}

// answerDangling rebuilds the history so that every assistant tool call is
// followed by its answer, as providers require. The answers of a message
// are the tool messages right after it, paired with its calls in order (a
// call ID may repeat: some providers send none and get call_0, call_1, ...
// in every reply). A call without one (its process died first) gets an
// error answer saying what the journal knows of it (lostAnswer), journaled
// with the turn of the asking message; it follows the asking message in the
// journal too, because that message was the last one its process wrote.
// A tool message that answers nothing right before it is left out of what
// the model sees.
func (s *Session) answerDangling(ctx context.Context, msgs []journal.Message, invs []journal.Invocation, parked map[string]journal.InboxItem) error {
	byCall := map[string][]*journal.Invocation{} // turn and call ID → invocations in order
	for i := range invs {
		k := invs[i].TurnID + "\x00" + invs[i].CallID
		byCall[k] = append(byCall[k], &invs[i])
	}
	h := s.history
	out := make([]model.Message, 0, len(h))
	for i := 0; i < len(h); {
		m, turnID := h[i], msgs[i].TurnID
		i++
		if m.Role == model.ToolRole {
			continue // answers nothing right before it
		}
		out = append(out, m)
		start := i
		for i < len(h) && h[i].Role == model.ToolRole {
			i++
		}
		answers, used := h[start:i], make([]bool, i-start)
		for _, c := range m.ToolCalls {
			k := turnID + "\x00" + c.ID
			var inv *journal.Invocation
			if l := byCall[k]; len(l) > 0 {
				inv, byCall[k] = l[0], l[1:]
			}
			found := -1
			for a := range answers {
				if !used[a] && answers[a].ToolCallID == c.ID {
					found = a
					break
				}
			}
			if found >= 0 {
				used[found] = true
				out = append(out, answers[found])
				continue
			}
			if it, ok := parked[k]; ok && inv == nil { // waits on the inbox: answered by the next turn (park.go)
				s.pending = append(s.pending, pendingCall{turnID: turnID, call: c, item: it.ID})
				continue
			}
			answer := model.Message{Role: model.ToolRole, ToolCallID: c.ID, ToolName: c.Name, IsError: true, Text: lostAnswer(inv)}
			content, _ := jsonenc.Marshal(journalMessage(answer))
			if _, err := s.rt.journal.AppendMessage(ctx, journal.Message{SessionID: s.id, TurnID: turnID, Role: string(answer.Role), Content: content}); err != nil {
				return fmt.Errorf("resume session %s: journal the answer to unanswered tool call %s: %w", s.id, c.ID, err)
			}
			out = append(out, answer)
		}
	}
	s.history = out
	return nil
}

// lostAnswer is the tool result given, on resume, to a tool call that the
// earlier process never answered, from what the journal knows of its
// invocation (nil: there is none, so the call never started: the
// invocation row is committed before any I/O, docs/journal.md).
func lostAnswer(inv *journal.Invocation) string {
	const stopped = "OpenWorker stopped before this call's result was passed on"
	switch {
	case inv == nil || inv.Status == journal.InvPrepared:
		return "not run: OpenWorker stopped before this call started, so it did not happen; ask for it again if it is still needed."
	case inv.Reconciled == journal.OutcomeApplied:
		return "outcome recorded by the user: OpenWorker stopped while this call ran; the user has since recorded that it was applied (it took effect)."
	case inv.Reconciled == journal.OutcomeNotApplied:
		return "outcome recorded by the user: OpenWorker stopped while this call ran; the user has since recorded that it was not applied (it did not take effect)."
	case inv.Status == journal.InvSucceeded:
		return "succeeded, but " + stopped + "; the result is in the journal, not here. Ask the user if you need it."
	case inv.Status == journal.InvFailed:
		return "failed (" + inv.Error + "), and " + stopped + "."
	case inv.Status == journal.InvRefused:
		return "refused (" + inv.Error + "); it did not run."
	}
	return "outcome unknown: OpenWorker stopped while this call was running; the journal marks it as needing reconciliation. Do not assume that it ran or that it did not run; ask the user if it matters."
}

// retryPrompt is what Retry runs again in a resumed session: the last
// turn's prompt when that turn did not complete and a user message is in
// the history (a turn whose prompt never got journaled has nothing to
// retry); "" otherwise.
func retryPrompt(turns []journal.Turn, msgs []journal.Message) string {
	if len(turns) == 0 {
		return ""
	}
	last := turns[len(turns)-1]
	if last.Status == journal.TurnCompleted || last.Status == journal.TurnRunning {
		return ""
	}
	for _, m := range msgs {
		if m.Role == string(model.User) {
			return last.Prompt
		}
	}
	return ""
}
