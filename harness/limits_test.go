package harness_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// Each native limit of docs/limits.md, exactly at the bound (the call succeeds and
// the turn completes) and one over (the turn stops, the write ends unknown,
// nothing is replayed).
func TestNativeLimitsAtAndOver(t *testing.T) {
	progress := func(n int, msgLen func(i int) int) func(context.Context, *tool.Call, json.RawMessage) (tool.Output, error) {
		return func(_ context.Context, c *tool.Call, _ json.RawMessage) (tool.Output, error) {
			for i := 0; i < n; i++ {
				if err := c.Progress(strings.Repeat("p", msgLen(i)), nil); err != nil {
					return tool.Output{}, err
				}
			}
			return tool.Output{Text: "done"}, nil
		}
	}
	one := func(int) int { return 1 }
	// One progress event {"message":"<m>","data":null} is m+26 bytes of JSON.
	quarter := func(last int) func(i int) int {
		return func(i int) int {
			if i == 3 {
				return last
			}
			return 4096 - 26
		}
	}
	result := func(structured, text int) func(context.Context, *tool.Call, json.RawMessage) (tool.Output, error) {
		return func(context.Context, *tool.Call, json.RawMessage) (tool.Output, error) {
			var o tool.Output
			if structured > 0 {
				o.Structured = json.RawMessage(`"` + strings.Repeat("s", structured-2) + `"`)
			}
			o.Text = strings.Repeat("t", text)
			return o, nil
		}
	}
	cases := []struct {
		name      string
		fn        func(context.Context, *tool.Call, json.RawMessage) (tool.Output, error)
		ok        bool
		progress  int // progress events forwarded
		wantError string
	}{
		{"64 progress events", progress(64, one), true, 64, ""},
		{"65 progress events", progress(65, one), false, 64, "progress event 65 over the limit of 64"},
		{"progress message of 4096 bytes", progress(1, func(int) int { return 4096 }), true, 1, ""},
		{"progress message of 4097 bytes", progress(1, func(int) int { return 4097 }), false, 0, "progress message of 4097 bytes over the limit of 4096"},
		{"16 KB of progress JSON", progress(4, quarter(4096-26)), true, 4, ""},
		{"16 KB + 1 of progress JSON", progress(4, quarter(4096-25)), false, 3, "progress JSON of 16385 bytes over the limit of 16384"},
		{"result of 256 KB", result(100<<10, 156<<10), true, 0, ""},
		{"result of 256 KB + 1", result(100<<10, 156<<10+1), false, 0, "the result is 262145 bytes, over the limit of 262144"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := &testTool{name: "test.write", risk: tool.NonIdempotentWrite, fn: tc.fn}
			e := newEnv(t, envOpts{
				tools: []tool.Tool{w}, selected: []string{"test.write"},
				replies: []modeltest.Reply{{ToolCalls: []model.ToolCall{call("c1", "test__write", `{}`)}}, {Text: "finished"}},
			})
			s, res, err := e.send("go")
			if err != nil {
				t.Fatal(err)
			}
			invs := e.invocations(s.ID())
			if len(invs) != 1 {
				t.Fatalf("got %d invocations, want 1", len(invs))
			}
			if got := len(e.eventsOf(harness.EventToolProgress)); got != tc.progress {
				t.Errorf("progress events forwarded = %d, want %d", got, tc.progress)
			}
			if w.calls.Load() != 1 {
				t.Fatalf("tool ran %d times, want exactly 1 (never replayed)", w.calls.Load())
			}
			if tc.ok {
				if res.Status != harness.TurnCompleted || invs[0].Status != "succeeded" {
					t.Fatalf("result %+v, invocation %s %s; want completed and succeeded", res, invs[0].Status, invs[0].Error)
				}
				return
			}
			if res.Status != harness.TurnStopped || invs[0].Status != "unknown" || invs[0].ErrorCode != "limit_exceeded" {
				t.Fatalf("result %+v, invocation %s/%s; want stopped and unknown/limit_exceeded", res, invs[0].Status, invs[0].ErrorCode)
			}
			if !strings.Contains(invs[0].Error, tc.wantError) || !strings.Contains(res.Reason, tc.wantError) {
				t.Fatalf("journaled error %q / reason %q; want them to say %q", invs[0].Error, res.Reason, tc.wantError)
			}
			if n := len(e.model.Requests()); n != 1 {
				t.Fatalf("model got %d requests, want 1: the turn stops after a breach", n)
			}
		})
	}
}

