package a2a_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/a2a"
	"github.com/openworker/desktop/harness/a2a/a2atest"
	"github.com/openworker/desktop/harness/tool"
)

// instant is a clock whose every wait is over at once: a call polls
// tasks/get back to back.
func instant(time.Duration) <-chan time.Time {
	c := make(chan time.Time, 1)
	c <- time.Time{}
	return c
}

// backoff is a clock whose waits start at first and double up to most:
// short on a quiet machine, long enough in all on a loaded one.
func backoff(first, most time.Duration) func(time.Duration) <-chan time.Time {
	var mu sync.Mutex
	next := first
	return func(time.Duration) <-chan time.Time {
		mu.Lock()
		d := next
		next = min(2*next, most)
		mu.Unlock()
		return time.After(d)
	}
}

// manual is a clock whose waits end when the test ticks it.
type manual struct {
	mu    sync.Mutex
	waits []time.Duration
	tick  chan time.Time
}

func newManual() *manual { return &manual{tick: make(chan time.Time)} }

func (m *manual) After(d time.Duration) <-chan time.Time {
	m.mu.Lock()
	m.waits = append(m.waits, d)
	m.mu.Unlock()
	return m.tick
}

// modes runs f against an agent that streams and one that does not, each
// speaking A2A 0.3 and 1.0 (a2a-go's 0.3 server and v2's).
func modes(t *testing.T, f func(t *testing.T, ag *a2atest.Agent, streaming bool)) {
	versions(t, func(t *testing.T, v1 bool) {
		for _, streaming := range []bool{true, false} {
			t.Run(fmt.Sprintf("streaming=%v", streaming), func(t *testing.T) {
				f(t, startAgent(t, a2atest.Options{Streaming: streaming, V1: v1}), streaming)
			})
		}
	})
}

// versions runs f for an agent of A2A 0.3 (v1 false) and one of 1.0.
func versions(t *testing.T, f func(t *testing.T, v1 bool)) {
	for _, v1 := range []bool{false, true} {
		t.Run(map[bool]string{false: "a2a=0.3", true: "a2a=1.0"}[v1], func(t *testing.T) { f(t, v1) })
	}
}

type recorder struct {
	known    chan string // receives the task ID when the Task hook gets it
	mu       sync.Mutex
	tasks    []string
	progress []string
}

func (r *recorder) hooks() a2a.Hooks {
	return a2a.Hooks{
		Task: func(id string) {
			r.mu.Lock()
			r.tasks = append(r.tasks, id)
			r.mu.Unlock()
			if r.known != nil {
				r.known <- id
			}
		},
		Progress: func(msg string, data json.RawMessage) error {
			r.mu.Lock()
			r.progress = append(r.progress, msg+" "+string(data))
			r.mu.Unlock()
			return nil
		},
	}
}

func (r *recorder) taskIDs() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.tasks...)
}

func TestCallEcho(t *testing.T) {
	modes(t, func(t *testing.T, ag *a2atest.Agent, streaming bool) {
		a := fetch(t, ag, a2a.Options{After: instant})
		var rec recorder
		out, err := a.Call(context.Background(), "echo", json.RawMessage(`{"text":"hello","data":{"n":1}}`), rec.hooks())
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.Text, "echo: hello") || !strings.Contains(out.Text, `{"echo":{"n":1}}`) {
			t.Errorf("text %q", out.Text)
		}
		var st struct {
			TaskID    string `json:"task_id"`
			State     string `json:"state"`
			Artifacts []struct {
				Parts []struct {
					Kind string         `json:"kind"`
					Text string         `json:"text"`
					Data map[string]any `json:"data"`
				} `json:"parts"`
			} `json:"artifacts"`
		}
		if err := json.Unmarshal(out.Structured, &st); err != nil {
			t.Fatal(err)
		}
		if st.State != "completed" || len(st.Artifacts) != 1 || len(st.Artifacts[0].Parts) != 2 || st.Artifacts[0].Parts[1].Kind != "data" {
			t.Errorf("structured %s", out.Structured)
		}
		if ids := rec.taskIDs(); len(ids) != 1 || ids[0] != st.TaskID {
			t.Errorf("the Task hook got %v; the result names %s", ids, st.TaskID)
		}
		if n := ag.Requests("X-Test: fetch-check"); n < 2 {
			t.Errorf("%d requests carried the entry's header; want the card's and the call's", n)
		}
	})
}

