package harness

import (
	"context"
	"errors"
	"fmt"

	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
)

// CodeSettingChanged is the journal's warning code for a session setting
// changed while the session is open (docs/journal.md#warnings): the
// message is SettingChange's text, e.g.
// `session setting changed: model from "llama3.2" to "qwen3"`.
const CodeSettingChanged = "setting_changed"

// SettingChange is one change of a session setting, as journaled.
type SettingChange struct {
	Name, From, To string // Name is "model"; From and To are model names (model.NameOf)
}

// String is the journaled message.
func (c SettingChange) String() string {
	return fmt.Sprintf("session setting changed: %s from %q to %q", c.Name, c.From, c.To)
}

// ParseSettingChange reads a message String wrote; ok is false for any
// other text.
func ParseSettingChange(msg string) (c SettingChange, ok bool) {
	_, err := fmt.Sscanf(msg, "session setting changed: %s from %q to %q", &c.Name, &c.From, &c.To)
	return c, err == nil
}

// LastModel is the model the session was last switched to (SetModel), from
// its journaled setting changes; "" when it never was.
func LastModel(ctx context.Context, j *journal.Journal, sessionID string) (string, error) {
	ws, err := j.Warnings(ctx, sessionID)
	if err != nil {
		return "", err
	}
	last := ""
	for _, w := range ws {
		if c, ok := ParseSettingChange(w.Message); ok && w.Code == CodeSettingChanged && c.Name == "model" {
			last = c.To
		}
	}
	return last, nil
}

// SetModel makes p the model of the session's next turns
// (docs/app.md#model-in-a-chat) and journals the change as a
// setting_changed warning. p must be of the same kind as the model the
// session has ("openai" or "anthropic"): the tools' names were resolved
// for that kind's rule. It returns ErrTurnRunning while a turn runs (the
// change is for the next turn, never the middle of one) and
// ErrSessionClosed on a closed session; choosing the model in use is a
// no-op.
func (s *Session) SetModel(ctx context.Context, p model.Provider) error {
	if p == nil {
		return errors.New("no model given")
	}
	if !s.turnMu.TryLock() {
		return ErrTurnRunning
	}
	defer s.turnMu.Unlock()
	s.mu.Lock()
	old, closed := s.opts.Model, s.closed || s.closing
	s.mu.Unlock()
	switch {
	case closed:
		return ErrSessionClosed
	case old.Name() != p.Name():
		return fmt.Errorf("this chat uses an %s model; a model of another provider (%s) needs a new chat", old.Name(), p.Name())
	case old.Describe() == p.Describe():
		return nil
	}
	c := SettingChange{Name: "model", From: model.NameOf(old), To: model.NameOf(p)}
	if err := s.rt.journal.Warn(ctx, s.id, "", CodeSettingChanged, c.String()); err != nil {
		return &JournalError{"journal the model change", err}
	}
	s.mu.Lock()
	s.opts.Model = p
	s.mu.Unlock()
	return nil
}

// model is the session's model provider now.
func (s *Session) model() model.Provider {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opts.Model
}