// A tool that ignores its context is abandoned: the turn does not wait for
// it (it never returns during the test, so a turn that waited would hang
// past hangGuard), and the write ends unknown. How long the harness waits
// is TestStuckToolAbandonedAfterBoundAndGrace.
func TestTimeoutOfAToolThatIgnoresCancellation(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	stuck := &testTool{name: "test.stuck", risk: tool.NonIdempotentWrite, fn: func(context.Context, *tool.Call, json.RawMessage) (tool.Output, error) {
		<-release
		return tool.Output{Text: "late"}, nil
	}}
	e := newEnv(t, envOpts{
		tools: []tool.Tool{stuck}, selected: []string{"test.stuck"}, limits: tool.Limits{CallTimeout: 100 * time.Millisecond},
		replies: []modeltest.Reply{{ToolCalls: []model.ToolCall{call("c1", "test__stuck", `{}`)}}, {Text: "never"}},
	})
	var s *harness.Session
	var res *harness.TurnResult
	var err error
	within(t, hangGuard, "the turn with a stuck tool", func() { s, res, err = e.send("go") })
	if err != nil {
		t.Fatal(err)
	}
	invs := e.invocations(s.ID())
	if res.Status != harness.TurnStopped || invs[0].Status != "unknown" || !strings.Contains(invs[0].Error, "longer than 100ms") {
		t.Fatalf("result %+v, invocation %+v; want stopped, unknown, naming the bound", res, invs[0])
	}
}