func TestCallSlowBoundedAndCanceled(t *testing.T) {
	modes(t, func(t *testing.T, ag *a2atest.Agent, streaming bool) {
		clock := newManual()
		a := fetch(t, ag, a2a.Options{After: clock.After})
		rec := recorder{known: make(chan string, 1)}
		ctx, cancel := context.WithCancelCause(context.Background())
		type result struct {
			out tool.Output
			err error
		}
		done := make(chan result, 1)
		go func() {
			out, err := a.Call(ctx, "slow", json.RawMessage(`{"text":"take your time"}`), rec.hooks())
			done <- result{out, err}
		}()
		var id string
		select {
		case id = <-ag.Started():
		case r := <-done:
			t.Fatalf("the call returned before the task started: %v", r.err)
		case <-time.After(hangGuard):
			t.Fatal("the slow task never started")
		}
		select {
		case got := <-rec.known: // the caller can journal the handle before the bound
			if got != id {
				t.Fatalf("the Task hook got %s; the agent started %s", got, id)
			}
		case <-time.After(hangGuard):
			t.Fatal("the Task hook never got the task ID")
		}
		if streaming { // a 1.0 stream starts with the submitted task, before the agent's first status
			for deadline := time.Now().Add(hangGuard); ; time.Sleep(10 * time.Millisecond) {
				rec.mu.Lock()
				p := strings.Join(rec.progress, "|")
				rec.mu.Unlock()
				if strings.Contains(p, "slow task started") {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the agent's status never came as progress: %q", p)
				}
			}
		}
		// The harness's bound ends the call (here at once, by hand).
		bound := fmt.Errorf("the call took longer than 75s: %w", tool.ErrLimit)
		cancel(bound)
		var r result
		select {
		case r = <-done:
		case <-time.After(hangGuard):
			t.Fatal("the call did not return after its bound")
		}
		if !errors.Is(r.err, tool.ErrLimit) || !strings.Contains(r.err.Error(), "task "+id+" was sent tasks/cancel; the agent says it is canceled") {
			t.Fatalf("error %v", r.err)
		}
		select {
		case got := <-ag.Canceled():
			if got != id {
				t.Errorf("the agent canceled %s, want %s", got, id)
			}
		case <-time.After(hangGuard):
			t.Fatal("the agent never got tasks/cancel")
		}
		if ids := rec.taskIDs(); len(ids) != 1 || ids[0] != id {
			t.Errorf("the Task hook got %v, want [%s]", ids, id)
		}
		if streaming {
			rec.mu.Lock()
			p := strings.Join(rec.progress, "|")
			rec.mu.Unlock()
			if !strings.Contains(p, "slow task started") || !strings.Contains(p, `"state":"working"`) {
				t.Errorf("progress %q", p)
			}
		} else if w := clock.Waits(); len(w) == 0 || w[0] != a2a.DefaultPollInterval {
			t.Errorf("waits %v; want polls every %s", w, a2a.DefaultPollInterval)
		}
		// The agent's own answer now: canceled, so not applied.
		p, err := a.Poll(context.Background(), id)
		if err != nil || !p.Known || p.State != "canceled" || p.Outcome() != a2a.OutcomeNotApplied {
			t.Fatalf("poll %+v, %v", p, err)
		}
	})
}

func TestCallInputRequired(t *testing.T) {
	modes(t, func(t *testing.T, ag *a2atest.Agent, streaming bool) {
		a := fetch(t, ag, a2a.Options{After: instant})
		var rec recorder
		_, err := a.Call(context.Background(), "ask", json.RawMessage(`{"text":"weather?"}`), rec.hooks())
		var te *tool.ToolError
		if !errors.As(err, &te) || te.Code != a2a.CodeInputRequired || !strings.Contains(te.Message, "the agent needs input to go on: "+a2atest.Question) {
			t.Fatalf("error %v", err)
		}
		ids := rec.taskIDs()
		if len(ids) != 1 {
			t.Fatalf("task ids %v", ids)
		}
		select {
		case got := <-ag.Canceled():
			if got != ids[0] {
				t.Errorf("canceled %s, want %s", got, ids[0])
			}
		case <-time.After(hangGuard):
			t.Fatal("the waiting task was not canceled")
		}
	})
}

