package consent

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// DefaultPromptTimeout is how long an unanswered prompt waits before it is
// taken as a deny (docs/consent.md).
const DefaultPromptTimeout = 5 * time.Minute

// Sources of an outcome, as journaled.
const (
	SourceManifest = "policy:manifest"
	SourceUser     = "policy:user"
	SourceGrant    = "grant"
	SourcePrompt   = "prompt"
	SourceBypass   = "bypass"
	SourceTimeout  = "timeout"
	SourceError    = "prompt_error"
	// SourceSkills decides a call to a tool the harness gives a
	// coworker with skills (skills.load, skills.read): they read the
	// coworker's own files, so no one is asked and no policy applies
	// (docs/consent.md#skills).
	SourceSkills = "skills"
	// SourceParked: the prompter parked the question (ErrParked): the run
	// stops here and continues once the person answers
	// (docs/inbox.md#unattended). No decision is journaled for it.
	SourceParked = "parked"
)

// Outcome is the decision for one call and why.
type Outcome struct {
	Decision Decision
	Source   string // one of the Source constants
	Reason   string // for the journal and, on deny, for the model
}

// Engine decides calls for the sessions of one runtime. Deny always wins:
// a deny policy beats every grant, allow policy and Bypass. It is safe for
// concurrent use.
type Engine struct {
	Mode     Mode
	Prompter Prompter      // nil in Ask mode means every prompt is denied
	Timeout  time.Duration // per prompt; 0 means DefaultPromptTimeout
	Store    PolicyStore   // may be nil: no saved user policies

	mu     sync.Mutex
	grants map[grantKey]bool
}

type grantKey struct{ session, tool, digest string }

// Subject identifies what a decision is about.
type Subject struct {
	Request
	Policies map[string]string // the manifest's policy map
	Digest   string            // descriptor digest the approval binds to
	// OnPrompt, when set, is called just before the Prompter is asked
	// (only when no policy, grant or Bypass decided).
	OnPrompt func()
}

// Decide returns the outcome for one call. It prompts only when no policy or
// grant decides and the mode is Ask.
func (e *Engine) Decide(ctx context.Context, s Subject) Outcome {
	var up Policy
	var ignored error
	if e.Store != nil {
		p, ok, err := e.Store.UserPolicy(ctx, s.Coworker, s.Tool, s.Digest)
		switch {
		case err != nil:
			ignored = err
		case ok:
			up = Policy(p)
		}
	}
	out := e.decide(ctx, s, up)
	if ignored != nil {
		// A saved policy the store could not vouch for (for example a row
		// written outside the journal's hash chain) is ignored: say so.
		out.Reason += "; a saved policy was ignored: " + ignored.Error()
	}
	return out
}

// decide decides from the policies (up is the person's saved one), the
// session's grants and the mode, and asks the Prompter when none decides.
func (e *Engine) decide(ctx context.Context, s Subject, up Policy) Outcome {
	if out, ok := e.standing(s, up); ok {
		return out
	}
	if e.Prompter == nil {
		return Outcome{Deny, SourceError, "no one can be asked for approval; the call is denied"}
	}
	timeout := e.Timeout
	if timeout <= 0 {
		timeout = DefaultPromptTimeout
	}
	if s.OnPrompt != nil {
		s.OnPrompt()
	}
	pctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	d, err := e.Prompter.Prompt(pctx, s.Request)
	if err != nil || !d.Valid() {
		return unanswered(ctx, pctx, d, err, timeout)
	}
	return e.answered(ctx, s, d)
}

// standing is the outcome that needs no prompt, in precedence order: a
// deny policy, an allow policy (the manifest's before the person's), a
// session grant, bypass mode. ok is false when none decides.
func (e *Engine) standing(s Subject, up Policy) (out Outcome, ok bool) {
	mp := ManifestPolicy(s.Policies, s.Tool)
	switch {
	case mp == PolicyDeny:
		return Outcome{Deny, SourceManifest, fmt.Sprintf("the coworker's manifest denies %s", s.Tool)}, true
	case up == PolicyDeny:
		return Outcome{Deny, SourceUser, fmt.Sprintf("you chose Never for %s in chats with this coworker (revoke it in Settings, Permissions)", s.Tool)}, true
	case mp == PolicyAllow:
		return Outcome{AllowOnce, SourceManifest, fmt.Sprintf("the coworker's manifest allows %s", s.Tool)}, true
	case up == PolicyAllow:
		return Outcome{AllowOnce, SourceUser, fmt.Sprintf("you chose to always allow %s for this coworker", s.Tool)}, true
	case e.granted(s):
		return Outcome{AllowOnce, SourceGrant, "allowed for this session"}, true
	case e.Mode == Bypass:
		return Outcome{AllowOnce, SourceBypass, "approval mode is bypass"}, true
	}
	return Outcome{}, false
}