// A stuck tool is waited for exactly its CallTimeout plus the harness's 2 s
// grace for a tool to return after its context ends (execute.go), then
// abandoned. The call runs in a synctest bubble, whose clock advances
// only when every goroutine of the bubble is blocked, so the wait is
// exact whatever the machine's load.
func TestStuckToolAbandonedAfterBoundAndGrace(t *testing.T) {
	const bound, grace = 100 * time.Millisecond, 2 * time.Second
	var release chan struct{} // made in the bubble: a tool blocked on it is durably blocked
	stuck := &testTool{name: "test.stuck", risk: tool.NonIdempotentWrite, fn: func(context.Context, *tool.Call, json.RawMessage) (tool.Output, error) {
		<-release
		return tool.Output{Text: "late"}, nil
	}}
	e := newEnv(t, envOpts{tools: []tool.Tool{stuck}, selected: []string{"test.stuck"}, limits: tool.Limits{CallTimeout: bound}})
	ctx := context.Background()
	s, err := e.rt.NewSession(ctx, "tester", e.so)
	if err != nil {
		t.Fatal(err)
	}
	callTool, err := harness.ToolCaller(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	synctest.Test(t, func(t *testing.T) {
		release = make(chan struct{})
		defer close(release)
		start := time.Now()
		msg, stop := callTool("test__stuck", `{}`)
		if took := time.Since(start); took != bound+grace {
			t.Errorf("the call took %v of the bubble's clock, want exactly the %v bound and the %v grace", took, bound, grace)
		}
		if !msg.IsError || !strings.Contains(msg.Text, "limit_exceeded") {
			t.Errorf("tool result = %+v, want a limit_exceeded error", msg)
		}
		if !strings.Contains(stop, "longer than 100ms") {
			t.Errorf("the call stopped the turn with %q, want the bound named", stop)
		}
	})
	if invs := e.invocations(s.ID()); len(invs) != 1 || invs[0].Status != "unknown" || !strings.Contains(invs[0].Error, "longer than 100ms") {
		t.Fatalf("invocations = %+v, want one, unknown, naming the bound", invs)
	}
}

// A panic is recovered: its value and stack go to the log, never to the
// journal or to any model request.
func TestPanicStackGoesToTheLogOnly(t *testing.T) {
	const secret = "secret-panic-value-7c1f"
	var logs lockedBuffer
	bad := &testTool{name: "test.write", risk: tool.NonIdempotentWrite, fn: func(context.Context, *tool.Call, json.RawMessage) (tool.Output, error) {
		panic(secret)
	}}
	e := newEnv(t, envOpts{
		tools: []tool.Tool{bad}, selected: []string{"test.write"}, logger: slog.New(slog.NewTextHandler(&logs, nil)),
		replies: []modeltest.Reply{
			{ToolCalls: []model.ToolCall{call("c1", "test__write", `{}`)}},
			{Text: "the next turn"},
		},
	})
	s, res, err := e.send("go")
	if err != nil || res.Status != harness.TurnStopped {
		t.Fatalf("Send = %+v, %v; want stopped", res, err)
	}
	// A second turn sends the history (with the failed call) to the model.
	if _, err := s.Send(context.Background(), "and now?", nil); err != nil {
		t.Fatal(err)
	}
	log := logs.String()
	if !strings.Contains(log, secret) || !strings.Contains(log, "limits_test.go") || !strings.Contains(log, "native tool panicked") {
		t.Fatalf("log = %q; want the panic value and its stack", log)
	}
	for i, r := range e.model.Requests() {
		if strings.Contains(string(r.Body), secret) || strings.Contains(string(r.Body), "limits_test.go") {
			t.Fatalf("model request %d holds the panic value or stack", i)
		}
	}
	if len(e.model.Requests()) != 2 {
		t.Fatalf("model got %d requests, want 2 (one per turn)", len(e.model.Requests()))
	}
	if err := e.rt.Close(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{e.db, e.db + "-wal"} {
		b, err := os.ReadFile(f)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if strings.Contains(string(b), secret) {
			t.Fatalf("%s holds the panic value", f)
		}
	}
}

// A result within the 256 KB limit always reaches the journal's terminal
// row: "<" is kept as one byte, and a text that still grows past the
// journal's 1 MB field limit once escaped (control characters: six bytes
// each) is recorded by its size and digest, so the call is succeeded, not
// left executing to be recovered as unknown. Such a text cannot be
// journaled as the model's message either: it is not sent, and the turn
// stops saying why.
func TestLargeResultsAreJournaled(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
		turn             journal.TurnStatus
	}{
		{"angle brackets", strings.Repeat("<", 200_000), strings.Repeat("<", 1000), harness.TurnCompleted},
		{"control characters", strings.Repeat("\x01", 200_000), `"omitted":"the result was too large to journal`, harness.TurnStopped},
	} {
		t.Run(c.name, func(t *testing.T) {
			big := &testTool{name: "test.big", risk: tool.ReadOnly, fn: func(context.Context, *tool.Call, json.RawMessage) (tool.Output, error) {
				return tool.Output{Text: c.text}, nil
			}}
			e := newEnv(t, envOpts{tools: []tool.Tool{big}, selected: []string{"test.big"}, replies: []modeltest.Reply{
				{ToolCalls: []model.ToolCall{call("c1", "test__big", `{"text":"x"}`)}}, {Text: "done"},
			}})
			s, res, err := e.send("go")
			if err != nil || res.Status != c.turn {
				t.Fatalf("turn = %+v, %v; want %s", res, err, c.turn)
			}
			if c.turn == harness.TurnStopped && !strings.Contains(res.Reason, "journal could not record") {
				t.Errorf("turn stopped because %q; want the journal's reason", res.Reason)
			}
			invs := e.invocations(s.ID())
			if len(invs) != 1 || invs[0].Status != journal.InvSucceeded || !strings.Contains(string(invs[0].Result), c.want) {
				t.Fatalf("invocation = %s, result %.200s; want succeeded with %q", invs[0].Status, invs[0].Result, c.want)
			}
			if len(invs[0].Result) > journal.MaxJSONBytes {
				t.Errorf("journaled result is %d bytes", len(invs[0].Result))
			}
		})
	}
}
