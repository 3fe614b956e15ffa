package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/tool"
)

// Sampling (docs/mcp.md#sampling): an MCP server asks the session's model
// for a completion during a call. Only a provider the coworker's manifest
// lists under "sampling" is started with the capability (its own process,
// mcp.Use); a request is answered only within a running call of a session
// whose coworker allows the asking provider, at most MaxSamplingPerCall
// per call, each one counting as one of the turn's provider attempts. Each
// request is a consent prompt (consent.Request.Sampling) that Bypass never
// answers; the model answers with no tools and at most MaxSamplingTokens.
// Each request is journaled as an invocation of SamplingTool: Provider
// names who asked, CallID the asking call's invocation, Arguments what was
// sent, Result the answer with its token counts, the approval row the
// decision.
const (
	// SamplingTool is the reserved tool name of a sampling request's
	// invocation row (the "openworker" namespace is reserved).
	SamplingTool = "openworker.sampling"
	// MaxSamplingPerCall bounds the sampling requests of one call; the
	// rest are refused without asking.
	MaxSamplingPerCall = 10
	// MaxSamplingTokens caps a request's maxTokens.
	MaxSamplingTokens = 4096
	// MaxSamplingBytes bounds the text of a request's messages and system
	// prompt (64 KiB); a larger request is refused.
	MaxSamplingBytes = 64 << 10
)

// Events of a sampling request (Invocation: the asking call's; Status the
// decision or outcome, Source who decided, Text why).
const (
	EventSamplingRequested EventType = "sampling.requested"
	EventSamplingFinished  EventType = "sampling.finished"
)

// useFor returns how the providers of a session with workspace and
// coworker b run: the workspace as root unless noRoot (rootless),
// sampling for the namespaces b allows.
func useFor(workspace string, noRoot bool, b *bundle.Bundle) func(ns string) mcp.Use {
	return func(ns string) mcp.Use {
		return mcp.Use{Workspace: workspace, NoRoot: noRoot && workspace != "", Sampling: b.AllowsSampling(ns)}
	}
}

// samplingBudget counts a turn's sampling requests (they run on the
// calls' goroutines).
type samplingBudget struct {
	mu   sync.Mutex
	used int
}

func (b *samplingBudget) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// callSampler is the mcp.Sampler of one call.
type callSampler struct {
	t               *turn
	inv, callID, nm string // the asking invocation, the model's call id, the qualified tool name
	mu              sync.Mutex
	asked           int
}

func (t *turn) sampler(inv, callID, tool string) *callSampler {
	return &callSampler{t: t, inv: inv, callID: callID, nm: tool}
}

type samplingRefusal struct{ code, msg string }

func (r *samplingRefusal) Error() string { return r.msg }

// Refused journals a request refused before anyone saw it (tools).
func (c *callSampler) Refused(q mcp.Sampled, why error) {
	c.mu.Lock()
	c.asked++
	seq := c.asked
	c.mu.Unlock()
	sr := c.request(q, seq, 0)
	c.refuse(sr, journal.NewID("inv_"), "tools_refused", why.Error(), nil)
}

// Sample asks the person, then the session's model; see the rules above.
func (c *callSampler) Sample(ctx context.Context, q mcp.Sampled) (mcp.Sampling, error) {
	c.mu.Lock() // one request of a call at a time
	defer c.mu.Unlock()
	c.asked++
	seq := c.asked
	t, s := c.t, c.t.s
	id := journal.NewID("inv_")
	maxTokens := int(min(max(q.MaxTokens, 0), MaxSamplingTokens))
	if maxTokens == 0 {
		maxTokens = MaxSamplingTokens
	}
	sr := c.request(q, seq, maxTokens)
	t.sink.emit(Event{Type: EventSamplingRequested, SessionID: s.id, TurnID: t.id, CallID: c.callID, Invocation: c.inv, Tool: c.nm})
	if code, msg := c.refusal(q, sr, seq); code != "" {
		return mcp.Sampling{}, c.refuse(sr, id, code, msg, nil)
	}
	approval := c.ask(ctx, q, sr, id)
	if approval.Decision == string(consent.Deny) {
		return mcp.Sampling{}, c.refuse(sr, id, "denied", approval.Reason, approval)
	}
	inv := c.row(sr, id)
	bg := context.WithoutCancel(ctx)
	if err := s.rt.journal.BeginInvocation(bg, inv, approval); err != nil {
		s.rt.opts.Logger.Error("journal sampling request", "invocation", id, "err", err)
		return mcp.Sampling{}, errors.New("the journal failed; the sampling request was not sent")
	}
	out, fin, err := c.complete(ctx, sr)
	if jerr := s.rt.journal.FinishInvocation(bg, id, fin); jerr != nil {
		s.rt.opts.Logger.Error("journal sampling answer", "invocation", id, "err", jerr)
	}
	t.sink.emit(Event{Type: EventSamplingFinished, SessionID: s.id, TurnID: t.id, CallID: c.callID, Invocation: c.inv, Tool: c.nm,
		Status: string(fin.Status), Source: approval.Source, Text: fin.Error})
	if err != nil {
		return mcp.Sampling{}, fmt.Errorf("the model did not answer: %v", err)
	}
	return out, nil
}

