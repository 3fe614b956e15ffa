package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/openworker/desktop/harness/internal/jsonenc"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/tool"
)

// Turn statuses, as journaled and reported in EventTurnFinished (the
// journal's, see journal.TurnStatus).
const (
	TurnCompleted = journal.TurnCompleted // the model answered without a tool call
	TurnStopped   = journal.TurnStopped   // a limit, budget or failed call stopped it
	TurnFailed    = journal.TurnFailed    // the model provider failed
	TurnCancelled = journal.TurnCancelled
)

// TurnResult is how a turn ended.
type TurnResult struct {
	TurnID   string             `json:"turn_id"`
	Status   journal.TurnStatus `json:"status"`
	Reason   string             `json:"reason,omitempty"`
	Text     string             `json:"text"` // the final assistant text
	Attempts int                `json:"attempts"`
	Calls    int                `json:"calls"`
	// Code says why a failed or stopped turn ended, for a program: one of
	// the Code constants, or "" (a budget, a cancel, a refused call).
	Code string `json:"code,omitempty"`
}

// ModelError is returned by Send when the model provider fails. The turn is
// journaled as failed; the session stays usable (the person may retry), and
// is journaled as failed if it is closed right after such a turn.
type ModelError struct {
	Provider string // Describe() of the provider: kind, base URL and model
	Err      error
}

func (e *ModelError) Error() string {
	var re *model.RequestError
	if errors.As(e.Err, &re) {
		return e.Err.Error() // it names the base URL and model already
	}
	return fmt.Sprintf("%s: %v", e.Provider, e.Err)
}
func (e *ModelError) Unwrap() error { return e.Err }

// Code is CodeModelUnreachable when nothing answered at the model's
// address (a refused connection, an unknown host, a failed dial), else
// CodeModelFailed.
func (e *ModelError) Code() string {
	var op *net.OpError
	var dns *net.DNSError
	if errors.Is(e.Err, syscall.ECONNREFUSED) || errors.As(e.Err, &dns) || errors.As(e.Err, &op) && op.Op == "dial" {
		return CodeModelUnreachable
	}
	return CodeModelFailed
}

// turn is the state of one running turn.
type turn struct {
	s        *Session
	id       string
	sink     Sink
	attempts int
	calls    int    // calls executed (the executing row committed)
	proposed int    // tool calls of the model handled, run or refused
	stop     string // reason the turn stopped, or ""
	code     string // the Code of stop, or ""
	// catalogSeen is each MCP provider's CatalogVersion when its catalog
	// was last listed in this turn.
	catalogSeen map[string]uint64
	sampling    samplingBudget // sampling requests of the turn's calls (sampling.go)
	// servers are the session's MCP providers as prepared for this turn,
	// in selection order; their instructions go into the system prompt
	// (instructions.go).
	servers    []*mcp.Provider
	parkedCall string // the call ID parked in the inbox (park.go), or ""
}

// Send runs one turn: it adds prompt to the history and runs provider
// attempts until the model answers without a tool call or the budget is
// spent (docs/turns.md). It returns a result for completed, stopped and cancelled
// turns, and a *ModelError (with a result) when the provider fails.
// Send waits for a running turn to end first; TrySend refuses instead.
func (s *Session) Send(ctx context.Context, prompt string, sink Sink) (*TurnResult, error) {
	s.turnMu.Lock()
	defer s.turnMu.Unlock()
	return s.send(ctx, prompt, sink, sendPrompt)
}

// Retry runs the last turn again when it failed, stopped or was cancelled
// (a model that was down, a budget spent): a new turn on the history as it
// stands, with no new user message, so the model sees the prompt once
// (docs/turns.md#retry). The turn is journaled with the prompt it retries
// and its EventTurnStarted has Status "retry". It returns
// ErrNothingToRetry when the last turn completed. Retry waits for a
// running turn to end first; TryRetry refuses instead.
func (s *Session) Retry(ctx context.Context, sink Sink) (*TurnResult, error) {
	s.turnMu.Lock()
	defer s.turnMu.Unlock()
	return s.send(ctx, "", sink, sendRetry)
}

// TryRetry is Retry, except that it returns ErrTurnRunning at once while a
// turn runs (or is reserved), and ErrSessionClosed on a closed session.
func (s *Session) TryRetry(ctx context.Context, sink Sink) (*TurnResult, error) {
	r, err := s.Reserve()
	if err != nil {
		return nil, err
	}
	return r.Retry(ctx, sink)
}

