package harness_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

func TestNativeCallSucceeds(t *testing.T) {
	echo := &testTool{name: "test.echo", risk: tool.ReadOnly}
	e := newEnv(t, envOpts{
		tools:    []tool.Tool{echo},
		selected: []string{"test.echo"},
		replies: []modeltest.Reply{
			{ToolCalls: []model.ToolCall{call("c1", "test__echo", `{"text":"hello"}`)}},
			{Text: "The tool said hello."},
		},
	})
	s, res, err := e.send("say hello")
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != harness.TurnCompleted || res.Text != "The tool said hello." || res.Attempts != 2 || res.Calls != 1 {
		t.Fatalf("result = %+v, want completed with the final text after 2 attempts and 1 call", res)
	}
	if n := echo.calls.Load(); n != 1 {
		t.Fatalf("tool ran %d times, want 1", n)
	}
	invs := e.invocations(s.ID())
	if len(invs) != 1 || invs[0].Status != "succeeded" || invs[0].Tool != "test.echo" || invs[0].Alias != "test__echo" {
		t.Fatalf("invocations = %+v, want one succeeded test.echo", invs)
	}
	if !contains(string(invs[0].Result), `"echo":"hello"`) {
		t.Fatalf("journaled result = %s, want the echo", invs[0].Result)
	}
	as := e.approvals(s.ID())
	if len(as) != 1 || as[0].Decision != "allow_once" || as[0].Source != "bypass" {
		t.Fatalf("approvals = %+v, want one bypass allow", as)
	}
	// The model saw exactly the selected tool under its alias.
	reqs := e.model.Requests()
	if len(reqs) != 2 {
		t.Fatalf("model got %d requests, want 2", len(reqs))
	}
	if got := reqs[0].ToolNames(); len(got) != 1 || got[0] != "test__echo" {
		t.Fatalf("tools offered = %v, want [test__echo]", got)
	}
	// Closing revokes the tool's access.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if len(echo.revoked) == 0 || echo.revoked[len(echo.revoked)-1] != s.ID() {
		t.Fatalf("revoked = %v, want the session revoked on close", echo.revoked)
	}
}

func TestUnselectedToolIsRefusedAndNeverRuns(t *testing.T) {
	echo := &testTool{name: "test.echo", risk: tool.ReadOnly}
	hidden := &testTool{name: "test.hidden", risk: tool.NonIdempotentWrite}
	e := newEnv(t, envOpts{
		tools:    []tool.Tool{echo, hidden},
		selected: []string{"test.echo"},
		replies: []modeltest.Reply{
			{ToolCalls: []model.ToolCall{call("c1", "test__hidden", `{}`), call("c2", "test.echo", `{}`)}},
			{Text: "I cannot do that."},
		},
	})
	s, res, err := e.send("do the hidden thing")
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != harness.TurnCompleted {
		t.Fatalf("status = %s, want completed (a refusal goes back to the model)", res.Status)
	}
	if hidden.calls.Load() != 0 || echo.calls.Load() != 0 {
		t.Fatalf("calls hidden=%d echo=%d, want none", hidden.calls.Load(), echo.calls.Load())
	}
	invs := e.invocations(s.ID())
	if len(invs) != 2 {
		t.Fatalf("got %d invocations, want 2 refusals", len(invs))
	}
	for _, inv := range invs {
		if inv.Status != "refused" || inv.ErrorCode != "not_selected" {
			t.Fatalf("invocation %+v, want refused not_selected", inv)
		}
	}
	second := e.model.Requests()[1]
	if len(second.ToolResults()) != 2 || !contains(second.ToolResults()[0].Text, "not_selected") {
		t.Fatalf("tool results sent to the model = %+v, want two error results", second.ToolResults())
	}
}

