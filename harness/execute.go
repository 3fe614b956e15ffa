package harness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/internal/jsonenc"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/tool"
)

// Invocation statuses (docs/journal.md), plus "refused" for a call stopped before
// any I/O: the journal's (see journal.InvocationStatus), as journaled and
// reported in EventToolFinished.
const (
	StatusSucceeded = journal.InvSucceeded
	StatusFailed    = journal.InvFailed
	StatusUnknown   = journal.InvUnknown
	StatusRefused   = journal.InvRefused
)

// Image bounds for tool results forwarded to the model.
const (
	MaxImages     = 4
	MaxImageBytes = 5 << 20
)

// call handles one tool call of the model: selection, validation, budget,
// consent, the durable executing row, exactly one provider call under
// limits, and the terminal row (execCall). It returns the tool message for
// the model. A breach that must stop the turn sets t.stop. A tool whose
// view visibility lacks "model" is not selected for the model
// (docs/mcp-apps.md#view-calls).
func (t *turn) call(ctx context.Context, call model.ToolCall, index int) model.Message {
	s := t.s
	rtool, selected := s.res.ByAlias(call.Name)
	if selected && !rtool.Descriptor.UI.VisibleTo(tool.VisibleToModel) {
		rtool = nil
	}
	if !selected {
		rtool = nil
	}
	d := t.execCall(ctx, callReq{
		invID: journal.NewID("inv_"), callID: call.ID, alias: call.Name, rawArgs: call.Arguments, rtool: rtool,
		// Every tool call of the model counts against the budget, refused ones
		// too: a model repeating a bad call cannot make the turn journal
		// refusals without end.
		budget: func() (string, string) {
			if t.proposed >= s.rt.opts.MaxCalls {
				t.stop = fmt.Sprintf("the turn used its budget of %d tool calls", s.rt.opts.MaxCalls)
				return "over_budget", t.stop + "; this call was not run"
			}
			t.proposed++
			return "", ""
		},
		notSelected: notSelectedText(call.Name),
		forModel:    true,
	})
	return model.Message{Role: model.ToolRole, ToolCallID: call.ID, ToolName: call.Name, Text: d.text, IsError: d.isErr, Images: d.images}
}

// callReq is one tool call to run, asked by the model or by an app view
// (docs/mcp-apps.md#view-calls).
type callReq struct {
	invID, callID string
	alias         string        // the name as asked: the model's alias, or the remote name a view used
	rawArgs       string        // the arguments as asked
	rtool         *ResolvedTool // nil: the name names no tool the asker may call
	// origin is journaled and reported with the call: "" for the model,
	// "view:<invocation id>" for a view; originText is what the consent
	// prompt says ("the app view of kit.show").
	origin, originText string
	// budget is checked first; a code refuses the call.
	budget func() (code, msg string)
	// notSelected is the refusal's message when rtool is nil.
	notSelected string
	// gate, when set, is checked after selection; a code refuses the call.
	gate func(*ResolvedTool) (code, msg string)
	// forModel: images of the result are forwarded to the model.
	forModel bool
	// answered, when set, is the decision of a parked call's inbox item
	// (park.go): the person is not asked again.
	answered *journal.Approval
}

// callDone is how a call ended: its status and code, the text the model is
// told, and the result (of a succeeded call, or a failed one with a result).
type callDone struct {
	status    journal.InvocationStatus
	code      string
	errMsg    string
	text      string
	isErr     bool
	output    tool.Output
	images    []model.Image
	journaled bool // an invocation row exists
}

// execCall runs one call of r: the model path, shared by view calls. Its
// phases, in order: the proposal is reported; the call is admitted
// (budget, selection, descriptor, arguments) and consented to, or refused
// with one journal commit; the executing row is committed durably before
// the provider is called (begin); exactly one provider call runs under
// the limits; then the terminal row is journaled and the result
// reported (finish).
func (t *turn) execCall(ctx context.Context, r callReq) callDone {
	x := t.propose(ctx, r)
	if code, msg := x.admit(ctx); code != "" {
		return x.refuse(code, msg)
	}
	consented := x.consent
	if r.answered != nil { // a parked call, answered in the inbox (park.go)
		consented = func(context.Context) (string, string) { return x.consentFromInbox() }
	}
	if code, msg := consented(ctx); code == parkedCode {
		return x.park(msg)
	} else if code != "" {
		return x.refuse(code, msg)
	}
	if done, ok := x.begin(); !ok {
		return done
	}
	started := time.Now()
	output, err := x.run(ctx)
	return x.finish(ctx, output, err, time.Since(started))
}