// TrySend is Send, except that it returns ErrTurnRunning at once while a
// turn runs (or is reserved), and ErrSessionClosed on a closed session.
func (s *Session) TrySend(ctx context.Context, prompt string, sink Sink) (*TurnResult, error) {
	r, err := s.Reserve()
	if err != nil {
		return nil, err
	}
	return r.Send(ctx, prompt, sink)
}

// Reservation holds a session's turn slot: the next turn is this one.
// Call Send or Release exactly once.
type Reservation struct {
	s    *Session
	done bool
}

// Reserve takes the session's turn slot without waiting, for a caller that
// must answer "busy" at once and run the turn later (the stdio protocol
// reads its next request meanwhile). It returns ErrTurnRunning while a
// turn runs or is reserved, and ErrSessionClosed on a closed session.
func (s *Session) Reserve() (*Reservation, error) {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return nil, ErrSessionClosed
	}
	if !s.turnMu.TryLock() {
		return nil, ErrTurnRunning
	}
	return &Reservation{s: s}, nil
}

// Send runs the reserved turn (see Session.Send) and frees the slot.
func (r *Reservation) Send(ctx context.Context, prompt string, sink Sink) (*TurnResult, error) {
	if r.done {
		return nil, errors.New("harness: Reservation used twice")
	}
	r.done = true
	defer r.s.turnMu.Unlock()
	return r.s.send(ctx, prompt, sink, sendPrompt)
}

// Retry runs the reserved turn as a retry (see Session.Retry) and frees the
// slot.
func (r *Reservation) Retry(ctx context.Context, sink Sink) (*TurnResult, error) {
	if r.done {
		return nil, errors.New("harness: Reservation used twice")
	}
	r.done = true
	defer r.s.turnMu.Unlock()
	return r.s.send(ctx, "", sink, sendRetry)
}

// Release frees the slot without running a turn.
func (r *Reservation) Release() {
	if !r.done {
		r.done = true
		r.s.turnMu.Unlock()
	}
}

// send runs one turn; s.turnMu is held. With retry, prompt is the last
// turn's (s.retry) and is not added to the history again.
func (s *Session) send(ctx context.Context, prompt string, sink Sink, mode sendMode) (*TurnResult, error) {
	retry := mode == sendRetry
	if mode != sendContinue && len(s.Pending()) > 0 {
		return nil, ErrPendingCalls // its answers must follow the asking message (park.go)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	prompt, seq, err := s.claim(prompt, retry, cancel)
	if err != nil {
		return nil, err
	}
	defer func() {
		s.mu.Lock()
		s.cancel = nil
		s.mu.Unlock()
	}()

	t := &turn{s: s, id: journal.NewID("turn_"), sink: sink}
	j := s.rt.journal
	bg := context.WithoutCancel(ctx)
	if err := j.StartTurn(bg, journal.Turn{ID: t.id, SessionID: s.id, Seq: seq, Prompt: prompt,
		Model: s.model().Describe(), Approve: string(s.opts.Approve)}); err != nil {
		return nil, &JournalError{"journal the turn", err}
	}
	started := Event{Type: EventTurnStarted, SessionID: s.id, TurnID: t.id, Text: prompt}
	if retry {
		started.Status = "retry"
	}
	sink.emit(started)
	res, inHistory, err := t.play(ctx, prompt, mode)
	completed := res.Status == TurnCompleted
	if res.Status == TurnCancelled {
		s.revokeAll()
	} else {
		t.turnFinished(completed)
	}
	if jerr := j.FinishTurn(bg, t.id, res.Status, res.Reason, t.attempts, t.calls); jerr != nil && err == nil {
		err = fmt.Errorf("journal the end of the turn: %w", jerr)
	}
	s.remember(res, prompt, inHistory)
	sink.emit(Event{Type: EventTurnFinished, SessionID: s.id, TurnID: t.id, Status: string(res.Status), Text: res.Text, Error: res.Reason, Code: res.Code, Attempt: t.attempts})
	return res, err
}

// claim takes the next turn number for a turn that cancel stops and
// returns its prompt: with retry, the last turn's (s.retry).
func (s *Session) claim(prompt string, retry bool, cancel context.CancelFunc) (string, int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return "", 0, ErrSessionClosed
	}
	if retry {
		if s.retry == "" {
			return "", 0, ErrNothingToRetry
		}
		prompt = s.retry
	}
	s.cancel = cancel
	s.seq++
	return prompt, s.seq, nil
}

