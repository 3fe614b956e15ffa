package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/tool"
)

// Session is one conversation with one coworker. Its turns run one at a
// time: Send from two goroutines waits, TrySend refuses with
// ErrTurnRunning. It keeps the SessionOptions (but the model, which
// SetModel changes between turns) and the registry generation it was
// opened with until Close, which revokes every grant.
type Session struct {
	rt       *Runtime
	gen      *generation
	opts     SessionOptions
	consent  *consent.Engine // this session's grants and prompts
	id       string
	res      *Resolution
	identity string
	parts    consent.IdentityParts
	opened   uint64 // order of opening in this runtime

	turnMu  sync.Mutex // one turn at a time
	mu      sync.Mutex // guards what follows and the descriptors in res.Tools
	history []model.Message
	seq     int
	cancel  context.CancelFunc // of the running turn
	closing bool               // Close has begun
	closed  bool
	failure string // why the last turn failed, or ""
	// retry is the prompt Retry runs again: the last turn's, when that turn
	// failed, stopped or was cancelled with its prompt in the history; ""
	// when there is nothing to retry.
	retry   string
	pending []pendingCall // calls parked in the inbox, found on resume (park.go)
	// budgetItem is the budget inbox item the run is parked on (budget.go), or "".
	budgetItem string
	done       chan struct{} // closed when Close has journaled the end

	ui uiState // app views (views.go, docs/mcp-apps.md)
}

// ErrSessionClosed is returned by Send on a closed session.
var ErrSessionClosed = errors.New("session is closed")

// ErrTurnRunning is returned by TrySend while the session's previous turn
// runs: the one busy rule of the app, the stdio protocol and the CLI.
var ErrTurnRunning = errors.New("a turn is already running in this session; wait for it or cancel it")

// ErrNothingToRetry is returned by Retry when the session's last turn
// completed (or there is none, or its prompt never reached the history).
var ErrNothingToRetry = errors.New("there is nothing to retry: the last turn completed; send a new message instead")

var sessionOrder atomic.Uint64

// NewSession opens a session with the coworker whose bundle id is given,
// with the settings in so: it loads the bundle from so.Coworkers, resolves
// its selection against the newest registry generation (starting the MCP
// providers it uses, in parallel) and the model provider's tool-name rule
// (a whole provider's tool whose name breaks it is left out and journaled
// as a tool_left_out warning, docs/bundles.md), pins the execution
// identity and journals the session.
func (rt *Runtime) NewSession(ctx context.Context, coworker string, so SessionOptions) (*Session, error) {
	so, err := rt.sessionOptions(so)
	if err != nil {
		return nil, err
	}
	gen, err := rt.acquire()
	if err != nil {
		return nil, err
	}
	s, err := rt.newSession(ctx, gen, coworker, so)
	if err != nil {
		rt.release(gen)
		return nil, err
	}
	return s, nil
}

// sessionOptions checks so and fills its defaults.
func (rt *Runtime) sessionOptions(so SessionOptions) (SessionOptions, error) {
	so = so.withDefaults(rt.opts)
	switch {
	case so.Model == nil:
		return so, errors.New("no model provider is configured")
	case rt.journal == nil:
		return so, errors.New("no journal is open; set Options.Journal or Options.DBPath")
	case so.Approve != consent.Ask && so.Approve != consent.Bypass:
		return so, fmt.Errorf("approval mode %q: use %q or %q", so.Approve, consent.Ask, consent.Bypass)
	}
	return so, nil
}

func (rt *Runtime) newSession(ctx context.Context, gen *generation, coworker string, so SessionOptions) (*Session, error) {
	set, err := bundles(so.Coworkers)
	if err != nil {
		return nil, err
	}
	b, ok := set.Get(coworker)
	if !ok {
		for _, e := range set.Errors {
			if strings.Contains(e.Dir, coworker) {
				return nil, fmt.Errorf("coworker %q cannot load: %w", coworker, e)
			}
		}
		ids := make([]string, 0, len(set.Bundles))
		for _, b := range set.Bundles {
			ids = append(ids, b.ID)
		}
		return nil, fmt.Errorf("no coworker %q in %s (found: %s)", coworker, so.Coworkers, strings.Join(ids, ", "))
	}
	// The coworker's folder, when it has one, is the workspace (docs/bundles.md#folder).
	so.Workspace, so.DefaultWorkspace = workspaceFor(so.Workspace, b), rootless(so.DefaultWorkspace, b)
	res, err := rt.resolve(ctx, gen, b, so.Model, so.Workspace, so.DefaultWorkspace) // the model provider's tool-name rule, as Check applies it
	if err != nil {
		return nil, err
	}
	parts, err := rt.identityParts(res)
	if err != nil {
		return nil, err
	}
	identity, canon, err := consent.Identity(parts)
	if err != nil {
		return nil, err
	}
	s := rt.session(gen, journal.NewID("ses_"), so, res, identity, parts)
	err = rt.journal.CreateSession(ctx, journal.Session{
		ID: s.id, Coworker: b.ID, CoworkerVersion: b.Version, Identity: identity, IdentityParts: json.RawMessage(canon),
		Provider: so.Model.Name(), Model: so.Model.Describe(), Approve: string(so.Approve),
	})
	if err != nil {
		return nil, &JournalError{"journal the session", err}
	}
	for _, l := range res.LeftOut {
		if err := rt.journal.AddWarning(ctx, journal.Warning{SessionID: s.id, Code: CodeToolLeftOut, Tool: l.Tool, Message: l.Message}); err != nil {
			err = &JournalError{"journal the session", err}
			_ = rt.journal.FinishSession(context.WithoutCancel(ctx), s.id, journal.SessionFailed, err.Error())
			return nil, err
		}
	}
	if err := rt.add(s); err != nil {
		return nil, err
	}
	return s, nil
}