// execution is one call of execCall on its way through its phases.
type execution struct {
	t  *turn
	s  *Session
	r  callReq
	bg context.Context // the journal's: its writes outlive a cancelled turn
	// name is the journaled tool name: "" for an alias that names no
	// selected tool.
	name string
	// args are the arguments as journaled and reported: as asked (a JSON
	// string when they are not JSON), normalized once validated.
	args json.RawMessage
	// desc is the descriptor consent was asked for (read once, as the
	// consent phase starts): the call is journaled and judged with it.
	desc tool.Descriptor
	// approval is the consent decision, journaled with the refused or
	// begun invocation; nil before consent.
	approval *journal.Approval
}

// propose starts the execution of r and reports the proposed call.
func (t *turn) propose(ctx context.Context, r callReq) *execution {
	x := &execution{t: t, s: t.s, r: r, bg: context.WithoutCancel(ctx), args: json.RawMessage(r.rawArgs)}
	if !json.Valid(x.args) {
		x.args = mustJSONString(r.rawArgs)
	}
	if r.rtool != nil {
		x.name = r.rtool.Name
	}
	t.sink.emit(Event{Type: EventToolProposed, SessionID: x.s.id, TurnID: t.id, CallID: r.callID, Invocation: r.invID, Alias: r.alias, Arguments: x.args, Origin: r.origin})
	return x
}

// admit checks, before anything is asked or run, that the call may go
// on: within the turn's budget, a selected tool the asker may call, a
// descriptor still listed and unchanged, valid arguments (which it
// normalizes). It returns the refusal's code and message, or "".
func (x *execution) admit(ctx context.Context) (code, msg string) {
	r, rtool := x.r, x.r.rtool
	if code, msg := r.budget(); code != "" {
		return code, msg
	}
	if rtool == nil {
		return "not_selected", r.notSelected
	}
	if r.gate != nil {
		if code, msg := r.gate(rtool); code != "" {
			return code, msg
		}
	}
	if rtool.missing {
		return "descriptor_missing", fmt.Sprintf("the provider no longer lists %s; it cannot run in this session", rtool.Name)
	}
	if why, err := x.t.catalogChanged(ctx, rtool, false); err != nil || why != "" {
		if err != nil {
			why = err.Error()
		}
		return "descriptor_changed", why
	}
	norm, err := validateArgs(rtool, r.rawArgs)
	if err != nil {
		x.args = mustJSONString(r.rawArgs) // journal exactly what was refused
		return "invalid_arguments", err.Error()
	}
	x.args = norm
	return "", ""
}

// consent asks for the call's approval (policies, grants, or the
// person), reports the decision, and rechecks it just before the call
// (docs/consent.md): a prompt may have waited minutes, and the session,
// policies or descriptor may have moved. It returns the refusal's code
// and message, or "".
func (x *execution) consent(ctx context.Context) (code, msg string) {
	s, t, r, rtool := x.s, x.t, x.r, x.r.rtool
	x.desc = rtool.Descriptor
	d := x.desc
	req := consent.Request{SessionID: s.id, TurnID: t.id, CallID: r.callID, Coworker: s.res.Bundle.ID, CoworkerName: s.res.Bundle.Name,
		Tool: rtool.Name, Description: d.Description, Provider: rtool.Provider, Placement: rtool.Placement, Access: rtool.Access, Classification: string(d.Classification), Risk: string(d.Risk), Arguments: x.args,
		Origin: r.originText}
	var out consent.Outcome
	if rtool.skills { // the coworker's own files (skills.go)
		out = skillsOutcome(rtool.Name)
	} else {
		out = s.consent.Decide(ctx, consent.Subject{Request: req, Policies: s.res.Bundle.Policy, Digest: consent.ApprovalDigest(rtool.Pin.Digest, rtool.Placement), OnPrompt: func() {
			t.sink.emit(Event{Type: EventApprovalRequired, SessionID: s.id, TurnID: t.id, CallID: r.callID, Invocation: r.invID, Tool: rtool.Name, Alias: r.alias, Arguments: x.args, Origin: r.origin})
		}})
	}
	if out.Source == consent.SourceParked { // put in the inbox: the turn stops here (park.go)
		t.stop, t.code, t.parkedCall = out.Reason, CodeParked, r.callID
		return parkedCode, out.Reason
	}
	x.approval = &journal.Approval{SessionID: s.id, TurnID: t.id, InvocationID: r.invID, CallID: r.callID, Tool: rtool.Name,
		Decision: string(out.Decision), Source: out.Source, Reason: out.Reason, Identity: s.identity}
	t.sink.emit(Event{Type: EventApprovalDecided, SessionID: s.id, TurnID: t.id, CallID: r.callID, Invocation: r.invID, Tool: rtool.Name, Status: string(out.Decision), Text: out.Reason, Source: out.Source, Origin: r.origin})
	if !out.Decision.Allows() {
		x.stopIfCancelled(ctx)
		return "denied", out.Reason
	}
	if why := t.recheck(ctx, rtool, out.Source == consent.SourcePrompt); why != "" {
		x.stopIfCancelled(ctx)
		return "consent_withdrawn", why
	}
	return "", ""
}

