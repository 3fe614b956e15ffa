package mcptest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// TaskServer is a streamable HTTP MCP server (protocol 2025-11-25) on
// 127.0.0.1 that speaks MCP tasks (docs/mcp.md#tasks) at the JSON-RPC
// level, as no Go SDK does yet. It declares the tasks capability and two
// tools:
//   - "report" (execution.taskSupport "required"): a tools/call without
//     "task" is refused with -32601; with one it answers a CreateTaskResult
//     (status "working", pollInterval 20 ms) at once. The task's status
//     message moves to "step 1 of 2" at once; the task completes with the
//     text "report done: TEXT" (argument "text") after Release, or fails
//     when the text is "fail";
//   - "echo" (no execution): answers "echo: TEXT" the ordinary way.
//
// tasks/get answers the task (unknown ids: -32602); tasks/result waits for
// a terminal status and answers the CallToolResult with the related-task
// _meta; tasks/cancel cancels a task that is not terminal. A server
// restarted with the same State keeps its tasks (Restart).
type TaskServer struct {
	URL string

	srv     *httptest.Server
	mu      sync.Mutex
	tasks   map[string]*serverTask
	counts  map[string]int
	release chan struct{}
	rel     sync.Once
	started chan string
	seq     int
}

type serverTask struct {
	id, status, message, text string
	done                      chan struct{}
}

// NewTaskServer starts a TaskServer; Close stops it.
func NewTaskServer() *TaskServer {
	s := newTaskServer()
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL + "/mcp"
	return s
}

func newTaskServer() *TaskServer {
	return &TaskServer{tasks: map[string]*serverTask{}, counts: map[string]int{}, release: make(chan struct{}), started: make(chan string, 1024)}
}

// ServeTasksStdio is a TaskServer over stdio (newline-delimited JSON-RPC
// on r and w) whose tasks complete as soon as they are created (Release
// is done), until r ends. Requests are answered concurrently, as
// tasks/result waits.
func ServeTasksStdio(r io.Reader, w io.Writer) error {
	s := newTaskServer()
	s.Release()
	var mu sync.Mutex
	write := func(msg map[string]any) {
		b, _ := json.Marshal(msg)
		mu.Lock()
		defer mu.Unlock()
		w.Write(append(b, '\n'))
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var wg sync.WaitGroup
	for sc.Scan() {
		var req rpcReq
		if json.Unmarshal(sc.Bytes(), &req) != nil || len(req.ID) == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			write(s.reply(context.Background(), req))
		}()
	}
	wg.Wait()
	return sc.Err()
}

// Close stops the server.
func (s *TaskServer) Close() { s.srv.Close() }

// Release lets every task that is working complete.
func (s *TaskServer) Release() { s.rel.Do(func() { close(s.release) }) }

// Started receives each task ID as the task is created.
func (s *TaskServer) Started() <-chan string { return s.started }

// Count is how many requests of method the server answered.
func (s *TaskServer) Count(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[method]
}

// Status is the status of task id, or "" when the server has none.
func (s *TaskServer) Status(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.tasks[id]; t != nil {
		return t.status
	}
	return ""
}

type rpcReq struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