func TestDenyPolicyWinsOverBypass(t *testing.T) {
	echo := &testTool{name: "test.echo", risk: tool.ReadOnly}
	e := newEnv(t, envOpts{
		tools:    []tool.Tool{echo},
		selected: []string{"test.echo"},
		policy:   "policy:\n  test.echo: deny\n",
		replies: []modeltest.Reply{
			{ToolCalls: []model.ToolCall{call("c1", "test__echo", `{}`)}},
			{Text: "denied"},
		},
	})
	s, _, err := e.send("x")
	if err != nil {
		t.Fatal(err)
	}
	if echo.calls.Load() != 0 {
		t.Fatal("a denied tool ran")
	}
	as := e.approvals(s.ID())
	if len(as) != 1 || as[0].Decision != "deny" || as[0].Source != consent.SourceManifest {
		t.Fatalf("approvals = %+v, want one manifest deny", as)
	}
}

func TestAskGrantsForTheSession(t *testing.T) {
	echo := &testTool{name: "test.echo", risk: tool.ReadOnly}
	p := &fixedPrompter{d: consent.AllowSession}
	e := newEnv(t, envOpts{
		tools: []tool.Tool{echo}, selected: []string{"test.echo"}, mode: consent.Ask, prompter: p,
		replies: []modeltest.Reply{
			{ToolCalls: []model.ToolCall{call("c1", "test__echo", `{"text":"a"}`)}},
			{ToolCalls: []model.ToolCall{call("c2", "test__echo", `{"text":"b"}`)}},
			{Text: "done"},
		},
	})
	s, res, err := e.send("twice")
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("Send = %+v, %v", res, err)
	}
	if p.count.Load() != 1 || echo.calls.Load() != 2 {
		t.Fatalf("prompts=%d calls=%d, want 1 prompt (then the session grant) and 2 calls", p.count.Load(), echo.calls.Load())
	}
	as := e.approvals(s.ID())
	if len(as) != 2 || as[0].Source != "prompt" || as[1].Source != "grant" {
		t.Fatalf("approvals = %+v, want prompt then grant", as)
	}
}

func TestAskWithoutPrompterDenies(t *testing.T) {
	echo := &testTool{name: "test.echo", risk: tool.ReadOnly}
	e := newEnv(t, envOpts{
		tools: []tool.Tool{echo}, selected: []string{"test.echo"}, mode: consent.Ask,
		prompter: &fixedPrompter{d: consent.Deny, err: consent.ErrNoTerminal},
		replies: []modeltest.Reply{
			{ToolCalls: []model.ToolCall{call("c1", "test__echo", `{}`)}},
			{Text: "ok"},
		},
	})
	s, _, err := e.send("x")
	if err != nil {
		t.Fatal(err)
	}
	if echo.calls.Load() != 0 {
		t.Fatal("tool ran without approval")
	}
	as := e.approvals(s.ID())
	if len(as) != 1 || as[0].Decision != "deny" || !contains(as[0].Reason, "no terminal") {
		t.Fatalf("approvals = %+v, want a deny saying there is no terminal", as)
	}
}