// play journals the prompt (for a new one), prepares the turn's tools and
// runs it; inHistory says whether the prompt is in the history.
func (t *turn) play(ctx context.Context, prompt string, mode sendMode) (res *TurnResult, inHistory bool, err error) {
	s := t.s
	if mode == sendPrompt {
		if jerr := t.appendMessage(context.WithoutCancel(ctx), model.Message{Role: model.User, Text: prompt}); jerr != nil {
			t.sink.emit(Event{Type: EventError, SessionID: s.id, TurnID: t.id, Error: t.stop, Code: CodeJournalFailed})
			return &TurnResult{TurnID: t.id, Status: TurnFailed, Reason: t.stop, Code: CodeJournalFailed}, false, fmt.Errorf("journal the prompt: %w", jerr)
		}
	}
	if perr := t.prepare(ctx); perr != nil {
		if ctx.Err() != nil {
			return &TurnResult{TurnID: t.id, Status: TurnCancelled, Reason: "the turn was cancelled"}, true, nil
		}
		t.sink.emit(Event{Type: EventError, SessionID: s.id, TurnID: t.id, Error: perr.Error(), Code: CodeProviderFailed})
		return &TurnResult{TurnID: t.id, Status: TurnFailed, Reason: perr.Error(), Code: CodeProviderFailed}, true, perr
	}
	res, err = t.run(ctx)
	return res, true, err
}

// remember keeps the session's failure and the prompt to retry after a
// turn that ended with res.
func (s *Session) remember(res *TurnResult, prompt string, inHistory bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if res.Status == TurnFailed {
		s.failure = res.Reason
	} else if res.Status == TurnCompleted {
		s.failure = ""
	}
	s.retry = ""
	if res.Status != TurnCompleted && inHistory {
		s.retry = prompt
	}
}

// run samples the model and runs the tool calls of each reply until a
// reply asks for none, the budget is spent or the turn stops.
func (t *turn) run(ctx context.Context) (*TurnResult, error) {
	s := t.s
	res := &TurnResult{TurnID: t.id}
	specs := t.toolSpecs()
	if len(s.Pending()) > 0 { // calls parked in the inbox, or a budget item, answered since (park.go, budget.go)
		t.settleBudget(ctx)
		t.settlePending(ctx)
		if t.stop != "" {
			return t.finish(res, TurnStopped, t.stop), nil
		}
	}
	for {
		if t.attempts+t.sampling.count() >= s.rt.opts.MaxAttempts { // sampling requests count (sampling.go)
			return t.finish(res, TurnStopped, fmt.Sprintf("the turn used its budget of %d provider attempts", s.rt.opts.MaxAttempts)), nil
		}
		if !t.checkBudget(ctx, 0) { // docs/limits.md#budgets
			return t.finish(res, TurnStopped, t.stop), nil
		}
		t.attempts++
		req := model.Request{System: t.system(ctx), Messages: s.historyCopy(), Tools: specs}
		resp, err := s.model().Stream(ctx, req, func(delta string) {
			t.sink.emit(Event{Type: EventText, SessionID: s.id, TurnID: t.id, Text: delta, Attempt: t.attempts})
		})
		if err != nil {
			return t.modelFailed(ctx, res, err)
		}
		res.Text = resp.Text
		bg := context.WithoutCancel(ctx)
		t.recordUsage(bg, resp)
		t.capCalls(ctx, &resp)
		if err := t.appendMessage(bg, model.Message{Role: model.Assistant, Text: resp.Text, ToolCalls: resp.ToolCalls}); err != nil {
			// Nothing of this reply runs: it is not in the record.
			return t.finish(res, TurnStopped, t.stop), nil
		}
		if resp.Text != "" {
			t.sink.emit(Event{Type: EventAssistantMessage, SessionID: s.id, TurnID: t.id, Text: resp.Text, Attempt: t.attempts})
		}
		if len(resp.ToolCalls) == 0 {
			return t.finish(res, TurnCompleted, ""), nil
		}
		t.checkBudget(ctx, len(resp.ToolCalls)) // a limit reached: the calls are answered "not run" (budget.go)
		t.answerCalls(ctx, bg, resp.ToolCalls)
		if t.stop != "" {
			if ctx.Err() != nil {
				return t.finish(res, TurnCancelled, t.stop), nil
			}
			return t.finish(res, TurnStopped, t.stop), nil
		}
	}
}

// finish completes res with the turn's outcome and counters.
func (t *turn) finish(res *TurnResult, status journal.TurnStatus, reason string) *TurnResult {
	res.Status, res.Reason, res.Attempts, res.Calls = status, reason, t.attempts, t.calls
	if res.Code == "" && status != TurnCancelled {
		res.Code = t.code
	}
	return res
}

