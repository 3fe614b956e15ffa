package protocol_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/protocol"
	"github.com/openworker/desktop/harness/tool"
)

// waitTool blocks until release is closed.
type waitTool struct{ release chan struct{} }

func (w waitTool) Descriptor() tool.Descriptor {
	return tool.Descriptor{Name: "slow.wait", Version: "1.0.0", Description: "waits", Risk: tool.ReadOnly,
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`)}
}

func (w waitTool) Call(ctx context.Context, _ *tool.Call, _ json.RawMessage) (tool.Output, error) {
	select {
	case <-w.release:
	case <-ctx.Done():
	}
	return tool.Output{Structured: json.RawMessage(`{"ok":true}`)}, nil
}

// lines is the server's output, safe to read while it writes; each write
// wakes a waiter.
type lines struct {
	mu   sync.Mutex
	buf  strings.Builder
	wake chan struct{} // capacity 1
}

func newLines() *lines { return &lines{wake: make(chan struct{}, 1)} }

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	n, err := l.buf.Write(p)
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
	return n, err
}

// wait returns the first output line containing every one of subs, looking
// again after each write, or fails after 30 s (a hang guard).
func (l *lines) wait(t *testing.T, subs ...string) string {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		l.mu.Lock()
		all := l.buf.String()
		l.mu.Unlock()
	next:
		for _, line := range strings.Split(all, "\n") {
			for _, s := range subs {
				if !strings.Contains(line, s) {
					continue next
				}
			}
			return line
		}
		select {
		case <-l.wake:
		case <-deadline:
			t.Fatalf("no output line with %q within 30 s", subs)
			return ""
		}
	}
}

// Opening a session again while one of its turns runs keeps that turn's
// state: a second turn.send is busy, not run beside it. Resuming an unknown
// session is not_found. A session.open right after a session.close reopens
// the session once it is closed.
func TestSessionOpenAgainKeepsTheRunningTurn(t *testing.T) {
	dir := t.TempDir()
	cw := filepath.Join(dir, "bundles", "waiter", "coworker")
	os.MkdirAll(cw, 0o755)
	os.WriteFile(filepath.Join(cw, "manifest.md"), []byte("---\nid: waiter\nname: Waiter\ndescription: waits\nversion: 1.0.0\n---\nWait.\n"), 0o644)
	os.WriteFile(filepath.Join(cw, "tools.json"), []byte(`{"version":3,"tools":["slow.wait"]}`), 0o644)
	wt := waitTool{release: make(chan struct{})}
	reg := tool.NewRegistry()
	if err := reg.Register(wt); err != nil {
		t.Fatal(err)
	}
	srvModel := modeltest.NewOpenAI(t, modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "slow__wait", Arguments: `{}`}}}, modeltest.Reply{Text: "done"}, modeltest.Reply{Text: "reopened"})
	provider, err := model.New(model.Config{Provider: "openai", BaseURL: srvModel.URL, Model: "test", APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	rt, err := harness.Open(context.Background(), reg, harness.Options{Coworkers: filepath.Dir(filepath.Dir(cw)), DBPath: filepath.Join(dir, "j.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	pr, pw := io.Pipe()
	out := newLines()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() {
		served <- protocol.NewServer(out).Serve(ctx, rt, harness.SessionOptions{Model: provider, Approve: "bypass"}, pr)
	}()
	send := func(id int, method, params string) {
		fmt.Fprintf(pw, `{"id":%d,"method":%q,"params":%s}`+"\n", id, method, params)
	}

	send(1, "session.open", `{"coworker":"waiter"}`)
	var opened struct {
		Result struct {
			SessionID string `json:"session_id"`
		}
	}
	json.Unmarshal([]byte(out.wait(t, `"id":1`)), &opened)
	sid := opened.Result.SessionID
	if sid == "" {
		t.Fatalf("session.open gave no session id: %s", out.wait(t, `"id":1`))
	}
	send(2, "turn.send", `{"session_id":"`+sid+`","text":"wait"}`)
	out.wait(t, `"tool.started"`)
	send(3, "session.open", `{"session_id":"`+sid+`"}`)
	if line := out.wait(t, `"id":3`); !strings.Contains(line, sid) || strings.Contains(line, `"error"`) {
		t.Fatalf("session.open of the open session = %s", line)
	}
	send(4, "turn.send", `{"session_id":"`+sid+`","text":"and again"}`)
	if line := out.wait(t, `"id":4`); !strings.Contains(line, `"busy"`) {
		t.Fatalf("turn.send while the first turn runs = %s; want busy", line)
	}
	close(wt.release)
	if line := out.wait(t, `"id":2`); !strings.Contains(line, `"completed"`) {
		t.Fatalf("the first turn = %s", line)
	}
	send(5, "session.open", `{"session_id":"ses_nope"}`)
	if line := out.wait(t, `"id":5`); !strings.Contains(line, `"not_found"`) {
		t.Errorf("session.open of an unknown session = %s; want not_found", line)
	}
	// A close and a reopen read back to back: the open waits for the close
	// and reopens the session, so the next turn runs in it.
	send(6, "session.close", `{"session_id":"`+sid+`"}`)
	send(7, "session.open", `{"session_id":"`+sid+`"}`)
	if line := out.wait(t, `"id":6`); !strings.Contains(line, `"closed":true`) {
		t.Fatalf("session.close = %s", line)
	}
	if line := out.wait(t, `"id":7`); !strings.Contains(line, sid) || strings.Contains(line, `"error"`) {
		t.Fatalf("session.open right after session.close = %s", line)
	}
	send(8, "turn.send", `{"session_id":"`+sid+`","text":"still there?"}`)
	if line := out.wait(t, `"id":8`); !strings.Contains(line, `"completed"`) || !strings.Contains(line, "reopened") {
		t.Errorf("turn.send after the reopen = %s; want it to run in the reopened session", line)
	}
	pw.Close()
	if err := <-served; err != nil {
		t.Errorf("Serve = %v", err)
	}
}