// refusal is the code and message of the rule the request breaks, checked
// before anyone is asked, or "" for none. Passing the attempt budget's
// check takes an attempt.
func (c *callSampler) refusal(q mcp.Sampled, sr consent.SamplingRequest, seq int) (code, msg string) {
	t, s := c.t, c.t.s
	size := len(sr.SystemPrompt)
	for _, m := range sr.Messages {
		size += len(m.Text)
	}
	switch {
	case !s.res.Bundle.AllowsSampling(q.Namespace):
		return "not_allowed", fmt.Sprintf("coworker %q does not allow %s to use sampling; list it under \"sampling\" in its manifest (docs/bundles.md#sampling)", s.res.Bundle.ID, q.Namespace)
	case seq > MaxSamplingPerCall:
		return "limit_exceeded", fmt.Sprintf("the call sent more than %d sampling requests; the rest are refused without asking", MaxSamplingPerCall)
	case size > MaxSamplingBytes:
		return "limit_exceeded", fmt.Sprintf("the request holds %d bytes of text; at most %d are sent to the model", size, MaxSamplingBytes)
	case len(sr.Messages) == 0:
		return "invalid_arguments", "the request has no messages"
	case !t.takeAttempt():
		return "over_budget", fmt.Sprintf("the turn used its budget of %d provider attempts; a sampling request counts as one", s.rt.opts.MaxAttempts)
	case s.opts.Prompter == nil:
		return "denied", "no one can be asked to approve the sampling request (bypass mode does not approve it)"
	}
	return "", ""
}

// ask puts the request to the person and returns the approval row of
// their answer: any allow is once, and no answer is a denial.
func (c *callSampler) ask(ctx context.Context, q mcp.Sampled, sr consent.SamplingRequest, id string) *journal.Approval {
	t, s := c.t, c.t.s
	args, _ := json.Marshal(sr)
	req := consent.Request{SessionID: s.id, TurnID: t.id, CallID: c.callID, Coworker: s.res.Bundle.ID, CoworkerName: s.res.Bundle.Name,
		Tool: c.nm, Description: fmt.Sprintf("%s asks your model for a completion", q.Namespace), Provider: "mcp:" + q.Namespace,
		Placement: tool.PlacementLocal, Classification: "sampling", Risk: string(tool.ReadOnly), Arguments: args, Sampling: &sr}
	pctx, cancel := context.WithTimeout(ctx, consent.DefaultPromptTimeout)
	d, err := s.opts.Prompter.Prompt(pctx, req)
	cancel()
	approval := &journal.Approval{SessionID: s.id, TurnID: t.id, InvocationID: id, CallID: c.inv, Tool: SamplingTool, Scope: "call", Identity: s.identity}
	switch {
	case err != nil && ctx.Err() != nil:
		approval.Decision, approval.Source, approval.Reason = string(consent.Deny), consent.SourceTimeout, "nobody answered before the call's bound; the sampling request is refused"
	case err != nil:
		approval.Decision, approval.Source, approval.Reason = string(consent.Deny), consent.SourceError, err.Error()
	case !d.Allows():
		approval.Decision, approval.Source, approval.Reason = string(consent.Deny), consent.SourcePrompt, "you denied the sampling request"
	default: // any allow is once: no grant, no saved policy
		approval.Decision, approval.Source, approval.Reason = string(consent.AllowOnce), consent.SourcePrompt, "you allowed this sampling request"
	}
	return approval
}