func TestPromptTimeoutDenies(t *testing.T) {
	echo := &testTool{name: "test.echo", risk: tool.ReadOnly}
	p := &fixedPrompter{d: consent.AllowOnce, delay: time.Hour}
	e := newEnv(t, envOpts{
		tools: []tool.Tool{echo}, selected: []string{"test.echo"}, mode: consent.Ask, prompter: p,
		replies: []modeltest.Reply{{ToolCalls: []model.ToolCall{call("c1", "test__echo", `{}`)}}, {Text: "ok"}},
	})
	// Shorten the prompt timeout through a second runtime on the same journal.
	_ = e
	reg := tool.NewRegistry()
	_ = reg.Register(echo)
	provider, _ := model.New(model.Config{BaseURL: e.model.URL, Model: "test", APIKey: "k"})
	rt, err := harness.Open(context.Background(), reg, harness.Options{Coworkers: e.dir + "/coworkers", Journal: e.rt.Journal()})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	s, err := rt.NewSession(context.Background(), "tester", harness.SessionOptions{Model: provider, Approve: consent.Ask, Prompter: p, PromptTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Send(context.Background(), "x", nil); err != nil {
		t.Fatal(err)
	}
	as := e.approvals(s.ID())
	if len(as) != 1 || as[0].Decision != "deny" || as[0].Source != consent.SourceTimeout {
		t.Fatalf("approvals = %+v, want a timeout deny", as)
	}
	if echo.calls.Load() != 0 {
		t.Fatal("tool ran after a timed-out prompt")
	}
}

func TestInvalidArgumentsAreRefused(t *testing.T) {
	echo := &testTool{name: "test.echo", risk: tool.ReadOnly}
	e := newEnv(t, envOpts{
		tools: []tool.Tool{echo}, selected: []string{"test.echo"},
		replies: []modeltest.Reply{
			{ToolCalls: []model.ToolCall{
				call("c1", "test__echo", `{"text":`),      // malformed JSON
				call("c2", "test__echo", `{"unknown":1}`), // schema: additionalProperties
				call("c3", "test__echo", `[1,2]`),         // not an object
				call("c4", "test__echo", `{"text":"`+string(make([]byte, 0))+`ok"}`),
			}},
			{Text: "ok"},
		},
	})
	s, res, err := e.send("x")
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("Send = %+v, %v", res, err)
	}
	invs := e.invocations(s.ID())
	want := []journal.InvocationStatus{harness.StatusRefused, harness.StatusRefused, harness.StatusRefused, harness.StatusSucceeded}
	if len(invs) != len(want) {
		t.Fatalf("got %d invocations, want %d", len(invs), len(want))
	}
	for i, inv := range invs {
		if inv.Status != want[i] {
			t.Errorf("invocation %d status = %s (%s), want %s", i, inv.Status, inv.Error, want[i])
		}
	}
	if echo.calls.Load() != 1 {
		t.Fatalf("tool ran %d times, want 1", echo.calls.Load())
	}
}

func TestCallBudgetStopsTheTurn(t *testing.T) {
	echo := &testTool{name: "test.echo", risk: tool.ReadOnly}
	calls := make([]model.ToolCall, 0, 5)
	for i := 0; i < 5; i++ {
		calls = append(calls, call("c"+string(rune('a'+i)), "test__echo", `{}`))
	}
	e := newEnv(t, envOpts{
		tools: []tool.Tool{echo}, selected: []string{"test.echo"}, maxCalls: 2,
		replies: []modeltest.Reply{{ToolCalls: calls}},
	})
	s, res, err := e.send("x")
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != harness.TurnStopped || !contains(res.Reason, "budget of 2 tool calls") {
		t.Fatalf("result = %+v, want stopped over the budget", res)
	}
	if echo.calls.Load() != 2 {
		t.Fatalf("tool ran %d times, want 2", echo.calls.Load())
	}
	invs := e.invocations(s.ID())
	if len(invs) != 3 || invs[2].ErrorCode != "over_budget" {
		t.Fatalf("invocations = %+v, want 2 runs and 1 over-budget refusal", invs)
	}
}

func TestPanicStopsTheTurn(t *testing.T) {
	bad := &testTool{name: "test.write", risk: tool.NonIdempotentWrite, fn: func(context.Context, *tool.Call, json.RawMessage) (tool.Output, error) {
		panic("secret stack detail")
	}}
	e := newEnv(t, envOpts{
		tools: []tool.Tool{bad}, selected: []string{"test.write"},
		replies: []modeltest.Reply{{ToolCalls: []model.ToolCall{call("c1", "test__write", `{}`)}}, {Text: "never"}},
	})
	s, res, err := e.send("x")
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != harness.TurnStopped {
		t.Fatalf("status = %s, want stopped", res.Status)
	}
	invs := e.invocations(s.ID())
	if len(invs) != 1 || invs[0].Status != "unknown" || contains(invs[0].Error, "secret stack detail") {
		t.Fatalf("invocation = %+v, want unknown without the panic value", invs)
	}
	if n := len(e.model.Requests()); n != 1 {
		t.Fatalf("model got %d requests, want 1 (the turn stops)", n)
	}
}

func TestTimeoutEndsReadOnlyAsFailedAndWriteAsUnknown(t *testing.T) {
	for _, risk := range []tool.Risk{tool.ReadOnly, tool.NonIdempotentWrite} {
		slow := &testTool{name: "test.slow", risk: risk, fn: func(ctx context.Context, _ *tool.Call, _ json.RawMessage) (tool.Output, error) {
			<-ctx.Done()
			return tool.Output{}, ctx.Err()
		}}
		e := newEnv(t, envOpts{
			tools: []tool.Tool{slow}, selected: []string{"test.slow"}, limits: tool.Limits{CallTimeout: 100 * time.Millisecond},
			replies: []modeltest.Reply{{ToolCalls: []model.ToolCall{call("c1", "test__slow", `{}`)}}},
		})
		s, res, err := e.send("x")
		if err != nil {
			t.Fatal(err)
		}
		want := harness.StatusUnknown
		if risk == tool.ReadOnly {
			want = harness.StatusFailed
		}
		invs := e.invocations(s.ID())
		if res.Status != harness.TurnStopped || len(invs) != 1 || invs[0].Status != want || invs[0].ErrorCode != "limit_exceeded" {
			t.Fatalf("%s: result %+v, invocations %+v; want stopped and %s/limit_exceeded", risk, res, invs, want)
		}
	}
}

func TestToolErrorGoesBackToTheModel(t *testing.T) {
	nf := &testTool{name: "test.find", risk: tool.ReadOnly, fn: func(context.Context, *tool.Call, json.RawMessage) (tool.Output, error) {
		return tool.Output{}, tool.Errorf("not_found", "no such thing")
	}}
	e := newEnv(t, envOpts{
		tools: []tool.Tool{nf}, selected: []string{"test.find"},
		replies: []modeltest.Reply{{ToolCalls: []model.ToolCall{call("c1", "test__find", `{}`)}}, {Text: "It was not found."}},
	})
	s, res, err := e.send("x")
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("Send = %+v, %v", res, err)
	}
	invs := e.invocations(s.ID())
	if len(invs) != 1 || invs[0].Status != "failed" || invs[0].ErrorCode != "not_found" {
		t.Fatalf("invocations = %+v", invs)
	}
	tr := e.model.Requests()[1].ToolResults()
	if len(tr) != 1 || !contains(tr[0].Text, "no such thing") {
		t.Fatalf("tool results = %+v", tr)
	}
}