// stopIfCancelled stops the turn when its context was cancelled.
func (x *execution) stopIfCancelled(ctx context.Context) {
	if ctx.Err() != nil {
		x.t.stop = "the turn was cancelled"
	}
}

// refuse journals the call as refused before any I/O (one commit: the
// consent decision, if any, and the refusal), reports it, and returns
// what the model is told: an error (docs/turns.md).
func (x *execution) refuse(code, msg string) callDone {
	s, r, rtool := x.s, x.r, x.r.rtool
	inv := journal.Invocation{ID: r.invID, SessionID: s.id, TurnID: x.t.id, CallID: r.callID, Tool: x.name, Alias: r.alias,
		Arguments: x.args, Status: StatusRefused, ErrorCode: code, Error: msg, Origin: r.origin}
	if rtool != nil {
		inv.Provider, inv.RemoteName, inv.Risk, inv.DescriptorDigest = rtool.Provider, rtool.Remote, string(rtool.Descriptor.Risk), rtool.Pin.Digest
		inv.Placement = rtool.Placement
	}
	journaled := true
	if err := s.rt.journal.RefuseInvocation(x.bg, inv, x.approval); err != nil {
		s.rt.opts.Logger.Error("journal refusal", "invocation", r.invID, "err", err)
		journaled = false
	}
	x.t.sink.emit(Event{Type: EventToolFinished, SessionID: s.id, TurnID: x.t.id, CallID: r.callID, Invocation: r.invID, Tool: x.name, Alias: r.alias, Status: string(StatusRefused), Error: msg, Code: code, Origin: r.origin})
	return callDone{text: code + ": " + msg, isErr: true, status: StatusRefused, code: code, errMsg: msg, journaled: journaled}
}

// begin commits, durably and in one commit, the approval and the
// prepared and executing rows before the provider is called, and reports
// the call started. When the journal fails the call is not run, the turn
// stops, and ok is false.
func (x *execution) begin() (done callDone, ok bool) {
	s, t, r, rtool := x.s, x.t, x.r, x.r.rtool
	t.calls++
	inv := journal.Invocation{ID: r.invID, SessionID: s.id, TurnID: t.id, CallID: r.callID, Tool: rtool.Name, Alias: r.alias, Provider: rtool.Provider,
		RemoteName: rtool.Remote, Placement: rtool.Placement, Risk: string(x.desc.Risk), DescriptorDigest: rtool.Pin.Digest, Arguments: x.args, Origin: r.origin}
	if err := s.rt.journal.BeginInvocation(x.bg, inv, x.approval); err != nil {
		s.rt.opts.Logger.Error("journal approval and executing row", "invocation", r.invID, "err", err)
		if errors.Is(err, journal.ErrAlreadyConsumed) { // a parked call another process resumed first (park.go)
			t.stop = "another OpenWorker process took the answer to this call first; it was not run here"
			return callDone{text: "not run here: " + t.stop, isErr: true, status: StatusFailed, errMsg: t.stop}, false
		}
		t.stop, t.code = "the journal failed: "+err.Error(), CodeJournalFailed
		return callDone{text: "not run: the journal failed", isErr: true, status: StatusFailed, code: CodeJournalFailed, errMsg: "not run: the journal failed: " + err.Error()}, false
	}
	t.sink.emit(Event{Type: EventToolStarted, SessionID: s.id, TurnID: t.id, CallID: r.callID, Invocation: r.invID, Tool: rtool.Name, Alias: r.alias, Arguments: x.args, Origin: r.origin})
	return callDone{}, true
}

