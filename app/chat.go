package app

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync/atomic"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
)

// chat is one open session.
type chat struct {
	s        *harness.Session
	coworker string
	running  atomic.Bool
}

// ChatInfo describes an open chat.
type ChatInfo struct {
	SessionID    string     `json:"session_id"`
	Coworker     string     `json:"coworker"`
	CoworkerName string     `json:"coworker_name"`
	Identity     string     `json:"identity"` // execution identity (docs/identity.md)
	Model        string     `json:"model"`
	ApprovalMode string     `json:"approval_mode"`
	Tools        []ToolInfo `json:"tools"`
}

// ToolInfo is one tool a chat's model can see.
type ToolInfo struct {
	Name           string `json:"name"` // qualified name
	Description    string `json:"description"`
	Provider       string `json:"provider"` // "native" or "mcp:<namespace>"
	Risk           string `json:"risk"`
	Classification string `json:"classification"`
}

// ErrTurnRunning is returned by Send while the chat's previous turn runs.
var ErrTurnRunning = errors.New("a turn is already running in this chat; wait for it or cancel it")

// OpenChat starts a session with the coworker whose bundle id is given
// (loading and resolving its bundle, docs/bundles.md) and returns it. Errors say
// what to fix: no model configured, a broken bundle, a missing tool.
func (a *App) OpenChat(coworker string) (ChatInfo, error) {
	rt, desc, mode, err := a.ready()
	if err != nil {
		return ChatInfo{}, err
	}
	s, err := rt.NewSession(a.base, coworker)
	if err != nil {
		return ChatInfo{}, fmt.Errorf("cannot open a chat with %q: %w", coworker, err)
	}
	a.log.Info("chat opened", "session", s.ID(), "coworker", coworker)
	return a.addChat(rt, s, coworker, desc, mode), nil
}

// ResumeChat continues a journaled session as a chat: an open one (left
// by a crash or by quitting the app), or a closed or failed one, which the
// journal records as reopened. The coworker is loaded and resolved again;
// a changed execution identity (a changed bundle, policy, tool or app
// build, docs/identity.md) is refused with a message naming what changed, and the
// person starts a new chat instead. Grants are not restored. The chat's
// earlier messages and tool calls are in SessionDetail.
func (a *App) ResumeChat(sessionID string) (ChatInfo, error) {
	rt, desc, mode, err := a.ready()
	if err != nil {
		return ChatInfo{}, err
	}
	a.mu.Lock()
	c := a.chats[sessionID]
	a.mu.Unlock()
	if c != nil { // already open in this window
		return a.chatInfo(rt, c.s, c.coworker, desc, mode), nil
	}
	s, err := rt.ResumeSession(a.base, sessionID)
	var ice *harness.IdentityChangedError
	switch {
	case errors.As(err, &ice):
		return ChatInfo{}, fmt.Errorf("this chat cannot be continued: %s changed since it started. A chat goes on only with the same coworker, tools and app build, the ones your approvals were given to; start a new chat with %s instead",
			strings.Join(ice.Changed, "; "), ice.Coworker)
	case err != nil:
		return ChatInfo{}, fmt.Errorf("cannot continue this chat: %w", err)
	}
	a.log.Info("chat resumed", "session", s.ID(), "coworker", s.Coworker())
	return a.addChat(rt, s, s.Coworker(), desc, mode), nil
}

// ready returns the runtime, the model's description and the approval mode
// for a new or continued chat, or why there can be none: the harness did
// not start, or no model is configured.
func (a *App) ready() (rt *harness.Runtime, desc, mode string, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case a.rt == nil && a.rtErr != nil:
		return nil, "", "", a.rtErr
	case a.rt == nil:
		return nil, "", "", errors.New("the harness is not running")
	case a.modelErr != nil:
		return nil, "", "", a.modelErr
	}
	return a.rt, a.modelDescription, a.settings.ApprovalMode, nil
}