// complete sends the request to the session's model and returns the
// answer for the server, the invocation's finish and the model's error.
func (c *callSampler) complete(ctx context.Context, sr consent.SamplingRequest) (mcp.Sampling, journal.Finish, error) {
	s := c.t.s
	msgs := make([]model.Message, 0, len(sr.Messages))
	for _, m := range sr.Messages {
		role := model.User
		if m.Role == "assistant" {
			role = model.Assistant
		}
		msgs = append(msgs, model.Message{Role: role, Text: m.Text})
	}
	started := time.Now()
	resp, err := s.model().Stream(ctx, model.Request{System: sr.SystemPrompt, Messages: msgs, MaxTokens: sr.MaxTokens}, nil)
	fin := journal.Finish{DurationMS: time.Since(started).Milliseconds(), Effect: journal.EffectNotApplied}
	out := mcp.Sampling{Text: resp.Text, Model: s.model().Describe(), StopReason: "endTurn"}
	switch {
	case err != nil:
		merr := &ModelError{Provider: s.model().Describe(), Err: err}
		fin.Status, fin.ErrorCode, fin.Error = StatusFailed, merr.Code(), merr.Error()
	case len(resp.ToolCalls) > 0:
		err = errors.New("the model asked for a tool, but a sampling request has none")
		fin.Status, fin.ErrorCode, fin.Error = StatusFailed, "tool_failure", err.Error()
	default:
		fin.Status, fin.Effect = StatusSucceeded, ""
		if resp.StopReason == "length" || resp.StopReason == "max_tokens" {
			out.StopReason = "maxTokens"
		}
		fin.Result, _ = json.Marshal(map[string]any{"text": resp.Text, "model": out.Model, "stop_reason": out.StopReason,
			"input_tokens": resp.InputTokens, "output_tokens": resp.OutputTokens})
	}
	return out, fin, err
}

// takeAttempt counts one sampling request against the turn's provider
// attempts, or reports that none is left.
func (t *turn) takeAttempt() bool {
	b := &t.sampling
	b.mu.Lock()
	defer b.mu.Unlock()
	if t.attempts+b.used >= t.s.rt.opts.MaxAttempts {
		return false
	}
	b.used++
	return true
}

func (c *callSampler) request(q mcp.Sampled, seq, maxTokens int) consent.SamplingRequest {
	sr := consent.SamplingRequest{Namespace: q.Namespace, ServerName: q.ServerName, SystemPrompt: q.SystemPrompt, MaxTokens: maxTokens,
		AskedMaxTokens: q.MaxTokens, Model: c.t.s.model().Describe(), Invocation: c.inv, Seq: seq}
	for _, m := range q.Messages {
		sr.Messages = append(sr.Messages, consent.SamplingMessage{Role: m.Role, Text: m.Text})
	}
	return sr
}

// row is the invocation row of a sampling request.
func (c *callSampler) row(sr consent.SamplingRequest, id string) journal.Invocation {
	args, _ := json.Marshal(sr)
	s := c.t.s
	return journal.Invocation{ID: id, SessionID: s.id, TurnID: c.t.id, CallID: c.inv, Tool: SamplingTool, Provider: "mcp:" + sr.Namespace,
		RemoteName: "sampling/createMessage", Placement: tool.PlacementLocal, Risk: string(tool.ReadOnly), Arguments: args}
}

// refuse journals a refused request and returns the error for the server.
func (c *callSampler) refuse(sr consent.SamplingRequest, id, code, msg string, a *journal.Approval) error {
	s, t := c.t.s, c.t
	inv := c.row(sr, id)
	inv.Status, inv.ErrorCode, inv.Error = StatusRefused, code, msg
	if err := s.rt.journal.RefuseInvocation(context.Background(), inv, a); err != nil {
		s.rt.opts.Logger.Error("journal refused sampling request", "invocation", id, "err", err)
	}
	source := ""
	if a != nil {
		source = a.Source
	}
	t.sink.emit(Event{Type: EventSamplingFinished, SessionID: s.id, TurnID: t.id, CallID: c.callID, Invocation: c.inv, Tool: c.nm,
		Status: string(StatusRefused), Code: code, Source: source, Text: msg})
	return &samplingRefusal{code: code, msg: msg}
}

// straySampling logs a request no running call sent (refused; there is no
// session to journal it in).
func (rt *Runtime) straySampling(q mcp.Sampled, why string) {
	rt.opts.Logger.Warn("sampling request refused: no running call", "namespace", q.Namespace, "why", why)
}