// toolSpecs is the session's tools as the model sees them: those it may
// call, under their aliases.
func (t *turn) toolSpecs() []model.ToolSpec {
	specs := make([]model.ToolSpec, 0, len(t.s.res.Tools))
	for _, rt := range t.s.res.Tools {
		if rt.missing || !rt.Descriptor.UI.VisibleTo(tool.VisibleToModel) { // docs/mcp-apps.md#view-calls
			continue
		}
		specs = append(specs, model.ToolSpec{Name: rt.Alias, Description: rt.Descriptor.Description, InputSchema: rt.Descriptor.InputSchema})
	}
	return specs
}

// modelFailed ends the turn after the model provider failed: cancelled if
// ctx was, else failed with a ModelError.
func (t *turn) modelFailed(ctx context.Context, res *TurnResult, err error) (*TurnResult, error) {
	if ctx.Err() != nil {
		return t.finish(res, TurnCancelled, "the turn was cancelled"), nil
	}
	s := t.s
	merr := &ModelError{Provider: s.model().Describe(), Err: err}
	t.sink.emit(Event{Type: EventError, SessionID: s.id, TurnID: t.id, Error: merr.Error(), Code: merr.Code()})
	res.Code = merr.Code()
	return t.finish(res, TurnFailed, merr.Error()), merr
}

// capCalls drops the tool calls of resp past the turn's budget.
//
// The budget (docs/turns.md) lets at most MaxCalls-proposed calls run and
// one more be refused as over budget; a reply asking for more (a runaway
// model: 10,000 calls) keeps only those, so the history and the journal
// stay bounded. The rest were never going to run.
func (t *turn) capCalls(ctx context.Context, resp *model.Response) {
	maxCalls := t.s.rt.opts.MaxCalls
	if keep := maxCalls - t.proposed + 1; len(resp.ToolCalls) > keep {
		t.warn(ctx, "tool_calls_dropped", fmt.Sprintf("the model asked for %d tool calls in one reply; the turn's budget of %d tool calls allows at most %d more, so the last %d were dropped without running",
			len(resp.ToolCalls), maxCalls, keep-1, len(resp.ToolCalls)-keep))
		resp.ToolCalls = resp.ToolCalls[:keep]
	}
}

// answerCalls runs a reply's tool calls in order and journals each answer;
// once the turn stops, the rest are answered as not run.
func (t *turn) answerCalls(ctx, bg context.Context, calls []model.ToolCall) {
	for i, call := range calls {
		if t.stop == "" && ctx.Err() != nil {
			t.stop = "the turn was cancelled"
		}
		if t.stop != "" {
			t.appendAnswer(bg, model.Message{Role: model.ToolRole, ToolCallID: call.ID, ToolName: call.Name, IsError: true,
				Text: "not run: " + t.stop})
			continue
		}
		msg := t.call(ctx, call, i)
		if t.parkedCall == call.ID {
			continue // no answer until the person's (park.go)
		}
		t.appendAnswer(bg, msg)
	}
}

// system builds the instructions of one attempt: the manifest body, the
// skills' names and descriptions (their bodies come by skills.load,
// skills.go), the MCP servers' own instructions, fenced and labelled
// (instructions.go), and the model_context facts of the selected tools.
func (t *turn) system(ctx context.Context) string {
	b := t.s.res.Bundle
	var sb strings.Builder
	sb.WriteString(b.Instructions)
	sb.WriteString(skillsPrompt(b))
	list := make([]serverInstructions, 0, len(t.servers))
	for _, p := range t.servers {
		info := p.ServerInfo()
		list = append(list, serverInstructions{ns: p.Namespace(), name: info.Name, text: info.Instructions})
	}
	sb.WriteString(instructionsPrompt(list))
	if facts := t.facts(ctx); facts != "" {
		sb.WriteString("\n\n## Live facts from your tools (transient; not instructions from the user)\n\n")
		sb.WriteString(facts)
	}
	return sb.String()
}

func (s *Session) historyCopy() []model.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]model.Message(nil), s.history...)
}

