package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
)

// IdentityChangedError refuses to resume a session whose execution identity
// changed (SPEC §7): approvals are bound to the identity, so a changed
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

// ResumeSession reopens a journaled session: it resolves the coworker again,
// recomputes the execution identity and refuses with *IdentityChangedError
// when it differs from the pinned one. The history is rebuilt from the
// journal (images are never journaled, so they are not replayed). Grants of
// the earlier process are not restored: the person is asked again.
func (rt *Runtime) ResumeSession(ctx context.Context, id string) (*Session, error) {
	if rt.journal == nil || rt.opts.Model == nil {
		return nil, errors.New("resume needs a journal and a model provider")
	}
	js, err := rt.journal.Session(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("resume session %s: %w", id, err)
	}
	set, err := rt.Bundles()
	if err != nil {
		return nil, err
	}
	b, ok := set.Get(js.Coworker)
	if !ok {
		return nil, fmt.Errorf("session %s cannot be resumed: coworker %q is no longer in %s", id, js.Coworker, rt.opts.Coworkers)
	}
	res, err := rt.Resolve(ctx, b)
	if err != nil {
		return nil, err
	}
	parts, err := rt.identityParts(res)
	if err != nil {
		return nil, err
	}
	identity, _, err := consent.Identity(parts)
	if err != nil {
		return nil, err
	}
	if identity != js.Identity {
		var old consent.IdentityParts
		changed := []string{"an unknown part"}
		if json.Unmarshal(js.IdentityParts, &old) == nil {
			if d := old.Diff(parts); len(d) > 0 {
				changed = d
			}
		}
		return nil, &IdentityChangedError{SessionID: id, Coworker: js.Coworker, Changed: changed}
	}
	if js.Status != journal.SessionOpen {
		// The journal has no way back from closed or failed: say so here
		// rather than fail the first turn.
		return nil, fmt.Errorf("session %s is %s in the journal and cannot take new turns; start a new session", id, js.Status)
	}
	msgs, err := rt.journal.Messages(ctx, id)
	if err != nil {
		return nil, err
	}
	turns, err := rt.journal.Turns(ctx, id)
	if err != nil {
		return nil, err
	}
	s := &Session{rt: rt, id: id, res: res, identity: identity, parts: parts, seq: len(turns)}
	for _, m := range msgs {
		var mm model.Message
		if err := json.Unmarshal(m.Content, &mm); err != nil {
			return nil, fmt.Errorf("session %s: journaled message %d is unreadable: %w", id, m.ID, err)
		}
		s.history = append(s.history, mm)
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.closed {
		return nil, errors.New("runtime is closed")
	}
	rt.sessions[s.id] = s
	return s, nil
}