// run makes the one provider call (invoke) with its progress reported,
// elicitation and sampling routed to the person and the session's model,
// and the limits applied to what it returns: a breach during the call or
// an output over the limits is its error.
func (x *execution) run(ctx context.Context) (tool.Output, error) {
	s, t, r, rtool := x.s, x.t, x.r, x.r.rtool
	c := tool.NewCall(s.id, t.id, r.callID, s.opts.Workspace, s.rt.opts.Limits, func(msg string, data json.RawMessage) {
		t.sink.emit(Event{Type: EventToolProgress, SessionID: s.id, TurnID: t.id, CallID: r.callID, Invocation: r.invID, Tool: rtool.Name, Text: msg, Data: data, Origin: r.origin})
	})
	cctx := mcp.WithSampler(mcp.WithAsker(ctx, t.asker(r.invID, r.callID, rtool.Name)), t.sampler(r.invID, r.callID, rtool.Name))
	output, err := t.invoke(cctx, rtool, c, x.args, r.invID)
	if err == nil {
		err = c.Breach()
	}
	if err == nil {
		err = checkOutput(output, s.rt.opts.Limits)
	}
	return output, err
}

// finish journals the terminal row of a call that ran (it goes ahead on
// a cancelled turn), reads its app view, reports the call finished, and
// returns what the model is told.
func (x *execution) finish(ctx context.Context, output tool.Output, err error, dur time.Duration) callDone {
	s, t, r, rtool := x.s, x.t, x.r, x.r.rtool
	fin, done, result := x.outcome(ctx, output, err)
	fin.DurationMS = dur.Milliseconds()
	switch jerr := s.rt.journal.FinishInvocation(x.bg, r.invID, fin); {
	case errors.Is(jerr, journal.ErrFinishDeferred):
		// The journal stayed busy: the outcome is kept and written by the
		// journal's next write or at Close (docs/journal.md#busy); the turn
		// goes on, and its next write meets the same journal.
		s.rt.opts.Logger.Warn("journal terminal row kept for later", "invocation", r.invID, "err", jerr)
	case jerr != nil:
		s.rt.opts.Logger.Error("journal terminal row", "invocation", r.invID, "err", jerr)
		t.stop, t.code = "the journal failed: "+jerr.Error(), CodeJournalFailed
	}
	var view *UIResourceRef
	if fin.Status == StatusSucceeded && x.desc.UI != nil {
		view = s.readView(ctx, rtool, r.invID, t.id) // never fails the call (docs/mcp-apps.md#resources)
	}
	t.sink.emit(Event{Type: EventToolFinished, SessionID: s.id, TurnID: t.id, CallID: r.callID, Invocation: r.invID, Tool: rtool.Name, Alias: r.alias,
		Status: string(fin.Status), Text: done.text, Error: fin.Error, DurationMS: fin.DurationMS,
		Structured: result.Structured, Content: result.Content, Images: result.Images, Origin: r.origin, UIResource: view})
	done.status, done.code, done.errMsg, done.journaled = fin.Status, fin.ErrorCode, fin.Error, true
	return done
}

// outcome is how a call that ran ended: succeeded (its images forwarded
// to the model when asked, after consent is rechecked), failed with the
// tool's own error, or failed otherwise, which stops the turn and is
// unknown for a call that may have changed something. It returns the
// terminal row, what the model is told, and what a host is shown of a
// succeeded call.
func (x *execution) outcome(ctx context.Context, output tool.Output, err error) (fin journal.Finish, done callDone, result tool.Output) {
	t, rtool := x.t, x.r.rtool
	var te *tool.ToolError
	switch {
	case err == nil:
		fin.Status, fin.Result = StatusSucceeded, resultJSON(output)
		done = callDone{text: output.ModelText(), output: output}
		if ims := output.ModelImages(); len(ims) > 0 && x.r.forModel {
			done.images = t.forwardImages(ctx, rtool, ims)
		}
		return fin, done, output
	case errors.As(err, &te):
		fin.Status, fin.ErrorCode, fin.Error = StatusFailed, te.Code, te.Message
		fin.Result = resultJSON(output)
		return fin, callDone{text: te.Error(), isErr: true, output: output}, tool.Output{}
	}
	fin.Status = StatusFailed
	if x.desc.Risk != tool.ReadOnly {
		fin.Status = StatusUnknown
	}
	fin.ErrorCode, fin.Error = errorCode(ctx, err), err.Error()
	t.stop = fmt.Sprintf("%s stopped the turn: %v", rtool.Name, err)
	x.stopIfCancelled(ctx)
	return fin, callDone{text: "the call did not complete (" + fin.ErrorCode + "); the turn was stopped", isErr: true}, tool.Output{}
}