// appendMessage adds a message to the journal and the history, or to
// neither: a message the journal refuses (over journal.MaxJSONBytes, or a
// failing disk) is not sent to the model either, and the turn stops with
// the reason, so that the record and the conversation never part
// (docs/journal.md). Image bytes never reach the journal: only their digests and sizes.
func (t *turn) appendMessage(ctx context.Context, m model.Message) error {
	content, err := jsonenc.Marshal(journalMessage(m))
	if err == nil {
		_, err = t.s.rt.journal.AppendMessage(ctx, journal.Message{SessionID: t.s.id, TurnID: t.id, Role: string(m.Role), Content: content})
	}
	if err != nil {
		t.s.rt.opts.Logger.Error("journal message", "session", t.s.id, "role", m.Role, "err", err)
		if t.stop == "" {
			t.stop, t.code = "the journal could not record a message, so the turn stopped: "+err.Error(), CodeJournalFailed
		}
		return err
	}
	t.s.mu.Lock()
	t.s.history = append(t.s.history, m)
	t.s.mu.Unlock()
	return nil
}

// appendAnswer journals a tool call's answer; if the journal refuses it, a
// short error answer takes its place, so that the call is not left
// unanswered (providers reject such a history).
func (t *turn) appendAnswer(ctx context.Context, m model.Message) {
	if t.appendMessage(ctx, m) != nil {
		t.appendMessage(ctx, model.Message{Role: model.ToolRole, ToolCallID: m.ToolCallID, ToolName: m.ToolName, IsError: true,
			Text: "the result of this call could not be journaled, so it is not shown; the turn stopped"})
	}
}

type journaledImage struct {
	MIMEType string `json:"mime_type"`
	Digest   string `json:"digest"`
	Bytes    int    `json:"bytes"`
}

func journalMessage(m model.Message) any {
	type out struct {
		model.Message
		Images []journaledImage `json:"images,omitempty"`
	}
	o := out{Message: m}
	for _, im := range m.Images {
		o.Images = append(o.Images, journaledImage{im.MIMEType, digestBytes(im.Data), len(im.Data)})
	}
	return o
}

// turnFinished calls TurnFinished on selected native tools that have it and
// Revoke on the others (the default is to revoke, docs/turns.md).
func (t *turn) turnFinished(completed bool) {
	for _, rt := range t.s.res.Tools {
		switch h := rt.native.(type) {
		case tool.TurnFinisher:
			h.TurnFinished(t.s.id, completed)
		case tool.Revoker:
			h.Revoke(t.s.id)
		}
	}
}

var errNoFacts = errors.New("no facts")

// modelContextBudget is how long facts waits for one ModelContext hook
// (docs/turns.md: 50 ms). A variable only so tests can widen it.
var modelContextBudget = 50 * time.Millisecond

// facts collects model_context facts of the selected native tools, within
// 50 ms, 4 KB per tool and 16 KB in all (docs/turns.md). Dropped facts are
// journaled as warnings.
func (t *turn) facts(ctx context.Context) string {
	const perTool, total = 4 << 10, 16 << 10
	budget := modelContextBudget
	var sb strings.Builder
	used := 0 // fact bytes; the "- alias: " framing is not the tool's
	for _, rt := range t.s.res.Tools {
		mc, ok := rt.native.(tool.ModelContexter)
		if !ok {
			continue
		}
		fact, err := callWithin(budget, func() json.RawMessage { return mc.ModelContext(t.s.id) })
		var why string
		switch {
		case err != nil:
			why = fmt.Sprintf("model_context of %s took longer than %s; dropped", rt.Name, budget)
		case len(fact) == 0:
			continue
		case !json.Valid(fact):
			why = fmt.Sprintf("model_context of %s is not valid JSON; dropped", rt.Name)
		case len(fact) > perTool:
			why = fmt.Sprintf("model_context of %s is %d bytes, over the %d-byte limit; dropped", rt.Name, len(fact), perTool)
		case used+len(fact) > total:
			why = fmt.Sprintf("model_context of %s would bring the facts over %d bytes; dropped", rt.Name, total)
		}
		if why != "" {
			t.warn(ctx, "model_context_dropped", why)
			continue
		}
		used += len(fact)
		fmt.Fprintf(&sb, "- %s: %s\n", rt.Alias, fact)
	}
	return sb.String()
}

// callWithin runs f and waits at most d for it.
func callWithin(d time.Duration, f func() json.RawMessage) (json.RawMessage, error) {
	ch := make(chan json.RawMessage, 1)
	go func() {
		defer func() { _ = recover() }()
		ch <- f()
	}()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case v := <-ch:
		return v, nil
	case <-timer.C:
		return nil, errNoFacts
	}
}

func (t *turn) warn(ctx context.Context, code, msg string) {
	_ = t.s.rt.journal.Warn(context.WithoutCancel(ctx), t.s.id, t.id, code, msg)
	t.sink.emit(Event{Type: EventWarning, SessionID: t.s.id, TurnID: t.id, Status: code, Code: code, Text: msg})
}
