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
// the earlier process are not restored: the person is asked again. A
// closed or failed session is reopened (journal.ReopenSession). Tool calls
// the earlier process never answered (it died mid-call) get an error answer
// saying their outcome is unknown, journaled, so the history is one every
// provider accepts. Resuming a session this Runtime already holds returns
// that Session.
func (rt *Runtime) ResumeSession(ctx context.Context, id string) (*Session, error) {
	if rt.journal == nil || rt.opts.Model == nil {
		return nil, errors.New("resume needs a journal and a model provider")
	}
	rt.mu.Lock()
	live := rt.sessions[id]
	rt.mu.Unlock()
	if live != nil {
		return live, nil
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
	if busy, err := rt.journal.RunningElsewhere(ctx, id); err != nil {
		return nil, err
	} else if busy {
		return nil, fmt.Errorf("session %s has a turn running in another OpenWorker process; wait for it to end there (or quit that process), then try again", id)
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
	if js.Status != journal.SessionOpen {
		// A closed or failed chat that a person continues: the journal
		// records the reopening (chained), then new turns may start.
		if err := rt.journal.ReopenSession(ctx, id); err != nil {
			return nil, fmt.Errorf("resume session %s: %w", id, err)
		}
	}
	if err := s.answerDangling(ctx, msgs); err != nil {
		return nil, err
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.closed {
		return nil, errors.New("runtime is closed")
	}
	rt.sessions[s.id] = s
	return s, nil
}

// danglingAnswer is the tool result given, on resume, to a tool call that
// the earlier process never answered.
const danglingAnswer = "outcome unknown: OpenWorker stopped while this call was pending; the journal marks it as needing reconciliation. Do not assume that it ran or that it did not run; ask the user if it matters."

// answerDangling rebuilds the history so that every assistant tool call is
// followed by its answer, as providers require: an answer journaled later
// than its call (by an earlier resume) moves next to it, and a call the
// earlier process never answered gets an error answer saying its outcome
// is unknown, journaled with the turn of the asking message. Answers to no
// call in the history are left out of what the model sees.
func (s *Session) answerDangling(ctx context.Context, msgs []journal.Message) error {
	answers := map[string]model.Message{}
	for _, m := range s.history {
		if m.Role == model.ToolRole {
			answers[m.ToolCallID] = m
		}
	}
	out := make([]model.Message, 0, len(s.history))
	for i, m := range s.history {
		if m.Role == model.ToolRole {
			continue // placed after the message that asked
		}
		out = append(out, m)
		for _, c := range m.ToolCalls {
			answer, ok := answers[c.ID]
			if !ok {
				answer = model.Message{Role: model.ToolRole, ToolCallID: c.ID, ToolName: c.Name, IsError: true, Text: danglingAnswer}
				content, _ := json.Marshal(journalMessage(answer))
				if _, err := s.rt.journal.AppendMessage(ctx, journal.Message{SessionID: s.id, TurnID: msgs[i].TurnID, Role: string(answer.Role), Content: content}); err != nil {
					return fmt.Errorf("resume session %s: journal the answer to unanswered tool call %s: %w", s.id, c.ID, err)
				}
			}
			delete(answers, c.ID) // a repeated call ID is answered once
			out = append(out, answer)
		}
	}
	s.history = out
	return nil
}