// recheck returns why consent no longer holds for a call, or "": the turn
// must not be cancelled, the session not closed, no deny policy may have
// appeared, and the tool's descriptor must still be the pinned one. The
// saved policies are read again only when time has passed since the
// decision read them (a prompt was answered, or images are forwarded after
// the call).
func (t *turn) recheck(ctx context.Context, rt *ResolvedTool, reread bool) string {
	s := t.s
	if ctx.Err() != nil {
		return "the turn was cancelled"
	}
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return "the session was closed"
	}
	if why := t.policyDenies(ctx, rt, reread); why != "" {
		return why
	}
	if why, err := t.catalogChanged(ctx, rt, true); err != nil || why != "" {
		if err != nil {
			return err.Error()
		}
		return why
	}
	if cur, err := currentPin(rt); err != nil || cur != rt.Pin.Digest {
		return "the descriptor of " + rt.Name + " changed since the session pinned it; start a new session"
	}
	return ""
}

// policyDenies says why a deny policy now covers rt (the manifest's, or
// with reread the person's saved one), or "". The skills tools have none.
func (t *turn) policyDenies(ctx context.Context, rt *ResolvedTool, reread bool) string {
	s := t.s
	if rt.skills {
		return ""
	}
	if consent.ManifestPolicy(s.res.Bundle.Policy, rt.Name) == consent.PolicyDeny {
		return "the coworker's manifest denies " + rt.Name
	}
	if st := s.consent.Store; st != nil && reread {
		if p, ok, err := st.UserPolicy(ctx, s.res.Bundle.ID, rt.Name, consent.ApprovalDigest(rt.Pin.Digest, rt.Placement)); err == nil && ok && consent.Policy(p) == consent.PolicyDeny {
			return "you chose Never for " + rt.Name + " in chats with this coworker"
		}
	}
	return ""
}

// forwardImages rechecks consent before images reach the model (docs/consent.md);
// when it no longer holds, the images are withheld and a warning journaled.
func (t *turn) forwardImages(ctx context.Context, rt *ResolvedTool, imgs []tool.Image) []model.Image {
	if why := t.recheck(ctx, rt, true); why != "" {
		t.warn(ctx, "images_withheld", fmt.Sprintf("%d image(s) from %s were not forwarded: %s", len(imgs), rt.Name, why))
		return nil
	}
	out := make([]model.Image, 0, len(imgs))
	for _, im := range imgs {
		out = append(out, model.Image{MIMEType: im.MIMEType, Data: im.Data})
	}
	return out
}

// resultJSON is the journaled form of an output: structured, text, the
// content blocks, and image digests and sizes (never pixels). When that is
// over journal.MaxJSONBytes, the blocks are left out first.
func resultJSON(o tool.Output) json.RawMessage {
	type img struct {
		MIMEType string `json:"mime_type"`
		Digest   string `json:"digest"`
		Bytes    int    `json:"bytes"`
	}
	v := struct {
		Structured json.RawMessage `json:"structured,omitempty"`
		Text       string          `json:"text,omitempty"`
		Content    []tool.Block    `json:"content,omitempty"`
		Images     []img           `json:"images,omitempty"`
	}{Structured: o.Structured, Text: o.Text, Content: o.Content}
	if len(v.Structured) > 0 && !json.Valid(v.Structured) {
		v.Structured = nil
	}
	for _, im := range o.Images {
		v.Images = append(v.Images, img{im.MIMEType, digestBytes(im.Data), len(im.Data)})
	}
	raw, _ := jsonenc.Marshal(v)
	if len(raw) > journal.MaxJSONBytes && v.Content != nil {
		// The blocks repeat what Text says; what the model got comes first.
		v.Content = nil
		raw, _ = jsonenc.Marshal(v)
	}
	if len(raw) > journal.MaxJSONBytes {
		// Within ResultBytes, a text of control characters still grows up
		// to six times when escaped. The terminal row must commit, so the
		// journal keeps what the result was instead of the result itself.
		raw, _ = jsonenc.Marshal(struct {
			Omitted string `json:"omitted"`
			Bytes   int    `json:"bytes"`
			Digest  string `json:"digest"`
		}{"the result was too large to journal once encoded as JSON", len(raw), digestBytes(raw)})
	}
	return raw
}

func digestBytes(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func mustJSONString(s string) json.RawMessage {
	return jsonenc.String(s)
}

// notSelectedText is what the model is told (and the journal keeps) of a
// call whose name names no tool it was given; an empty name says so.
func notSelectedText(name string) string {
	if strings.TrimSpace(name) == "" {
		return fmt.Sprintf("the tool call has no name (%q); name one of the tools you were given", name)
	}
	return fmt.Sprintf("there is no tool %q for this coworker; use only the tools you were given", name)
}
