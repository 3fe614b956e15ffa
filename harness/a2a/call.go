package a2a

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/a2aproject/a2a-go/a2a"

	"github.com/openworker/desktop/harness/tool"
)

// MetaSkill is the metadata key, on the message and on the send
// parameters, that names the skill a call is for (docs/a2a.md#calls). A2A
// has no skill selector of its own; an agent with several skills reads it.
const MetaSkill = "skill"

// Progress bounds: a call forwards at most MaxProgressEvents status
// updates, each message cut to MaxProgressText bytes, so a chatty agent
// never breaches the harness's progress limits (docs/limits.md).
const (
	MaxProgressEvents = 32
	MaxProgressText   = 1024
)

// Tool error codes of a call whose task ended without completing.
const (
	CodeFailed        = "a2a_failed"
	CodeRejected      = "a2a_rejected"
	CodeCanceled      = "a2a_canceled"
	CodeInputRequired = "a2a_input_required"
	CodeAuthRequired  = "a2a_auth_required"
)

// Hooks receive what a call learns while it runs. Every field may be nil.
type Hooks struct {
	// Task gets the task ID once, as soon as the agent returns it and
	// before the call follows the task: the harness journals it, so a
	// crash leaves a handle to poll (docs/a2a.md#durable-handles).
	Task func(taskID string)
	// Progress gets status updates: the status message (or "state
	// working") and data {"task_id":ID,"state":STATE}. An error (a
	// breached limit) ends the call, which then cancels the task.
	Progress func(message string, data json.RawMessage) error
	// Ask puts the agent's question of an input-required task to the
	// person (the harness uses the MCP elicitation dialog) and returns
	// the answer, or false when there is none (declined, bypass mode, no
	// one to ask). The answer is sent to the agent as the next message of
	// the same task; at most MaxQuestions per call. Nil: input-required
	// ends the call with CodeInputRequired.
	Ask func(ctx context.Context, question string) (answer string, ok bool)
}

// MaxQuestions bounds the questions of one call (Hooks.Ask).
const MaxQuestions = 3

// Input is the arguments of every skill (InputSchema).
type Input struct {
	Text string         `json:"text"`
	Data map[string]any `json:"data,omitempty"`
}

// Call sends one message to skill (a skill id of the card) and follows
// the task to a final state (docs/a2a.md#calls):
//
//   - an agent whose card says "streaming" gets message/stream; its events
//     are followed until the task is completed, failed, canceled,
//     rejected, input-required or auth-required; a stream that breaks
//     before then is followed with tasks/get;
//   - any other agent gets message/send (non-blocking) and the task is
//     followed with tasks/get every Options.PollInterval.
//
// Nothing is ever sent twice. It returns:
//
//   - completed (or a direct message reply): the artifacts as Output: Text
//     holds their text parts, data parts as JSON and file parts as a
//     line naming them; Structured is {"task_id","state","artifacts":[...]};
//   - failed, rejected or canceled by the agent: the artifacts and a
//     *tool.ToolError (CodeFailed, CodeRejected, CodeCanceled) with the
//     agent's status message;
//   - input-required: the question goes to Hooks.Ask, and an answer is
//     sent as the next message of the task, which is followed again (at
//     most MaxQuestions); without one, and for auth-required, a
//     *tool.ToolError (CodeInputRequired, CodeAuthRequired) saying the
//     agent needs input and quoting its question; the task is sent
//     tasks/cancel;
//   - ctx done, a progress error, or the agent unreachable once the task
//     exists: a plain error; a task not yet final is sent tasks/cancel
//     (bounded by Options.CancelTimeout) and the error says how the agent
//     answered.
func (a *Agent) Call(ctx context.Context, skill string, args json.RawMessage, h Hooks) (tool.Output, error) {
	if h.Progress != nil && a.secrets.Active() {
		inner := h.Progress
		h.Progress = func(msg string, data json.RawMessage) error { return inner(a.secrets.text(msg), data) }
	}
	if h.Ask != nil && a.secrets.Active() {
		inner := h.Ask
		h.Ask = func(ctx context.Context, q string) (string, bool) { return inner(ctx, a.secrets.text(q)) }
	}
	out, err := a.call(ctx, skill, args, h)
	return a.secrets.output(out), a.secrets.err(err)
}

