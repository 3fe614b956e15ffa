package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/tool"
)

// Session is one conversation with one coworker. Its turns run one at a
// time; Send from two goroutines waits. Close revokes every grant.
type Session struct {
	rt       *Runtime
	id       string
	res      *Resolution
	identity string
	parts    consent.IdentityParts

	turnMu  sync.Mutex // one turn at a time
	mu      sync.Mutex
	history []model.Message
	seq     int
	cancel  context.CancelFunc // of the running turn
	closed  bool
	failure string // why the last turn failed, or ""
}

// ErrSessionClosed is returned by Send on a closed session.
var ErrSessionClosed = errors.New("session is closed")

// NewSession opens a session with the coworker whose bundle id is given: it
// loads the bundle, resolves its selection (starting MCP providers),
// checks every alias against the model provider's tool-name rules, pins the
// execution identity and journals the session.
func (rt *Runtime) NewSession(ctx context.Context, coworker string) (*Session, error) {
	if rt.opts.Model == nil {
		return nil, errors.New("no model provider is configured")
	}
	if rt.journal == nil {
		return nil, errors.New("no journal is open; set Options.Journal or Options.DBPath")
	}
	set, err := rt.Bundles()
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
		return nil, fmt.Errorf("no coworker %q in %s (found: %s)", coworker, rt.opts.Coworkers, strings.Join(ids, ", "))
	}
	res, err := rt.Resolve(ctx, b)
	if err != nil {
		return nil, err
	}
	for _, t := range res.Tools {
		if err := rt.opts.Model.CheckToolName(t.Alias); err != nil {
			return nil, fmt.Errorf("coworker %q selects %q: %w", b.ID, t.Name, err)
		}
	}
	parts, err := rt.identityParts(res)
	if err != nil {
		return nil, err
	}
	identity, canon, err := consent.Identity(parts)
	if err != nil {
		return nil, err
	}
	s := &Session{rt: rt, id: journal.NewID("ses_"), res: res, identity: identity, parts: parts}
	err = rt.journal.CreateSession(ctx, journal.Session{
		ID: s.id, Coworker: b.ID, CoworkerVersion: b.Version, Identity: identity, IdentityParts: json.RawMessage(canon),
		Provider: rt.opts.Model.Name(), Model: rt.opts.Model.Describe(), Approve: string(rt.opts.Approve),
	})
	if err != nil {
		return nil, fmt.Errorf("journal the session: %w", err)
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.closed {
		return nil, errors.New("runtime is closed")
	}
	rt.sessions[s.id] = s
	return s, nil
}

// ID returns the session id ("ses_...").
func (s *Session) ID() string { return s.id }

// Identity returns the pinned execution identity ("sha256:<hex>").
func (s *Session) Identity() string { return s.identity }

// Coworker returns the bundle id of the session's coworker.
func (s *Session) Coworker() string { return s.res.Bundle.ID }

// Tools returns the resolved selection the model sees.
func (s *Session) Tools() []ResolvedTool { return append([]ResolvedTool(nil), s.res.Tools...) }

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
// access of the session, and journals the session closed — or failed, when
// its last turn failed. Closing twice is harmless.
func (s *Session) Close() error {
	s.Cancel()
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
	s.revokeAll()
	s.rt.mu.Lock()
	delete(s.rt.sessions, s.id)
	s.rt.mu.Unlock()
	if failure != "" {
		return s.rt.journal.FinishSession(context.Background(), s.id, "failed", failure)
	}
	return s.rt.journal.FinishSession(context.Background(), s.id, "closed", "")
}

// revokeAll drops the session's grants and calls Revoke on every selected
// native tool that implements it.
func (s *Session) revokeAll() {
	s.rt.consent.Revoke(s.id)
	for _, t := range s.res.Tools {
		if r, ok := t.native.(tool.Revoker); ok {
			r.Revoke(s.id)
		}
	}
}