func TestUnreachableModelFailsTheSession(t *testing.T) {
	echo := &testTool{name: "test.echo", risk: tool.ReadOnly}
	e := newEnv(t, envOpts{tools: []tool.Tool{echo}, selected: []string{"test.echo"}})
	reg := tool.NewRegistry()
	_ = reg.Register(echo)
	provider, _ := model.New(model.Config{BaseURL: "http://127.0.0.1:1/v1", Model: "test", APIKey: "k"})
	rt, err := harness.Open(context.Background(), reg, harness.Options{Coworkers: e.dir + "/coworkers", Journal: e.rt.Journal()})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	s, err := rt.NewSession(context.Background(), "tester", harness.SessionOptions{Model: provider})
	if err != nil {
		t.Fatal(err)
	}
	var errorCodes []string
	res, err := s.Send(context.Background(), "x", func(ev harness.Event) {
		if ev.Type == harness.EventError {
			errorCodes = append(errorCodes, ev.Code)
		}
	})
	var merr *harness.ModelError
	if !errors.As(err, &merr) || !contains(err.Error(), "http://127.0.0.1:1/v1") || res.Status != harness.TurnFailed {
		t.Fatalf("Send = %+v, %v; want a ModelError naming the base URL", res, err)
	}
	// A host decides by the code, not by the text (connection refused).
	if merr.Code() != harness.CodeModelUnreachable || res.Code != harness.CodeModelUnreachable ||
		len(errorCodes) != 1 || errorCodes[0] != harness.CodeModelUnreachable {
		t.Errorf("codes: error %q, result %q, events %v; want %s", merr.Code(), res.Code, errorCodes, harness.CodeModelUnreachable)
	}
	// The session stays usable: the person may retry in it.
	if sess, _ := e.rt.Journal().Session(context.Background(), s.ID()); sess.Status != "open" {
		t.Fatalf("after a failed turn the session is %q, want still open", sess.Status)
	}
	// Closed right after the failed turn, it is journaled as failed.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	sess, err := e.rt.Journal().Session(context.Background(), s.ID())
	if err != nil || sess.Status != "failed" {
		t.Fatalf("journaled session = %+v, %v; want failed", sess, err)
	}
}
