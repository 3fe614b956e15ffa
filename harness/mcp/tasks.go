package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/internal/jsonenc"
	"github.com/openworker/desktop/harness/tool"
)

// MCP tasks, client side (docs/mcp.md#tasks): a tool whose
// execution.taskSupport is "required", or "optional" on a server entry
// with "tasks": true, is called with a task-augmented tools/call; the
// server answers a task at once, which is followed with tasks/get until it
// ends, and its result is read with tasks/result. The task ID goes to the
// ctx's TaskHandle before anything else, so a crash leaves a durable
// handle (docs/journal.md#handles). Sent over the raw side channel
// (rawcall.go): the SDK has none of this.

// Task statuses (MCP 2025-11-25).
const (
	TaskWorking       = "working"
	TaskInputRequired = "input_required"
	TaskCompleted     = "completed"
	TaskFailed        = "failed"
	TaskCancelled     = "cancelled"
)

// Task support values of a tool's execution.taskSupport.
const (
	taskRequired = "required"
	taskOptional = "optional"
)

// Poll interval bounds: a server's pollInterval is kept within them; none
// means taskPollDefault.
const (
	taskPollMin     = 20 * time.Millisecond
	taskPollMax     = 5 * time.Second
	taskPollDefault = time.Second
	// TaskCancelTimeout bounds the tasks/cancel sent when a call stops.
	TaskCancelTimeout = 10 * time.Second
	// taskTTL is the ttl (ms) asked for a task: a day, so a handle
	// journaled before a crash can still be asked about after it.
	taskTTL = 24 * 60 * 60 * 1000
)

// Task is a server's task as tasks/get answers it.
type Task struct {
	ID            string `json:"taskId"`
	Status        string `json:"status"`
	StatusMessage string `json:"statusMessage,omitempty"`
	PollInterval  int64  `json:"pollInterval,omitempty"` // ms
}

func (t Task) terminal() bool {
	return t.Status == TaskCompleted || t.Status == TaskFailed || t.Status == TaskCancelled
}

type taskHandleKey struct{}

// WithTaskHandle returns ctx carrying handle, which a task-augmented call
// made with it calls once with the task ID as soon as the server answers
// the call, before following the task (the harness journals it).
func WithTaskHandle(ctx context.Context, handle func(taskID string)) context.Context {
	return context.WithValue(ctx, taskHandleKey{}, handle)
}

// taskTools caches the taskSupport of each tool, read with a raw
// tools/list (the SDK drops "execution") once per catalog version.
type taskTools struct {
	mu      sync.Mutex
	version uint64
	read    bool
	support map[string]string
}

// taskSupport is the execution.taskSupport of tool name ("" when absent).
func (p *Provider) taskSupport(ctx context.Context, raw rawCaller, name string) (string, error) {
	tt := &p.tasks
	tt.mu.Lock()
	defer tt.mu.Unlock()
	if v := p.catalog.Load(); !tt.read || tt.version != v {
		support, err := listTaskSupport(ctx, raw)
		if err != nil {
			return "", err
		}
		tt.support, tt.version, tt.read = support, v, true
	}
	return tt.support[name], nil
}

func listTaskSupport(ctx context.Context, raw rawCaller) (map[string]string, error) {
	out := map[string]string{}
	cursor := ""
	for range 100 {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		res, err := raw.rawCall(ctx, "tools/list", params, nil)
		if err != nil {
			return nil, fmt.Errorf("tools/list for task support: %w", err)
		}
		var page struct {
			Tools []struct {
				Name      string `json:"name"`
				Execution *struct {
					TaskSupport string `json:"taskSupport"`
				} `json:"execution"`
			} `json:"tools"`
			NextCursor string `json:"nextCursor"`
		}
		if err := json.Unmarshal(res, &page); err != nil {
			return nil, fmt.Errorf("tools/list for task support: %w", err)
		}
		for _, t := range page.Tools {
			if t.Execution != nil && t.Execution.TaskSupport != "" {
				out[t.Name] = t.Execution.TaskSupport
			}
		}
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	return out, nil
}

// taskCaps is what the handshake said of tasks: the server's
// capabilities.tasks.requests.tools.call, read off the wire (the SDK
// drops it) from the first response that has a protocolVersion.
type taskCaps struct {
	seen  atomic.Bool
	calls atomic.Bool
}

// observeCaps reads the tasks capability from an initialize (or
// server/discover) response, until one was seen.
func (p *Provider) observeCaps(msg jsonrpc.Message) {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok || resp.Error != nil || p.taskCaps.seen.Load() || !bytes.Contains(resp.Result, []byte(`"protocolVersion"`)) {
		return
	}
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
		Capabilities    struct {
			Tasks *struct {
				Requests *struct {
					Tools *struct {
						Call json.RawMessage `json:"call"`
					} `json:"tools"`
				} `json:"requests"`
			} `json:"tasks"`
		} `json:"capabilities"`
	}
	if json.Unmarshal(resp.Result, &r) != nil || r.ProtocolVersion == "" {
		return
	}
	t := r.Capabilities.Tasks
	p.taskCaps.calls.Store(t != nil && t.Requests != nil && t.Requests.Tools != nil && len(t.Requests.Tools.Call) > 0)
	p.taskCaps.seen.Store(true)
}