func (s *TaskServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	var req rpcReq
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if len(req.ID) == 0 { // a notification
		w.WriteHeader(http.StatusAccepted)
		return
	}
	msg := s.reply(r.Context(), req)
	if req.Method == "initialize" {
		w.Header().Set("Mcp-Session-Id", "task-session")
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(msg)
}

// reply is the response message to req.
func (s *TaskServer) reply(ctx context.Context, req rpcReq) map[string]any {
	s.mu.Lock()
	s.counts[req.Method]++
	s.mu.Unlock()
	result, rerr := s.answer(ctx, req)
	msg := map[string]any{"jsonrpc": "2.0", "id": req.ID}
	if rerr != nil {
		msg["error"] = rerr
	} else {
		msg["result"] = result
	}
	return msg
}

type rpcErr struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (s *TaskServer) answer(ctx context.Context, req rpcReq) (any, *rpcErr) {
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Task      json.RawMessage `json:"task"`
		TaskID    string          `json:"taskId"`
	}
	_ = json.Unmarshal(req.Params, &p)
	switch req.Method {
	case "initialize":
		return map[string]any{"protocolVersion": "2025-11-25", "serverInfo": map[string]any{"name": "tasks", "version": "1.0.0"},
			"capabilities": map[string]any{"tools": map[string]any{}, "tasks": map[string]any{"list": map[string]any{}, "cancel": map[string]any{},
				"requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}}}}, nil
	case "ping":
		return map[string]any{}, nil
	case "tools/list":
		schema := map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}}
		return map[string]any{"tools": []any{
			map[string]any{"name": "report", "description": "Writes a long report.", "inputSchema": schema, "execution": map[string]any{"taskSupport": "required"}},
			map[string]any{"name": "echo", "description": "Echoes the text.", "inputSchema": schema},
		}}, nil
	case "tools/call":
		return s.call(p.Name, p.Arguments, p.Task)
	case "tasks/get", "tasks/cancel":
		s.mu.Lock()
		defer s.mu.Unlock()
		t := s.tasks[p.TaskID]
		if t == nil {
			return nil, &rpcErr{Code: -32602, Message: "unknown task " + p.TaskID}
		}
		if req.Method == "tasks/cancel" && !terminal(t.status) {
			t.status, t.message = "cancelled", "cancelled by the client"
			close(t.done)
		}
		return t.json(), nil
	case "tasks/result":
		s.mu.Lock()
		t := s.tasks[p.TaskID]
		s.mu.Unlock()
		if t == nil {
			return nil, &rpcErr{Code: -32602, Message: "unknown task " + p.TaskID}
		}
		select {
		case <-t.done:
		case <-ctx.Done():
			return nil, &rpcErr{Code: -32603, Message: "gone"}
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		meta := map[string]any{"io.modelcontextprotocol/related-task": map[string]any{"taskId": t.id}}
		if t.status == "completed" {
			return map[string]any{"content": []any{map[string]any{"type": "text", "text": "report done: " + t.text}}, "_meta": meta}, nil
		}
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": "the report " + t.status}}, "isError": true, "_meta": meta}, nil
	}
	return nil, &rpcErr{Code: -32601, Message: "method not found: " + req.Method}
}

func terminal(status string) bool {
	return status == "completed" || status == "failed" || status == "cancelled"
}

func (t *serverTask) json() map[string]any {
	now := time.Now().UTC().Format(time.RFC3339)
	return map[string]any{"taskId": t.id, "status": t.status, "statusMessage": t.message, "createdAt": now, "lastUpdatedAt": now, "ttl": 600000, "pollInterval": 20}
}

func (s *TaskServer) call(name string, args, task json.RawMessage) (any, *rpcErr) {
	var a struct{ Text string }
	_ = json.Unmarshal(args, &a)
	switch name {
	case "echo":
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": "echo: " + a.Text}}}, nil
	case "report":
	default:
		return nil, &rpcErr{Code: -32602, Message: "unknown tool " + name}
	}
	if len(bytes.TrimSpace(task)) == 0 || string(task) == "null" {
		return nil, &rpcErr{Code: -32601, Message: "tool report requires task augmentation"}
	}
	s.mu.Lock()
	s.seq++
	t := &serverTask{id: fmt.Sprintf("task-%d-%d", time.Now().UnixNano()%1e6, s.seq), status: "working", message: "step 1 of 2", text: a.Text, done: make(chan struct{})}
	s.tasks[t.id] = t
	out := map[string]any{"task": t.json()}
	s.mu.Unlock()
	s.started <- t.id
	go func() {
		select {
		case <-s.release:
		case <-t.done:
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if terminal(t.status) {
			return
		}
		t.status, t.message = "completed", "done"
		if strings.EqualFold(a.Text, "fail") {
			t.status, t.message = "failed", "the report could not be written"
		}
		close(t.done)
	}()
	return out, nil
}