func TestCallFail(t *testing.T) {
	modes(t, func(t *testing.T, ag *a2atest.Agent, streaming bool) {
		a := fetch(t, ag, a2a.Options{After: instant})
		_, err := a.Call(context.Background(), "fail", json.RawMessage(`{"text":"x"}`), a2a.Hooks{})
		var te *tool.ToolError
		if !errors.As(err, &te) || te.Code != a2a.CodeFailed || te.Message != a2atest.FailMessage {
			t.Fatalf("error %v", err)
		}
	})
}

func TestCallUnknownSkill(t *testing.T) {
	ag := startAgent(t, a2atest.Options{})
	a := fetch(t, ag, a2a.Options{After: instant})
	if _, err := a.Call(context.Background(), "nope", json.RawMessage(`{"text":"x"}`), a2a.Hooks{}); err == nil || !strings.Contains(err.Error(), `its card lists no skill "nope"`) {
		t.Fatalf("error %v", err)
	}
	if n := ag.Requests("/a2a"); n != 0 {
		t.Errorf("%d requests reached the agent", n)
	}
}

func TestPollFinishedTask(t *testing.T) { versions(t, testPollFinishedTask) }

func testPollFinishedTask(t *testing.T, v1 bool) {
	ag := startAgent(t, a2atest.Options{Streaming: true, V1: v1})
	a := fetch(t, ag, a2a.Options{})
	if want := map[bool]string{false: "0.3", true: "1.0"}[v1]; a.ProtocolVersion() != want {
		t.Errorf("ProtocolVersion() = %q, want %q", a.ProtocolVersion(), want)
	}
	rec := recorder{known: make(chan string, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := a.Call(ctx, "slow", json.RawMessage(`{"text":"later"}`), rec.hooks())
		done <- err
	}()
	id := recv(t, ag.Started(), "the slow task's start")
	if got := recv(t, rec.known, "the task ID"); got != id { // the agent stored the task before it streamed it
		t.Fatalf("task %s, started %s", got, id)
	}
	p, err := a.Poll(context.Background(), id)
	// A 1.0 agent stores the task as submitted before its executor says
	// working: ask again until it has.
	for deadline := time.Now().Add(hangGuard); err == nil && p.State == "submitted" && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		p, err = a.Poll(context.Background(), id)
	}
	if err != nil || !p.Known || p.State != "working" || p.Outcome() != "" {
		t.Fatalf("poll of a working task %+v, %v", p, err)
	}
	ag.Release()
	if err := recv(t, done, "the call's end"); err != nil {
		t.Fatal(err)
	}
	cancel()
	p, err = a.Poll(context.Background(), id)
	if err != nil || !p.Known || p.Outcome() != a2a.OutcomeApplied || !strings.Contains(p.Output.Text, "slow done: later") {
		t.Fatalf("poll %+v, %v", p, err)
	}
}

func TestPollUnknownTask(t *testing.T) { versions(t, testPollUnknownTask) }

func testPollUnknownTask(t *testing.T, v1 bool) {
	ag := startAgent(t, a2atest.Options{V1: v1})
	a := fetch(t, ag, a2a.Options{})
	p, err := a.Poll(context.Background(), "no-such-task")
	if err != nil || p.Known || p.Outcome() != "" {
		t.Fatalf("poll %+v, %v", p, err)
	}
}

func TestCallEndpointNeverAnswers(t *testing.T) {
	addr := hang(t)
	for _, streaming := range []bool{true, false} {
		u := serve(t, fmt.Sprintf(`{"name": "x", "url": "http://%s/a2a", "capabilities": {"streaming": %v}, %s}`, addr, streaming, goodSkills), 200)
		a, err := a2a.Fetch(context.Background(), tool.A2AAgent{Namespace: "x", Card: u}, a2a.Options{CardTimeout: hangGuard})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		start := time.Now()
		_, err = a.Call(ctx, "echo", json.RawMessage(`{"text":"x"}`), a2a.Hooks{})
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("streaming=%v: error %v", streaming, err)
		}
		if d := time.Since(start); d > hangGuard {
			t.Errorf("streaming=%v: the call took %s", streaming, d)
		}
		ctx, cancel = context.WithTimeout(context.Background(), 200*time.Millisecond)
		if _, err := a.Poll(ctx, "t1"); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("poll: %v", err)
		}
		cancel()
	}
}