// useTask reports whether the call of name is task-augmented, and the raw
// caller to make it with. A provider with no raw channel (SSE) or whose
// tools/list fails is called the ordinary way.
func (p *Provider) useTask(ctx context.Context, name string) (rawCaller, bool) {
	if !p.taskCaps.calls.Load() { // the server offers no task-augmented tools/call
		return nil, false
	}
	raw := p.raw()
	if raw == nil {
		return nil, false
	}
	support, err := p.taskSupport(ctx, raw, name)
	if err != nil {
		p.opts.Logger.Warn("mcp provider: could not read the tools' task support; calling the ordinary way", "namespace", p.srv.Namespace, "err", err)
		return nil, false
	}
	return raw, support == taskRequired || (support == taskOptional && p.srv.Tasks)
}

// callAsTask makes the task-augmented call of name (docs/mcp.md#tasks).
// token is the call's progress token ("" for none): the server's
// notifications/progress for it reach progress; every new status message
// of the task does too, with data {"task_id","status"}.
func (p *Provider) callAsTask(ctx context.Context, raw rawCaller, name string, args json.RawMessage, token string, progress ProgressFunc) (tool.Output, error) {
	params := map[string]any{"name": name, "arguments": args, "task": map[string]any{"ttl": taskTTL}}
	if token != "" {
		params["_meta"] = map[string]any{"progressToken": token}
	}
	note := p.rawNote
	res, err := raw.rawCall(ctx, "tools/call", params, note)
	if err != nil {
		return tool.Output{}, p.taskError(ctx, name, "", err)
	}
	var created struct {
		Task *Task `json:"task"`
	}
	if err := json.Unmarshal(res, &created); err != nil || created.Task == nil || created.Task.ID == "" {
		// The server ran the call without a task: an ordinary result.
		return p.rawToolResult(name, res)
	}
	task := *created.Task
	if h, ok := ctx.Value(taskHandleKey{}).(func(string)); ok && h != nil {
		h(task.ID)
	}
	task, err = p.followTask(ctx, raw, task, progress)
	if err != nil {
		return tool.Output{}, p.cancelTask(ctx, raw, name, task, err)
	}
	res, err = raw.rawCall(ctx, "tasks/result", map[string]any{"taskId": task.ID}, note)
	if err != nil {
		return tool.Output{}, p.cancelTask(ctx, raw, name, task, p.taskError(ctx, name, task.ID, err))
	}
	out, err := p.rawToolResult(name, res)
	if task.Status != TaskCompleted { // failed or cancelled by the server
		msg := fmt.Sprintf("the task %s is %s%s", task.ID, task.Status, quoted(p.secrets.text(task.StatusMessage)))
		if text := out.ModelText(); text != "" {
			msg += "; the tool said: " + clip(text, 500)
		}
		err = &tool.ToolError{Code: "mcp_task_" + task.Status, Message: msg}
	}
	return out, err
}

// followTask polls the task with tasks/get until it ends or waits for
// input (then tasks/result carries the server's questions).
func (p *Provider) followTask(ctx context.Context, raw rawCaller, task Task, progress ProgressFunc) (Task, error) {
	last := ""
	for {
		if progress != nil && task.StatusMessage != "" && task.StatusMessage != last {
			last = task.StatusMessage
			data, _ := jsonenc.Marshal(map[string]string{"task_id": task.ID, "status": task.Status})
			if err := progress(p.secrets.text(task.StatusMessage), data); err != nil {
				return task, err
			}
		}
		if task.terminal() || task.Status == TaskInputRequired {
			return task, nil
		}
		wait := time.Duration(task.PollInterval) * time.Millisecond
		if wait == 0 {
			wait = taskPollDefault
		}
		wait = min(max(wait, taskPollMin), taskPollMax)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return task, ctx.Err()
		case <-t.C:
		}
		next, err := getTask(ctx, raw, task.ID)
		if err != nil {
			return task, fmt.Errorf("tasks/get %s: %w", task.ID, err)
		}
		task = next
	}
}

