package app

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/model"
)

// Chats is the Chat screen and the sidebar's chat list: opening,
// continuing and closing chats, sending, retrying and cancelling turns,
// the list with its titles and search, a chat's grants and its "/"
// prompts (docs/app.md#chats). It has no state of its own: the chats are
// the runtime's sessions (engine), the list is the journal's.
type Chats struct {
	*env
	engine   *engine
	settings *settingsStore
	model    *modelState
	prompter *modalPrompter // a new chat's consent prompts
	elicitor *appElicitor   // a new chat's servers' questions
	parked   sync.Mutex     // held while a parked run continues (unattended.go)
}

// ChatInfo describes an open chat. Model and ApprovalMode are what the
// chat was opened (or continued) with, whatever Settings say now, the
// model as changed by SetChatModel since; AppInfo says what new chats use.
type ChatInfo struct {
	SessionID    string     `json:"session_id"`
	Coworker     string     `json:"coworker"`
	CoworkerName string     `json:"coworker_name"`
	Identity     string     `json:"identity"` // execution identity (docs/identity.md)
	Model        string     `json:"model"`
	ModelName    string     `json:"model_name"` // the model the next turn asks for (the picker's value)
	ApprovalMode string     `json:"approval_mode"`
	Running      bool       `json:"running"`    // a turn is running
	Unattended   bool       `json:"unattended"` // it runs on its own: approvals park in the inbox (unattended.go)
	Tools        []ToolInfo `json:"tools"`
}

// ToolInfo is one tool a chat's model can see.
type ToolInfo struct {
	Name           string `json:"name"` // qualified name
	Description    string `json:"description"`
	Provider       string `json:"provider"` // "native" or "mcp:<namespace>"
	Risk           string `json:"risk"`
	Classification string `json:"classification"`
	// Policy is the coworker's own answer for the tool (its manifest's
	// policy): "ask" (the default), "allow" (runs without asking) or
	// "deny" (never runs).
	Policy string `json:"policy"`
}

// ErrTurnRunning is returned by Send while the chat's previous turn runs
// (the harness's one busy rule).
var ErrTurnRunning = harness.ErrTurnRunning

// OpenChat starts a session with the coworker whose bundle id is given
// (loading and resolving its bundle, docs/bundles.md) with the settings in use now,
// and returns it. Errors say what to fix: no model configured, a broken
// bundle, a missing tool.
func (c *Chats) OpenChat(coworker string) (ChatInfo, error) {
	rt, so, err := c.ready()
	if err != nil {
		return ChatInfo{}, err
	}
	if so.Model, err = c.modelFor(coworker, so.Model); err != nil {
		return ChatInfo{}, err
	}
	s, err := rt.NewSession(c.base, coworker, so)
	if err != nil {
		return ChatInfo{}, fmt.Errorf("cannot open a chat with %q: %w", coworker, err)
	}
	c.log.Info("chat opened", "session", s.ID(), "coworker", coworker)
	c.chatChanged(s.ID())
	return c.info(s), nil
}

// ResumeChat continues a journaled session as a chat: an open one (left
// by a crash or by quitting the app), or a closed or failed one, which the
// journal records as reopened, with the settings in use now. A chat open
// in this window is returned as it is. The coworker is loaded and resolved
// again; a changed execution identity (a changed bundle, policy, tool or
// app build, docs/identity.md) is refused with a message naming what changed, and
// the person starts a new chat instead. Grants are not restored. The
// chat's earlier messages and tool calls are in SessionDetail.
func (c *Chats) ResumeChat(sessionID string) (ChatInfo, error) {
	if s, err := c.engine.chat(sessionID); err == nil {
		return c.info(s), nil // open here: as it is, whatever Settings say now
	}
	rt, so, err := c.ready()
	if err != nil {
		return ChatInfo{}, err
	}
	if j, jerr := c.engine.openJournal(); jerr == nil {
		if js, gerr := j.Session(c.base, sessionID); gerr == nil {
			if so.Model, err = c.modelFor(js.Coworker, so.Model); err != nil {
				return ChatInfo{}, err
			}
			so.Model = c.lastChosenModel(sessionID, so.Model) // docs/app.md#model-in-a-chat
		}
	}
	s, err := rt.ResumeSession(c.base, sessionID, so)
	var ice *harness.IdentityChangedError
	switch {
	case errors.As(err, &ice):
		return ChatInfo{}, fmt.Errorf("this chat cannot be continued: %s changed since it started. A chat goes on only with the same coworker, tools and app build, the ones your approvals were given to; start a new chat with %s instead",
			strings.Join(ice.Changed, "; "), ice.Coworker)
	case err != nil:
		return ChatInfo{}, fmt.Errorf("cannot continue this chat: %w", err)
	}
	c.log.Info("chat resumed", "session", s.ID(), "coworker", s.Coworker())
	c.chatChanged(s.ID())
	return c.info(s), nil
}