func (m *manual) Waits() []time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]time.Duration(nil), m.waits...)
}

// An agent that sends back a credential of its entry (a header value, a
// substituted secret) never gets it into the result or the progress.
func TestCallRedactsSecrets(t *testing.T) {
	ag := startAgent(t, a2atest.Options{Streaming: true})
	a, err := a2a.Fetch(context.Background(), tool.A2AAgent{Namespace: "helper", Card: ag.CardURL,
		Headers: map[string]string{"Authorization": "Bearer s3cr3t-token"}, Secrets: []string{"hunter22"}}, a2a.Options{CardTimeout: hangGuard})
	if err != nil {
		t.Fatal(err)
	}
	out, err := a.Call(context.Background(), "echo", json.RawMessage(`{"text":"token s3cr3t-token and hunter22","data":{"k":"hunter22"}}`), a2a.Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{out.Text, string(out.Structured)} {
		if strings.Contains(s, "s3cr3t-token") || strings.Contains(s, "hunter22") || !strings.Contains(s, "[redacted]") {
			t.Errorf("not redacted: %s", s)
		}
	}
	if !json.Valid(out.Structured) {
		t.Errorf("structured %s", out.Structured)
	}
}

// A secret that is the start of another (in configuration order, the
// shorter first) leaves no tail of the longer one in the result, as
// written or base64-encoded (internal/redact).
func TestCallRedactsPrefixSecrets(t *testing.T) {
	ag := startAgent(t, a2atest.Options{})
	a, err := a2a.Fetch(context.Background(), tool.A2AAgent{Namespace: "helper", Card: ag.CardURL,
		Secrets: []string{"sk-abc", "sk-abcdef123"}}, a2a.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := a.Call(context.Background(), "echo", json.RawMessage(`{"text":"keys sk-abcdef123 c2stYWJjZGVmMTIz sk-abc"}`), a2a.Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.Text, "def123") || strings.Contains(out.Text, "sk-abc") || strings.Contains(out.Text, "ZGVmMTIz") || strings.Count(out.Text, "[redacted]") != 3 {
		t.Errorf("Text = %q, want three [redacted] and no tail", out.Text)
	}
}

// With someone to ask, an input-required task gets the person's answer as
// its next message and completes; a declined question ends as before.
func TestCallInputRequiredAnswered(t *testing.T) {
	modes(t, func(t *testing.T, ag *a2atest.Agent, streaming bool) {
		// Not instant: a2a-go's server refuses the answer while it still
		// winds down the run that asked (questions.go), and a retry must
		// give it a moment; nothing here measures time. The call retries
		// a refused answer at most 10 times: the waits double from 20 ms
		// (capped at 5 s), so a loaded machine gets about 15 s in all.
		a := fetch(t, ag, a2a.Options{After: backoff(20*time.Millisecond, 5*time.Second)})
		var questions []string
		var rec recorder
		h := rec.hooks()
		h.Ask = func(_ context.Context, q string) (string, bool) {
			questions = append(questions, q)
			return "Paris", true
		}
		out, err := a.Call(context.Background(), "ask", json.RawMessage(`{"text":"weather?"}`), h)
		if err != nil || !strings.Contains(out.Text, "answer: Paris") {
			t.Fatalf("call = %+v, %v", out, err)
		}
		if len(questions) != 1 || questions[0] != a2atest.Question {
			t.Errorf("questions %q", questions)
		}
		if ids := rec.taskIDs(); len(ids) != 1 {
			t.Errorf("task ids %v; the answer continues the same task", ids)
		}
		h.Ask = func(context.Context, string) (string, bool) { return "", false }
		_, err = a.Call(context.Background(), "ask", json.RawMessage(`{"text":"weather?"}`), h)
		var te *tool.ToolError
		if !errors.As(err, &te) || te.Code != a2a.CodeInputRequired {
			t.Fatalf("declined: %v", err)
		}
	})
}

// recv waits for one value of c, failing the test after hangGuard (a hang).
func recv[T any](t *testing.T, c <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(hangGuard):
		t.Fatalf("%s never came", what)
	}
	var zero T
	return zero
}
