package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/mcp/mcptest"
	"github.com/openworker/desktop/harness/tool"
)

func connectTaskServer(t *testing.T, s *mcptest.TaskServer, tasks bool) *Provider {
	t.Helper()
	p, err := Connect(context.Background(), tool.MCPServer{Namespace: "reports", Transport: tool.TransportStreamableHTTP, URL: s.URL, Tasks: tasks}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// TestTaskRequiredCompletesThroughPolling: a tool whose
// execution.taskSupport is "required" is called with a task-augmented
// tools/call; the task ID reaches the ctx's TaskHandle before the call
// returns, the status message is shown as progress, tasks/get is polled
// until the task completes, and tasks/result gives the output. A tool
// without taskSupport is called the ordinary way.
func TestTaskRequiredCompletesThroughPolling(t *testing.T) {
	s := mcptest.NewTaskServer()
	defer s.Close()
	p := connectTaskServer(t, s, false)

	var mu sync.Mutex
	var handle string
	var progress []string
	ctx := WithTaskHandle(context.Background(), func(id string) {
		mu.Lock()
		handle = id
		mu.Unlock()
	})
	go func() {
		id := <-s.Started()
		// Release only once the client polled the working task at least once.
		for s.Count("tasks/get") == 0 {
			time.Sleep(10 * time.Millisecond)
		}
		if s.Status(id) != TaskWorking {
			t.Errorf("task %s is %q while polled", id, s.Status(id))
		}
		s.Release()
	}()
	var out tool.Output
	var err error
	within(t, hangGuard, "task call", func() {
		out, err = p.CallTool(ctx, "report", json.RawMessage(`{"text":"Q3"}`), func(msg string, data json.RawMessage) error {
			mu.Lock()
			progress = append(progress, msg+" "+string(data))
			mu.Unlock()
			return nil
		})
	})
	if err != nil || !strings.Contains(out.ModelText(), "report done: Q3") {
		t.Fatalf("CallTool = %+v, %v", out, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if handle == "" || s.Status(handle) != TaskCompleted {
		t.Errorf("handle %q (status %q); want the server's task", handle, s.Status(handle))
	}
	if len(progress) == 0 || !strings.HasPrefix(progress[0], "step 1 of 2 ") || !strings.Contains(progress[0], `"task_id":"`+handle+`"`) {
		t.Errorf("progress = %q", progress)
	}
	if s.Count("tasks/get") == 0 || s.Count("tasks/result") != 1 || s.Count("tools/call") != 1 {
		t.Errorf("tools/call %d, tasks/get %d, tasks/result %d", s.Count("tools/call"), s.Count("tasks/get"), s.Count("tasks/result"))
	}

	// An ordinary tool of the same server: no task.
	out, err = p.CallTool(context.Background(), "echo", json.RawMessage(`{"text":"hi"}`), nil)
	if err != nil || out.ModelText() != "echo: hi" {
		t.Errorf("echo = %+v, %v", out, err)
	}
}

// TestTaskFailedAndCancelled: a task that fails is a tool error naming
// its status; a call stopped while its task works sends tasks/cancel and
// the server's task is cancelled.
func TestTaskFailedAndCancelled(t *testing.T) {
	s := mcptest.NewTaskServer()
	defer s.Close()
	p := connectTaskServer(t, s, false)
	s.Release()
	_, err := p.CallTool(context.Background(), "report", json.RawMessage(`{"text":"fail"}`), nil)
	var te *tool.ToolError
	if !errors.As(err, &te) || te.Code != "mcp_task_failed" || !strings.Contains(te.Message, "could not be written") {
		t.Fatalf("failed task: %v", err)
	}
	<-s.Started()

	s2 := mcptest.NewTaskServer()
	defer s2.Close()
	p2 := connectTaskServer(t, s2, false)
	ctx, cancel := context.WithCancel(context.Background())
	var id string
	within(t, hangGuard, "stopped task call", func() {
		// Stop while the task works, once it exists.
		_, err = p2.CallTool(WithTaskHandle(ctx, func(h string) { id = h; cancel() }), "report", json.RawMessage(`{"text":"long"}`), nil)
	})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "was cancelled") {
		t.Fatalf("stopped call: %v", err)
	}
	if s2.Status(id) != TaskCancelled || s2.Count("tasks/cancel") != 1 {
		t.Errorf("task %s is %q after %d tasks/cancel", id, s2.Status(id), s2.Count("tasks/cancel"))
	}
}

// TestPollTask: PollTask asks with tasks/get; a working task is reported
// as is, a completed one with its result, one the server does not know
// as not Known.
func TestPollTask(t *testing.T) {
	s := mcptest.NewTaskServer()
	defer s.Close()
	p := connectTaskServer(t, s, false)
	ctx, cancel := context.WithCancel(context.Background())
	var handle string
	_, _ = p.CallTool(WithTaskHandle(ctx, func(id string) { handle = id; cancel() }), "report", json.RawMessage(`{"text":"x"}`), nil)
	if handle == "" {
		t.Fatal("no handle")
	}
	// The stopped call cancelled its task.
	res, err := p.PollTask(context.Background(), handle)
	if err != nil || !res.Known || res.Task.Status != TaskCancelled {
		t.Fatalf("PollTask = %+v, %v", res, err)
	}
	// A task that completed: its result too.
	s.Release()
	var done string
	if _, err := p.CallTool(WithTaskHandle(context.Background(), func(id string) { done = id }), "report", json.RawMessage(`{"text":"y"}`), nil); err != nil {
		t.Fatal(err)
	}
	res, err = p.PollTask(context.Background(), done)
	if err != nil || !res.Known || res.Task.Status != TaskCompleted || res.Output.ModelText() != "report done: y" || res.Err != nil {
		t.Fatalf("PollTask of a completed task = %+v, %v", res, err)
	}
	res, err = p.PollTask(context.Background(), "no-such-task")
	if err != nil || res.Known {
		t.Fatalf("PollTask of an unknown task = %+v, %v", res, err)
	}
}

// TestTaskOverStdio: over stdio the task requests go on the process's
// stdin with their own IDs and their responses are picked out of its
// stdout (rawcall.go); the call completes through tasks/get and
// tasks/result, the handle is given, and the ordinary calls of the
// session go on beside it.
func TestTaskOverStdio(t *testing.T) {
	p, err := Connect(context.Background(), selfServer(t, "reports", "tasks"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if !p.taskCaps.calls.Load() {
		t.Fatal("the handshake's tasks capability was not read off stdout")
	}
	var handle string
	var out tool.Output
	within(t, hangGuard, "stdio task call", func() {
		out, err = p.CallTool(WithTaskHandle(context.Background(), func(id string) { handle = id }), "report", json.RawMessage(`{"text":"over stdio"}`), nil)
	})
	if err != nil || out.ModelText() != "report done: over stdio" || !strings.HasPrefix(handle, "task-") {
		t.Fatalf("CallTool = %+v, %v (handle %q)", out, err, handle)
	}
	res, err := p.PollTask(context.Background(), handle)
	if err != nil || res.Task.Status != TaskCompleted || res.Output.ModelText() != "report done: over stdio" {
		t.Fatalf("PollTask = %+v, %v", res, err)
	}
	if out, err := p.CallTool(context.Background(), "echo", json.RawMessage(`{"text":"hi"}`), nil); err != nil || out.ModelText() != "echo: hi" || !p.Alive() {
		t.Fatalf("echo after the task = %+v, %v", out, err)
	}
}