// ready returns the runtime and the options of a new or continued chat, or
// why there can be none: the harness did not start, or no model is
// configured.
func (c *Chats) ready() (*harness.Runtime, harness.SessionOptions, error) {
	rt, err := c.engine.ready()
	if err != nil {
		return nil, harness.SessionOptions{}, err
	}
	m := c.model.current()
	if m.err != nil {
		return nil, harness.SessionOptions{}, m.err
	}
	return rt, c.sessionOptions(m.provider, c.settings.get()), nil
}

// sessionOptions are the settings a new or continued chat is opened
// with and keeps until it closes: the model provider new chats use and the
// settings in use now.
func (c *Chats) sessionOptions(provider model.Provider, s Settings) harness.SessionOptions {
	timeout := consent.DefaultPromptTimeout
	if d, err := time.ParseDuration(c.cfg.PromptTimeout); err == nil && d > 0 {
		timeout = d
	}
	return harness.SessionOptions{
		Model:         provider,
		Approve:       consent.Mode(s.ApprovalMode),
		Prompter:      c.prompter,
		Elicitor:      &questionWait{inner: c.elicitor, unattended: c.prompter.isUnattended, wait: c.questionWait},
		PromptTimeout: timeout,
		Workspace:     filepath.Join(c.paths.ConfigDir, "workspace"),
		// hidden, not chosen: offered to no MCP server as its root, which
		// would replace the folders of its arguments; a coworker's working
		// folder is offered (docs/mcp.md#roots)
		DefaultWorkspace: true,
		Coworkers:        coworkersDirOf(s, c.paths.DefaultCoworkers),
		Limits:           s.Limits.Bundle(), // a coworker's manifest wins per key (docs/limits.md#budgets)
		Budget:           chatBudget{prompter: c.prompter},
	}
}

// questionWait is how long a question in an unattended run waits
// (Settings.QuestionWaitSeconds, questionwait.go).
func (c *Chats) questionWait() time.Duration { return c.settings.get().QuestionWait() }

// modelFor is the model provider a chat with coworker uses: def (the
// one new chats use), or, when the coworker's manifest names a model
// (front matter "model", docs/bundles.md#model), the configured provider
// asked for that model. A coworker that does not load gets def: opening
// the chat then says what is wrong with it. It reads the keychain: call
// it holding no lock.
func (c *Chats) modelFor(coworker string, def model.Provider) (model.Provider, error) {
	if !bundle.IDPattern.MatchString(coworker) {
		return def, nil
	}
	b, err := bundle.Load(filepath.Join(c.settings.coworkersDir(), coworker))
	if err != nil || b.Model == "" {
		return def, nil
	}
	cfg, _ := c.modelConfig(c.settings.get()) // a keychain error: the model in use says it already
	cfg.Model = b.Model
	p, err := model.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("coworker %q asks for the model %q (model: in its manifest.md), which the model provider cannot use: %w; fix it in the coworker's editor or in Settings", coworker, b.Model, err)
	}
	return p, nil
}