// addChat registers an open session as a chat and describes it.
func (a *App) addChat(rt *harness.Runtime, s *harness.Session, coworker, desc, mode string) ChatInfo {
	a.mu.Lock()
	a.chats[s.ID()] = &chat{s: s, coworker: coworker}
	a.mu.Unlock()
	return a.chatInfo(rt, s, coworker, desc, mode)
}

// chatInfo describes a chat's session for the UI.
func (a *App) chatInfo(rt *harness.Runtime, s *harness.Session, coworker, desc, mode string) ChatInfo {
	info := ChatInfo{SessionID: s.ID(), Coworker: coworker, Identity: s.Identity(), Model: desc, ApprovalMode: mode, Tools: []ToolInfo{}}
	for _, t := range s.Tools() {
		info.Tools = append(info.Tools, ToolInfo{Name: t.Name, Description: t.Descriptor.Description, Provider: t.Provider,
			Risk: string(t.Descriptor.Risk), Classification: string(t.Descriptor.Classification)})
	}
	if set, err := rt.Bundles(); err == nil {
		if b, ok := set.Get(coworker); ok {
			info.CoworkerName = b.Name
		}
	}
	return info
}

func (a *App) chat(sessionID string) (*chat, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	c, ok := a.chats[sessionID]
	if !ok {
		return nil, fmt.Errorf("no open chat %q (it was closed, or the app restarted)", sessionID)
	}
	return c, nil
}

// Send runs one turn in the chat and returns how it ended. While it runs,
// the turn's events stream to the UI as EventHarness. A model that fails
// (unreachable, crashed mid-turn) is not an error here: the result has
// status "failed" and the reason, and an "error" event says the same; the
// chat stays open, so the person can fix the model in Settings and retry.
// Errors are for an unknown chat, an empty prompt or a turn already running.
func (a *App) Send(sessionID, prompt string) (res harness.TurnResult, err error) {
	c, err := a.chat(sessionID)
	if err != nil {
		return res, err
	}
	if prompt == "" {
		return res, errors.New("the message is empty")
	}
	if !c.running.CompareAndSwap(false, true) {
		return res, ErrTurnRunning
	}
	defer c.running.Store(false)
	defer func() {
		if p := recover(); p != nil {
			a.log.Error("turn panicked", "session", sessionID, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			err = fmt.Errorf("internal error in this turn: %v", p)
		}
	}()
	r, err := c.s.Send(a.base, prompt, func(e harness.Event) {
		if e.Type == harness.EventError {
			e.Error += modelHint(e.Error)
		}
		a.emit.Emit(EventHarness, e)
	})
	if r != nil {
		return *r, nil
	}
	return res, err
}

// Cancel cancels the chat's running turn, if any; Send then returns with
// status "cancelled". Cancelling is not rollback (docs/limits.md).
func (a *App) Cancel(sessionID string) error {
	c, err := a.chat(sessionID)
	if err != nil {
		return err
	}
	c.s.Cancel()
	return nil
}

// CloseChat closes the session: a running turn is cancelled and every grant
// of the session is revoked.
func (a *App) CloseChat(sessionID string) error {
	c, err := a.chat(sessionID)
	if err != nil {
		return err
	}
	a.mu.Lock()
	delete(a.chats, sessionID)
	a.mu.Unlock()
	return c.s.Close()
}

// RespondApproval answers a consent prompt: decision is "allow_once",
// "allow_session", "allow_always" or "deny" (docs/consent.md).
func (a *App) RespondApproval(id, decision string) error {
	return a.prompter.Respond(id, consent.Decision(decision))
}

// PendingApprovals lists the prompts waiting now (for a UI that reloads).
func (a *App) PendingApprovals() ([]PendingApproval, error) {
	return a.prompter.Pending(), nil
}

// modelHint says what to do about a model server that refused the
// connection (the first-run case: no local Ollama), for the chat's error.
func modelHint(msg string) string {
	if !strings.Contains(msg, "connection refused") {
		return ""
	}
	return ". Is the model server running at that address? " + startModelAdvice + " and start a new chat"
}
