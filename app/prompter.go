package app

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/tool"
)

// PendingApproval is a consent prompt waiting for the person (docs/consent.md).
type PendingApproval struct {
	ID       string          `json:"id"`
	Request  consent.Request `json:"request"`
	Deadline time.Time       `json:"deadline"` // when it is taken as a deny; zero if none
}

// ApprovalClosed says a prompt is over: answered, timed out or cancelled.
type ApprovalClosed struct {
	ID        string           `json:"id"`
	SessionID string           `json:"session_id"`
	Decision  consent.Decision `json:"decision"`
	Reason    string           `json:"reason"`
}

// ErrNoSuchApproval is returned by Respond for an id that is not waiting
// (already answered, timed out, or never asked).
var ErrNoSuchApproval = errors.New("this approval is no longer waiting (it was answered, timed out or cancelled)")

// modalPrompter is the in-app consent.Prompter: it sends the prompt to the
// UI as EventApprovalRequest, raises a native notification when the window
// is not focused, and waits for Respond. When ctx ends (the engine's
// timeout, or a cancelled turn) the prompt closes as a deny. Safe for
// concurrent use; several prompts may wait at once.
type modalPrompter struct {
	emit    Emitter
	notify  Notifier
	focused func() bool

	mu      sync.Mutex
	pending map[string]*waiting
}

type waiting struct {
	p      PendingApproval
	answer chan consent.Decision // buffered, 1
}

func newModalPrompter(emit Emitter, notify Notifier, focused func() bool) *modalPrompter {
	return &modalPrompter{emit: emit, notify: notify, focused: focused, pending: map[string]*waiting{}}
}

// Prompt implements consent.Prompter.
func (m *modalPrompter) Prompt(ctx context.Context, req consent.Request) (consent.Decision, error) {
	w := &waiting{p: PendingApproval{ID: journal.NewID("apr_"), Request: req}, answer: make(chan consent.Decision, 1)}
	if d, ok := ctx.Deadline(); ok {
		w.p.Deadline = d.UTC()
	}
	m.mu.Lock()
	m.pending[w.p.ID] = w
	m.mu.Unlock()
	m.emit.Emit(EventApprovalRequest, w.p)
	if m.notify != nil && (m.focused == nil || !m.focused()) {
		who := req.CoworkerName
		if who == "" {
			who = req.Coworker
		}
		// Tool arguments stay out of the notification: it may be shown on a
		// lock screen. The window shows them.
		// In the background: a slow notification daemon must not delay the
		// modal, and the prompt's deadline still bounds the wait.
		where := ""
		if req.Placement != "" && !tool.IsLocalPlacement(req.Placement) {
			where = " on " + req.Placement // a remote host: say so before the window is even seen
		}
		body := fmt.Sprintf("%s wants to run %s%s.", who, req.Tool, where)
		if req.Sampling != nil {
			body = samplingNotice(req) // sampling.go
		}
		go func() {
			_ = m.notify.Notify("OpenWorker needs your approval", body)
		}()
	}
	select {
	case d := <-w.answer:
		m.emit.Emit(EventApprovalClosed, ApprovalClosed{ID: w.p.ID, SessionID: req.SessionID, Decision: d, Reason: "answered"})
		return d, nil
	case <-ctx.Done():
		m.mu.Lock()
		delete(m.pending, w.p.ID)
		m.mu.Unlock()
		reason := "the turn was cancelled"
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			reason = "nobody answered in time; denied"
		}
		m.emit.Emit(EventApprovalClosed, ApprovalClosed{ID: w.p.ID, SessionID: req.SessionID, Decision: consent.Deny, Reason: reason})
		return consent.Deny, ctx.Err()
	}
}

// Respond answers the prompt id. It fails with ErrNoSuchApproval when the
// prompt is not waiting, for a decision that is not one of the four
// answers of docs/consent.md, and for allow_session or allow_always on a
// sampling prompt (docs/consent.md#sampling; the prompt stays open).
func (m *modalPrompter) Respond(id string, d consent.Decision) error {
	if _, err := consent.ParseDecision(string(d)); err != nil {
		return err
	}
	m.mu.Lock()
	w, ok := m.pending[id]
	if ok && w.p.Request.Sampling != nil && d != consent.AllowOnce && d != consent.Deny {
		m.mu.Unlock()
		return errSamplingOnce(d) // sampling.go
	}
	delete(m.pending, id)
	m.mu.Unlock()
	if !ok {
		return ErrNoSuchApproval
	}
	w.answer <- d
	return nil
}

// Pending returns the prompts waiting now, oldest first.
func (m *modalPrompter) Pending() []PendingApproval {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]PendingApproval, 0, len(m.pending))
	for _, w := range m.pending {
		out = append(out, w.p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