// session builds a Session on gen with its own consent engine.
func (rt *Runtime) session(gen *generation, id string, so SessionOptions, res *Resolution, identity string, parts consent.IdentityParts) *Session {
	s := &Session{rt: rt, gen: gen, opts: so, id: id, res: res, identity: identity, parts: parts, opened: sessionOrder.Add(1), done: make(chan struct{}),
		consent: &consent.Engine{Mode: so.Approve, Prompter: so.Prompter, Timeout: so.PromptTimeout}}
	if rt.journal != nil {
		s.consent.Store = rt.journal
	}
	return s
}

// add registers an open session.
func (rt *Runtime) add(s *Session) error {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.closed {
		return errors.New("runtime is closed")
	}
	rt.sessions[s.id] = s
	return nil
}

// ID returns the session id ("ses_...").
func (s *Session) ID() string { return s.id }

// Identity returns the pinned execution identity ("sha256:<hex>").
func (s *Session) Identity() string { return s.identity }

// Coworker returns the bundle id of the session's coworker.
func (s *Session) Coworker() string { return s.res.Bundle.ID }

// CoworkerName returns the display name of the session's coworker.
func (s *Session) CoworkerName() string { return s.res.Bundle.Name }

// Options returns the settings the session was opened (or resumed) with,
// defaults filled in. Only the model changes while it is open (SetModel).
func (s *Session) Options() SessionOptions {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opts
}

// Generation returns the number of the registry generation the session
// uses (see Runtime.SetServers).
func (s *Session) Generation() uint64 { return s.gen.id }

// Tools returns the resolved selection the model sees, as of now: a turn
// that finds a changed descriptor updates it. Safe to call while a turn
// runs.
func (s *Session) Tools() []ResolvedTool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]ResolvedTool{}, s.res.Tools...) // [] in JSON, never null
}

// ManifestPolicy is the coworker's own policy for the tool named (its
// manifest's "policy", docs/consent.md#policies-in-the-manifest): allow
// runs it without asking, deny never runs it, ask (the default) asks.
func (s *Session) ManifestPolicy(tool string) consent.Policy {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.res == nil || s.res.Bundle == nil {
		return consent.PolicyAsk
	}
	return consent.ManifestPolicy(s.res.Bundle.Policy, tool)
}

// Running reports whether a turn is running.
func (s *Session) Running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cancel != nil
}

// Cancel cancels the running turn, if any. It returns at once; Send returns
// when the turn has stopped.
func (s *Session) Cancel() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		s.cancel()
	}
}

// Close cancels a running turn, waits for it, revokes every grant and tool
// access of the session, journals the session closed — or failed, when its
// last turn failed — and gives back its registry generation (an older
// generation's providers end with its last session). Closing twice is
// harmless. From the moment Close begins, ResumeSession of the session
// waits for it to end and then reopens it from the journal.
func (s *Session) Close() error {
	s.beginClose()
	s.turnMu.Lock()
	defer s.turnMu.Unlock()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	failure := s.failure
	s.mu.Unlock()
	defer close(s.done)
	s.revokeAll()
	status := journal.SessionClosed
	if failure != "" {
		status = journal.SessionFailed
	}
	err := s.rt.journal.FinishSession(context.Background(), s.id, status, failure)
	// Only now does it leave the registry: a resume meanwhile finds it
	// closing and waits for done, so it reopens the row closed here.
	s.rt.mu.Lock()
	delete(s.rt.sessions, s.id)
	s.rt.mu.Unlock()
	s.rt.release(s.gen)
	return err
}

// CloseAsync begins Close now and finishes it on another goroutine; the
// channel yields Close's error. For a caller that must not wait (the stdio
// protocol's read loop) but must order the close before what it reads
// next: a resume that follows waits for this close.
func (s *Session) CloseAsync() <-chan error {
	s.beginClose()
	errc := make(chan error, 1)
	go func() { errc <- s.Close() }()
	return errc
}

// beginClose marks the session closing and cancels its running turn.
func (s *Session) beginClose() {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.Cancel()
}

// closingDone returns a channel closed when the session's Close has ended,
// or nil when no Close has begun.
func (s *Session) closingDone() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closing {
		return nil
	}
	return s.done
}

// Grants lists the session's "allow for this session" answers, by tool
// (docs/consent.md#grants); they are held in memory and end with the
// session.
func (s *Session) Grants() []consent.Grant {
	return s.consent.Grants(s.id)
}

// RevokeGrant drops the session's grant of one tool (qualified name): its
// next call asks again. A tool with no grant is a no-op.
func (s *Session) RevokeGrant(tool string) {
	s.consent.Revoke(s.id, tool)
}

// revokeAll drops the session's grants and calls Revoke on every selected
// native tool that implements it.
func (s *Session) revokeAll() {
	s.consent.Revoke(s.id)
	for _, t := range s.res.Tools {
		if r, ok := t.native.(tool.Revoker); ok {
			r.Revoke(s.id)
		}
	}
}

// provider returns the running MCP provider of namespace ns in the
// session's registry generation.
func (s *Session) provider(ctx context.Context, ns string) (*mcp.Provider, error) {
	return s.rt.provider(ctx, s.gen, ns, useFor(s.opts.Workspace, s.opts.DefaultWorkspace, s.res.Bundle)(ns))
}