func (a *Agent) call(ctx context.Context, skill string, args json.RawMessage, h Hooks) (tool.Output, error) {
	if !a.skill(skill) {
		return tool.Output{}, fmt.Errorf("A2A agent %q: its card lists no skill %q", a.cfg.Namespace, skill)
	}
	var in Input
	if len(args) > 0 {
		if err := json.Unmarshal(args, &in); err != nil {
			return tool.Output{}, fmt.Errorf("A2A agent %q: the arguments are not {\"text\":..., \"data\":{...}}: %v", a.cfg.Namespace, err)
		}
	}
	parts := a2a.ContentParts{a2a.TextPart{Text: in.Text}}
	if in.Data != nil {
		parts = append(parts, a2a.DataPart{Data: in.Data})
	}
	msg := a2a.NewMessage(a2a.MessageRoleUser, parts...)
	msg.Metadata = map[string]any{MetaSkill: skill}
	params := &a2a.MessageSendParams{Message: msg, Metadata: map[string]any{MetaSkill: skill}}

	f := &follower{a: a, h: h}
	err := f.follow(ctx, params)
	for asked := 0; err == nil && h.Ask != nil && f.state() == a2a.TaskStateInputRequired && asked < MaxQuestions; asked++ {
		answer, ok := h.Ask(ctx, orElse(messageText(f.task.Status.Message), "The agent needs more input."))
		if !ok || ctx.Err() != nil {
			break
		}
		next := a2a.NewMessageForTask(a2a.MessageRoleUser, f.task, a2a.TextPart{Text: answer})
		next.Metadata = map[string]any{MetaSkill: skill}
		err = f.answer(ctx, &a2a.MessageSendParams{Message: next, Metadata: map[string]any{MetaSkill: skill}})
	}
	if err != nil {
		if f.taskID != "" && !f.final() {
			err = fmt.Errorf("%w; %s", err, f.cancel(ctx))
		}
		return tool.Output{}, fmt.Errorf("A2A agent %q: %w", a.cfg.Namespace, err)
	}
	return f.result(ctx)
}

// follower follows one task.
type follower struct {
	a        *Agent
	h        Hooks
	taskID   a2a.TaskID
	task     *a2a.Task    // the latest known state
	reply    *a2a.Message // a direct reply without a task
	events   int
	lastText string
	// answered identifies the question last answered (statusKey): a
	// snapshot that still shows it (a non-blocking send answers with the
	// task as stored before the answer is processed) is not a new question.
	answered string
	answerID string // the message that answered it
}

func (f *follower) stream(ctx context.Context, params *a2a.MessageSendParams) error {
	var streamErr error
	events := 0
	for ev, err := range f.a.rpc.SendStreamingMessage(ctx, params) {
		if err != nil {
			streamErr = err
			break
		}
		events++
		if err := f.observe(ev); err != nil {
			return err
		}
		if f.done() {
			return nil
		}
	}
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	if f.taskID == "" || (events == 0 && streamErr != nil) { // refused before any event: the caller decides
		if streamErr != nil {
			return fmt.Errorf("message/stream to %s: %v", redactURL(f.a.endpoint), f.rpcError(streamErr))
		}
		return fmt.Errorf("message/stream to %s ended without a task or a reply", redactURL(f.a.endpoint))
	}
	return f.poll(ctx) // the stream broke or ended early: the task is still the agent's
}

func (f *follower) send(ctx context.Context, params *a2a.MessageSendParams) error {
	nonBlocking := false
	params.Config = &a2a.MessageSendConfig{Blocking: &nonBlocking}
	res, err := f.a.rpc.SendMessage(ctx, params)
	if err != nil {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return fmt.Errorf("message/send to %s: %v", redactURL(f.a.endpoint), f.rpcError(err))
	}
	if err := f.observe(res); err != nil {
		return err
	}
	if f.done() {
		return nil
	}
	if f.taskID == "" {
		return fmt.Errorf("message/send to %s answered neither a task nor a reply", redactURL(f.a.endpoint))
	}
	return f.poll(ctx)
}

// poll follows the task with tasks/get until it is final.
func (f *follower) poll(ctx context.Context) error {
	for !f.done() {
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-f.a.opts.After(f.a.opts.PollInterval):
		}
		task, err := f.a.rpc.GetTask(ctx, &a2a.TaskQueryParams{ID: f.taskID})
		if err != nil {
			if ctx.Err() != nil {
				return context.Cause(ctx)
			}
			return fmt.Errorf("tasks/get %s: %v", f.taskID, f.rpcError(err))
		}
		if err := f.observe(task); err != nil {
			return err
		}
		if f.answerID != "" && needsInput(task.Status.State) && statusKey(task.Status) == f.answered && !hasMessage(task, f.answerID) {
			return fmt.Errorf("the agent did not take the answer to its question: task %s still waits on it", f.taskID)
		}
	}
	return nil
}

// rpcError scrubs the endpoint's secrets from an error of the SDK.
func (f *follower) rpcError(err error) error {
	if errors.Is(err, errTooLarge) {
		return fmt.Errorf("the agent's answer is over %d bytes: %w", MaxResponseBytes, tool.ErrLimit)
	}
	return scrub(err, f.a.endpoint)
}

// observe takes one event of the agent into the task's state.
func (f *follower) observe(ev a2a.Event) error {
	switch e := ev.(type) {
	case *a2a.Message:
		if f.taskID == "" && e.TaskID == "" {
			f.reply = e
			return nil
		}
		f.setTask(e.TaskID)
	case *a2a.Task:
		f.setTask(e.ID)
		prev := f.state()
		f.task = e
		if e.Status.State != prev {
			return f.progress(e.Status)
		}
	case *a2a.TaskStatusUpdateEvent:
		f.setTask(e.TaskID)
		f.ensureTask()
		f.task.Status = e.Status
		return f.progress(e.Status)
	case *a2a.TaskArtifactUpdateEvent:
		f.setTask(e.TaskID)
		f.ensureTask()
		if e.Artifact != nil {
			f.mergeArtifact(e.Artifact, e.Append)
		}
	}
	return nil
}