func getTask(ctx context.Context, raw rawCaller, id string) (Task, error) {
	res, err := raw.rawCall(ctx, "tasks/get", map[string]any{"taskId": id}, nil)
	if err != nil {
		return Task{}, err
	}
	var t Task
	if err := json.Unmarshal(res, &t); err != nil || t.Status == "" {
		return Task{}, fmt.Errorf("the answer is not a task: %s", clip(string(res), 200))
	}
	if t.ID == "" {
		t.ID = id
	}
	return t, nil
}

// cancelTask sends tasks/cancel for a task that has not ended (bounded by
// TaskCancelTimeout, whatever ctx) and returns err saying how it went.
func (p *Provider) cancelTask(ctx context.Context, raw rawCaller, name string, task Task, err error) error {
	if task.terminal() {
		return err
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), TaskCancelTimeout)
	defer cancel()
	if _, cerr := raw.rawCall(cctx, "tasks/cancel", map[string]any{"taskId": task.ID}, nil); cerr != nil {
		return fmt.Errorf("mcp provider %q: tools/call %q stopped (%w); tasks/cancel of task %s failed: %v", p.srv.Namespace, name, err, task.ID, cerr)
	}
	return fmt.Errorf("mcp provider %q: tools/call %q stopped (%w); task %s was cancelled", p.srv.Namespace, name, err, task.ID)
}

// taskError shapes an error of the raw channel: a JSON-RPC error answer is
// a tool error the model reads; anything else a plain error.
func (p *Provider) taskError(ctx context.Context, name, taskID string, err error) error {
	var wire *jsonrpc.Error
	if ctx.Err() == nil && errors.As(err, &wire) {
		return &tool.ToolError{Code: "mcp_error", Message: p.secrets.text(wire.Message)}
	}
	if taskID != "" {
		return fmt.Errorf("mcp provider %q: tools/call %q (task %s): %w", p.srv.Namespace, name, taskID, err)
	}
	return fmt.Errorf("mcp provider %q: tools/call %q: %w", p.srv.Namespace, name, err)
}

// rawToolResult reads a CallToolResult off the raw channel.
func (p *Provider) rawToolResult(name string, res json.RawMessage) (tool.Output, error) {
	var r sdk.CallToolResult
	if err := json.Unmarshal(res, &r); err != nil {
		return tool.Output{}, fmt.Errorf("mcp provider %q: tools/call %q: the result is not a CallToolResult: %v", p.srv.Namespace, name, err)
	}
	return p.toolResult(name, &r)
}

// rawNote routes a notification of a raw request's own stream (streamable
// HTTP): progress goes to its call like the SDK's.
func (p *Provider) rawNote(method string, params json.RawMessage) {
	if method != methodProgress {
		return
	}
	var prm sdk.ProgressNotificationParams
	if json.Unmarshal(params, &prm) != nil {
		return
	}
	if tok, ok := prm.ProgressToken.(string); ok {
		p.observeToken(tok)
	}
	p.onProgress(context.Background(), &sdk.ProgressNotificationClientRequest{Params: &prm})
}

// TaskPoll is what a server says of a task (PollTask).
type TaskPoll struct {
	Task   Task
	Known  bool        // false: the server does not know the task
	Output tool.Output // a completed task's result
	Err    error       // a completed task's result that is an error
}

// PollTask asks the server about task id with one tasks/get, and reads the
// result of a task that ended with tasks/result (docs/mcp.md#tasks). An
// unknown task is Known false. Nothing is sent again.
func (p *Provider) PollTask(ctx context.Context, id string) (TaskPoll, error) {
	raw := p.raw()
	if raw == nil {
		return TaskPoll{}, errNoRaw
	}
	t, err := getTask(ctx, raw, id)
	var wire *jsonrpc.Error
	if errors.As(err, &wire) {
		return TaskPoll{Task: Task{ID: id}, Known: false}, nil
	}
	if err != nil {
		return TaskPoll{}, p.secrets.err(fmt.Errorf("mcp provider %q: tasks/get %s: %w", p.srv.Namespace, id, err))
	}
	out := TaskPoll{Task: t, Known: true}
	if t.Status != TaskCompleted {
		return out, nil
	}
	res, err := raw.rawCall(ctx, "tasks/result", map[string]any{"taskId": id}, nil)
	if err != nil {
		return TaskPoll{}, p.secrets.err(fmt.Errorf("mcp provider %q: tasks/result %s: %w", p.srv.Namespace, id, err))
	}
	out.Output, out.Err = p.rawToolResult("", res)
	return out, nil
}

func quoted(msg string) string {
	if msg == "" {
		return ""
	}
	return fmt.Sprintf(": %q", clip(msg, 200))
}