// chatInfo describes a chat's session for the UI, from the session itself.
func chatInfo(s *harness.Session) ChatInfo {
	o := s.Options()
	info := ChatInfo{SessionID: s.ID(), Coworker: s.Coworker(), CoworkerName: s.CoworkerName(), Identity: s.Identity(),
		Model: o.Model.Describe(), ModelName: model.NameOf(o.Model), ApprovalMode: string(o.Approve), Running: s.Running(), Tools: []ToolInfo{}}
	for _, t := range s.Tools() {
		info.Tools = append(info.Tools, ToolInfo{Name: t.Name, Description: t.Descriptor.Description, Provider: t.Provider,
			Risk: string(t.Descriptor.Risk), Classification: string(t.Descriptor.Classification), Policy: string(s.ManifestPolicy(t.Name))})
	}
	return info
}

// Send runs one turn in the chat and returns how it ended. While it runs,
// the turn's events stream to the UI as EventHarness. A model that fails
// (unreachable, crashed mid-turn) is not an error here: the result has
// status "failed" and the reason, and an "error" event says the same; the
// chat stays open, so the person can fix the model in Settings and retry.
// Errors are for an unknown chat, an empty prompt or a turn already running.
func (c *Chats) Send(sessionID, prompt string) (harness.TurnResult, error) {
	s, err := c.engine.chat(sessionID)
	if err != nil {
		return harness.TurnResult{}, err
	}
	if prompt == "" {
		return harness.TurnResult{}, errors.New("the message is empty")
	}
	return c.runTurn(sessionID, func(sink harness.Sink) (*harness.TurnResult, error) {
		return s.TrySend(c.base, prompt, sink)
	})
}

// Retry runs the chat's last turn again when it failed, stopped or was
// cancelled (the Retry button): no new message, the model sees the prompt
// once (docs/turns.md#retry). It returns as Send does; an error says there
// is nothing to retry, the chat is unknown or a turn is running.
func (c *Chats) Retry(sessionID string) (harness.TurnResult, error) {
	s, err := c.engine.chat(sessionID)
	if err != nil {
		return harness.TurnResult{}, err
	}
	return c.runTurn(sessionID, func(sink harness.Sink) (*harness.TurnResult, error) {
		return s.TryRetry(c.base, sink)
	})
}

// runTurn runs one turn of a chat through start, streaming its events to
// the UI (an unreachable model's error says what to do), and turns a panic
// into an error.
func (c *Chats) runTurn(sessionID string, start func(harness.Sink) (*harness.TurnResult, error)) (res harness.TurnResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			c.log.Error("turn panicked", "session", sessionID, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			err = fmt.Errorf("internal error in this turn: %v", p)
		}
	}()
	hint := ". Is the model server running at that address? " + startModelAdvice(c.model.current().baseURL) +
		" and start a new chat; once the server runs, Retry sends this message again"
	r, err := start(func(e harness.Event) {
		if e.Type == harness.EventError && e.Code == harness.CodeModelUnreachable {
			e.Error += hint
		}
		c.emit.Emit(EventHarness, chatEvent(e))
		if chatEventChanges(e) {
			c.chatChanged(sessionID)
		}
	})
	if r != nil {
		if r.Status == harness.TurnCompleted || r.Status == harness.TurnStopped { // the model answered
			c.model.recheck(true) // only a banner that is up
		}
		return *r, nil
	}
	return res, err
}

// Cancel cancels the chat's running turn, if any; Send then returns with
// status "cancelled". Cancelling is not rollback (docs/limits.md).
func (c *Chats) Cancel(sessionID string) error {
	s, err := c.engine.chat(sessionID)
	if err != nil {
		return err
	}
	s.Cancel()
	return nil
}

// CloseChat closes the session: a running turn is cancelled and every grant
// of the session is revoked.
func (c *Chats) CloseChat(sessionID string) error {
	s, err := c.engine.chat(sessionID)
	if err != nil {
		return err
	}
	err = s.Close()
	c.chatChanged(sessionID)
	return err
}