func (f *follower) setTask(id a2a.TaskID) {
	if id == "" || f.taskID != "" {
		return
	}
	f.taskID = id
	if f.h.Task != nil {
		f.h.Task(string(id))
	}
}

func (f *follower) ensureTask() {
	if f.task == nil {
		f.task = &a2a.Task{ID: f.taskID}
	}
}

func (f *follower) mergeArtifact(art *a2a.Artifact, appendParts bool) {
	for i, have := range f.task.Artifacts {
		if have.ID == art.ID {
			if appendParts {
				merged := *have
				merged.Parts = append(append(a2a.ContentParts{}, have.Parts...), art.Parts...)
				f.task.Artifacts[i] = &merged
			} else {
				f.task.Artifacts[i] = art
			}
			return
		}
	}
	f.task.Artifacts = append(f.task.Artifacts, art)
}

func (f *follower) state() a2a.TaskState {
	if f.task == nil {
		return ""
	}
	return f.task.Status.State
}

func (f *follower) final() bool { return f.task != nil && f.task.Status.State.Terminal() }

func needsInput(s a2a.TaskState) bool {
	return s == a2a.TaskStateInputRequired || s == a2a.TaskStateAuthRequired
}

// done reports whether the call has its answer.
func (f *follower) done() bool {
	if f.reply != nil || f.final() {
		return true
	}
	if !needsInput(f.state()) {
		return false
	}
	return f.answered == "" || statusKey(f.task.Status) != f.answered
}

// progress forwards one status update within the bounds.
func (f *follower) progress(st a2a.TaskStatus) error {
	if f.h.Progress == nil || f.events >= MaxProgressEvents {
		return nil
	}
	text := messageText(st.Message)
	if text == "" {
		text = "state " + string(st.State)
	}
	text = cut(text, MaxProgressText)
	if text == f.lastText {
		return nil
	}
	f.events++
	f.lastText = text
	data, _ := json.Marshal(map[string]string{"task_id": string(f.taskID), "state": string(st.State)})
	return f.h.Progress(text, data)
}

// cancel sends tasks/cancel for the task, bounded by CancelTimeout even
// when ctx is done, and says how the agent answered.
func (f *follower) cancel(ctx context.Context) string {
	cctx, stop := context.WithTimeout(context.WithoutCancel(ctx), f.a.opts.CancelTimeout)
	defer stop()
	task, err := f.a.rpc.CancelTask(cctx, &a2a.TaskIDParams{ID: f.taskID})
	if err != nil {
		return fmt.Sprintf("task %s was sent tasks/cancel, which failed: %v", f.taskID, f.rpcError(err))
	}
	return fmt.Sprintf("task %s was sent tasks/cancel; the agent says it is %s", f.taskID, task.Status.State)
}

// result turns the final state into the call's answer.
func (f *follower) result(ctx context.Context) (tool.Output, error) {
	if f.reply != nil {
		return outputOf("", "", nil, f.reply), nil
	}
	t := f.task
	out := outputOf(string(t.ID), string(t.Status.State), t.Artifacts, nil)
	why := messageText(t.Status.Message)
	switch t.Status.State {
	case a2a.TaskStateCompleted:
		if out.Text == "" && why != "" {
			out.Text = why
		}
		return out, nil
	case a2a.TaskStateFailed:
		return out, &tool.ToolError{Code: CodeFailed, Message: orElse(why, "the agent's task failed without a message")}
	case a2a.TaskStateRejected:
		return out, &tool.ToolError{Code: CodeRejected, Message: orElse(why, "the agent rejected the task without a message")}
	case a2a.TaskStateCanceled:
		return out, &tool.ToolError{Code: CodeCanceled, Message: orElse(why, "the agent canceled the task")}
	case a2a.TaskStateAuthRequired:
		return tool.Output{}, &tool.ToolError{Code: CodeAuthRequired, Message: fmt.Sprintf("the agent needs authentication to go on (%s); set the headers of its servers.json entry; %s",
			orElse(why, "it did not say how"), f.cancel(ctx))}
	default: // input-required
		return tool.Output{}, &tool.ToolError{Code: CodeInputRequired, Message: fmt.Sprintf("the agent needs input to go on: %s; no answer was given within the call (declined, bypass mode, or no one to ask), so %s; ask the person, then call again with everything the agent needs in one message",
			orElse(why, "it did not say what"), f.cancel(ctx))}
	}
}

func orElse(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// messageText joins the text parts of a message.
func messageText(m *a2a.Message) string {
	if m == nil {
		return ""
	}
	var b []string
	for _, p := range m.Parts {
		if t, ok := p.(a2a.TextPart); ok && t.Text != "" {
			b = append(b, t.Text)
		}
	}
	return strings.Join(b, "\n")
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && s[len(s)-1]&0xC0 == 0x80 { // do not split a rune
		s = s[:len(s)-1]
	}
	if len(s) > 0 && s[len(s)-1] >= 0xC0 {
		s = s[:len(s)-1]
	}
	return s + "…"
}