// unanswered is the denial of a prompt that failed (err) or answered
// something that is not a decision (d); pctx is the prompt's bound.
func unanswered(ctx, pctx context.Context, d Decision, err error, timeout time.Duration) Outcome {
	switch {
	case errors.Is(err, ErrParked):
		return Outcome{Deny, SourceParked, err.Error()}
	case err != nil && errors.Is(pctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil:
		return Outcome{Deny, SourceTimeout, fmt.Sprintf("nobody answered within %s; the call is denied", timeout)}
	case err != nil && ctx.Err() != nil:
		return Outcome{Deny, SourceError, "the turn was cancelled before an answer"}
	case err != nil:
		return Outcome{Deny, SourceError, err.Error()}
	}
	return Outcome{Deny, SourceError, fmt.Sprintf("the prompter answered %q, which is not a decision; the call is denied", d)}
}

// answered applies the person's decision d: a session grant, and for
// always a saved allow policy.
func (e *Engine) answered(ctx context.Context, s Subject, d Decision) Outcome {
	switch d {
	case AllowSession:
		e.grant(s)
	case AllowAlways:
		e.grant(s)
		if e.Store != nil {
			if err := e.Store.SaveUserPolicy(ctx, s.Coworker, s.Tool, s.Digest, string(PolicyAllow)); err != nil {
				return Outcome{d, SourcePrompt, "allowed; saving the policy failed: " + err.Error()}
			}
		}
	case Deny:
		return Outcome{Deny, SourcePrompt, "you denied this call"}
	case DenyAlways:
		return e.never(ctx, s)
	}
	return Outcome{d, SourcePrompt, "you allowed this call"}
}

// never applies a "Never" answer: the call is denied and a deny policy is
// saved for the coworker, tool and digest, so later calls are refused
// without a prompt (standing: a user deny). The outcome is Deny: the
// model gets the refusal as any denied call.
func (e *Engine) never(ctx context.Context, s Subject) Outcome {
	why := fmt.Sprintf("you chose Never for %s in chats with this coworker", s.Tool)
	if e.Store == nil {
		return Outcome{Deny, SourcePrompt, why + "; it could not be saved (no policy store), so it asks again next time"}
	}
	if err := e.Store.SaveUserPolicy(ctx, s.Coworker, s.Tool, s.Digest, string(PolicyDeny)); err != nil {
		return Outcome{Deny, SourcePrompt, why + "; saving it failed: " + err.Error()}
	}
	return Outcome{Deny, SourcePrompt, why}
}

func (e *Engine) granted(s Subject) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.grants[grantKey{s.SessionID, s.Tool, s.Digest}]
}

func (e *Engine) grant(s Subject) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.grants == nil {
		e.grants = map[grantKey]bool{}
	}
	e.grants[grantKey{s.SessionID, s.Tool, s.Digest}] = true
}

// Revoke drops every grant of a session (on cancel and close), or only the
// grants of the named tools when tools is non-empty (a changed catalog).
func (e *Engine) Revoke(sessionID string, tools ...string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	only := map[string]bool{}
	for _, t := range tools {
		only[t] = true
	}
	for k := range e.grants {
		if k.session == sessionID && (len(tools) == 0 || only[k.tool]) {
			delete(e.grants, k)
		}
	}
}

// Grant is one "allow for this session" answer held in memory: the tool
// (qualified name) and the descriptor digest it binds to. Grants end with
// the session, a cancelled turn or a changed descriptor (docs/consent.md).
type Grant struct {
	Tool   string `json:"tool"`
	Digest string `json:"digest"`
}

// Grants lists the session's grants, by tool name.
func (e *Engine) Grants(sessionID string) []Grant {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := []Grant{}
	for k := range e.grants {
		if k.session == sessionID {
			out = append(out, Grant{Tool: k.tool, Digest: k.digest})
		}
	}
	slices.SortFunc(out, func(a, b Grant) int { return cmp.Or(cmp.Compare(a.Tool, b.Tool), cmp.Compare(a.Digest, b.Digest)) })
	return out
}

// Granted reports whether a session grant exists for the tool and digest.
func (e *Engine) Granted(sessionID, tool, digest string) bool {
	return e.granted(Subject{Request: Request{SessionID: sessionID, Tool: tool}, Digest: digest})
}
