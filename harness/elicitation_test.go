package harness_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/elicit"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// scriptedElicitor answers each question with the next of its answers (the
// last one repeats) and keeps the questions it was asked.
type scriptedElicitor struct {
	mu      sync.Mutex
	answers []func(ctx context.Context, q elicit.Question) (elicit.Answer, error)
	asked   []elicit.Question
	active  int // questions being answered now
	overlap bool
}

func (s *scriptedElicitor) Elicit(ctx context.Context, q elicit.Question) (elicit.Answer, error) {
	s.mu.Lock()
	n := len(s.asked)
	s.asked = append(s.asked, q)
	s.active++
	if s.active > 1 {
		s.overlap = true
	}
	f := s.answers[min(n, len(s.answers)-1)]
	s.mu.Unlock()
	defer func() { s.mu.Lock(); s.active--; s.mu.Unlock() }()
	return f(ctx, q)
}

func (s *scriptedElicitor) questions() []elicit.Question {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.asked)
}

func answer(a elicit.Action, content map[string]any) func(context.Context, elicit.Question) (elicit.Answer, error) {
	return func(context.Context, elicit.Question) (elicit.Answer, error) {
		return elicit.Answer{Action: a, Content: content}, nil
	}
}

// waitForever answers only when ctx ends (the bound, a cancel).
func waitForever(ctx context.Context, q elicit.Question) (elicit.Answer, error) {
	<-ctx.Done()
	return elicit.Answer{}, ctx.Err()
}

const pinSecret = "pin-7F3Q-never-journaled"

var (
	nameForm = map[string]any{"type": "object", "required": []string{"name"}, "properties": map[string]any{
		"name": map[string]any{"type": "string", "title": "Your name", "minLength": 2}}}
	pinForm = map[string]any{"type": "object", "required": []string{"pin"}, "properties": map[string]any{
		"pin": map[string]any{"type": "string", "description": "the PIN of your card"}}}
	nestedForm = map[string]any{"type": "object", "properties": map[string]any{
		"address": map[string]any{"type": "object", "properties": map[string]any{"street": map[string]any{"type": "string"}}}}}
)

func hugeForm() map[string]any {
	props := map[string]any{}
	for i := range elicit.MaxFields + 1 {
		props[fmt.Sprintf("f%02d", i)] = map[string]any{"type": "string"}
	}
	return map[string]any{"type": "object", "properties": props}
}

// formsServer is a go-sdk MCP server (protocol 2026-07-28: its questions
// travel as multi round-trip input requests) over streamable HTTP on
// 127.0.0.1. Its tools ask questions and report the answers they got.
func formsServer(t *testing.T) tool.MCPServer {
	t.Helper()
	srv := sdk.NewServer(&sdk.Implementation{Name: "forms-server", Version: "1.0.0"}, nil)
	ask := func(name string, reqs func() sdk.InputRequestMap, always bool) {
		srv.AddTool(&sdk.Tool{Name: name, Description: "asks questions", InputSchema: json.RawMessage(`{"type":"object"}`),
			Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
			func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				if len(req.Params.InputResponses) == 0 || always {
					return &sdk.CallToolResult{InputRequests: reqs()}, nil
				}
				keys := make([]string, 0, len(req.Params.InputResponses))
				for k := range req.Params.InputResponses {
					keys = append(keys, k)
				}
				slices.Sort(keys)
				var b strings.Builder
				for _, k := range keys {
					raw, _ := json.Marshal(req.Params.InputResponses[k])
					fmt.Fprintf(&b, "%s=%s\n", k, raw)
				}
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: b.String()}}}, nil
			})
	}
	one := func(schema map[string]any) func() sdk.InputRequestMap {
		return func() sdk.InputRequestMap {
			return sdk.InputRequestMap{"q": &sdk.ElicitParams{Message: "Who are you?", RequestedSchema: schema}}
		}
	}
	ask("ask_one", one(nameForm), false)
	ask("ask_two", func() sdk.InputRequestMap {
		return sdk.InputRequestMap{
			"a": &sdk.ElicitParams{Message: "Who are you?", RequestedSchema: nameForm},
			"b": &sdk.ElicitParams{Message: "Your PIN, please.", RequestedSchema: pinForm},
		}
	}, false)
	ask("ask_nested", one(nestedForm), false)
	ask("ask_huge", one(hugeForm()), false)
	ask("ask_loop", func() sdk.InputRequestMap {
		return sdk.InputRequestMap{"a": &sdk.ElicitParams{Message: "Again?", RequestedSchema: nameForm},
			"b": &sdk.ElicitParams{Message: "And again?", RequestedSchema: nameForm}}
	}, true)
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	return tool.MCPServer{Namespace: "forms", Transport: tool.TransportStreamableHTTP, URL: hs.URL}
}

func formsEnv(t *testing.T, mode consent.Mode, el elicit.Elicitor, limits tool.Limits, calls ...model.ToolCall) *env {
	t.Helper()
	replies := []modeltest.Reply{}
	for _, c := range calls {
		replies = append(replies, modeltest.Reply{ToolCalls: []model.ToolCall{c}})
	}
	replies = append(replies, modeltest.Reply{Text: "done"})
	e := newEnv(t, envOpts{servers: []tool.MCPServer{formsServer(t)}, mode: mode, prompter: &fixedPrompter{d: consent.AllowOnce}, limits: limits,
		selected: []string{"forms.ask_one", "forms.ask_two", "forms.ask_nested", "forms.ask_huge", "forms.ask_loop"}, replies: replies})
	if el != nil {
		e.so.Elicitor = el
	}
	return e
}

func (e *env) elicitations(inv string) []journal.Elicitation {
	e.t.Helper()
	es, err := e.rt.Journal().Elicitations(context.Background(), inv)
	if err != nil {
		e.t.Fatal(err)
	}
	return es
}

// Two questions in one call are asked one after another, each with the
// server, the call and its fields; an invalid answer is asked again with
// the problem; the server gets the valid answers; the journal keeps the
// field names and the actions, and the typed PIN is nowhere in its file.
func TestElicitationTwoQuestionsInOneCall(t *testing.T) {
	el := &scriptedElicitor{answers: []func(context.Context, elicit.Question) (elicit.Answer, error){
		func(_ context.Context, q elicit.Question) (elicit.Answer, error) {
			switch {
			case q.Fields[0].Name == "name" && q.Problem == "":
				return elicit.Answer{Action: elicit.Accept, Content: map[string]any{"name": "A"}}, nil // too short: asked again
			case q.Fields[0].Name == "name":
				return elicit.Answer{Action: elicit.Accept, Content: map[string]any{"name": "Ada"}}, nil
			}
			return elicit.Answer{Action: elicit.Accept, Content: map[string]any{"pin": pinSecret}}, nil
		},
	}}
	e := formsEnv(t, consent.Ask, el, tool.Limits{}, call("c1", "forms__ask_two", `{}`))
	s, res, err := e.send("Ask me")
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("Send = %+v, %v", res, err)
	}
	invs := e.invocations(s.ID())
	if len(invs) != 1 || invs[0].Status != harness.StatusSucceeded {
		t.Fatalf("invocations = %+v", invs)
	}
	text := e.model.Requests()[1].Messages[len(e.model.Requests()[1].Messages)-1].Text
	if !strings.Contains(text, `"name":"Ada"`) || !strings.Contains(text, pinSecret) {
		t.Errorf("the server's result = %q; want both accepted answers", text)
	}
	qs := el.questions()
	if el.overlap {
		t.Error("two questions of one call were asked at once")
	}
	var refused *elicit.Question
	for i := range qs {
		q := qs[i]
		if q.Namespace != "forms" || q.ServerName != "forms-server" || q.Invocation != invs[0].ID || q.CallID != "c1" || q.Tool != "forms.ask_two" || q.SessionID != s.ID() || q.Deadline.IsZero() {
			t.Errorf("question %d = %+v; want it to name the server and the call", i, q)
		}
		if q.Problem != "" {
			refused = &qs[i]
		}
	}
	if refused == nil || !strings.Contains(refused.Problem, "name") || refused.Previous["name"] != "A" {
		t.Errorf("no question was asked again after the too short name: %+v", qs)
	}
	es := e.elicitations(invs[0].ID)
	if len(es) != 2 {
		t.Fatalf("journaled elicitations = %+v, want 2", es)
	}
	var fields []string
	for _, x := range es {
		if x.Action != "accept" || x.Source != journal.ElicitByPerson || x.Namespace != "forms" || x.SessionID != s.ID() {
			t.Errorf("elicitation row = %+v", x)
		}
		fields = append(fields, x.Fields...)
	}
	slices.Sort(fields)
	if !slices.Equal(fields, []string{"name", "pin"}) {
		t.Errorf("journaled fields = %v", fields)
	}
	answered := e.eventsOf(harness.EventElicitationAnswered)
	if len(answered) != 2 || answered[0].Status != "accept" || answered[0].Invocation != invs[0].ID {
		t.Errorf("elicitation.answered events = %+v", answered)
	}
}

// A schema that is not a flat form never reaches the person: a nested
// object (refused by the SDK before any handler) and one over the field
// limit (refused, and journaled with its field names) fail the call with
// a message that says why.
func TestElicitationRefusesNonFlatAndHugeForms(t *testing.T) {
	el := &scriptedElicitor{answers: []func(context.Context, elicit.Question) (elicit.Answer, error){answer(elicit.Accept, map[string]any{"name": "Ada"})}}
	e := formsEnv(t, consent.Ask, el, tool.Limits{}, call("c1", "forms__ask_nested", `{}`), call("c2", "forms__ask_huge", `{}`))
	s, _, err := e.send("Ask me")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(el.questions()); n != 0 {
		t.Errorf("the person was asked %d questions; want none", n)
	}
	invs := e.invocations(s.ID())
	if len(invs) < 1 || invs[0].Status == harness.StatusSucceeded || !strings.Contains(invs[0].Error, "nested") {
		t.Fatalf("the nested form's call = %+v; want it failed, saying nested", invs)
	}
	if len(invs) < 2 {
		t.Skipf("the turn stopped after the nested form: %+v", invs[0]) // a failed call of a read-only tool does not stop it
	}
	if invs[1].Status == harness.StatusSucceeded || !strings.Contains(invs[1].Error, "over the limit of 20 fields") {
		t.Errorf("the huge form's call = %+v; want it failed with the field limit", invs[1])
	}
	es := e.elicitations(invs[1].ID)
	if len(es) != 1 || es[0].Source != journal.ElicitByRefused || es[0].Action != "decline" || !strings.Contains(es[0].Reason, "limit") {
		t.Errorf("the huge form's journal rows = %+v", es)
	}
}

// A server that asks in a loop gets at most elicit.MaxPerCall questions
// before the person; the rest are declined and journaled as over the
// limit, and the call ends (the SDK stops retrying) without hanging.
func TestElicitationLoopIsBounded(t *testing.T) {
	el := &scriptedElicitor{answers: []func(context.Context, elicit.Question) (elicit.Answer, error){answer(elicit.Accept, map[string]any{"name": "Ada"})}}
	e := formsEnv(t, consent.Ask, el, tool.Limits{}, call("c1", "forms__ask_loop", `{}`))
	var s *harness.Session
	within(t, hangGuard, "a call asking in a loop", func() {
		var err error
		s, _, err = e.send("Ask me")
		if err != nil {
			t.Error(err)
		}
	})
	if n := len(el.questions()); n != elicit.MaxPerCall {
		t.Errorf("the person was asked %d questions; want %d", n, elicit.MaxPerCall)
	}
	invs := e.invocations(s.ID())
	if len(invs) != 1 || invs[0].Status == harness.StatusSucceeded {
		t.Fatalf("invocations = %+v; want the loop's call failed", invs)
	}
	limit := 0
	for _, x := range e.elicitations(invs[0].ID) {
		if x.Source == journal.ElicitByLimit {
			limit++
		}
	}
	if limit == 0 {
		t.Error("no question was journaled as over the per-call limit")
	}
}

// Bypass never answers a question; no elicitor declines too; both are
// journaled with who declined.
func TestElicitationBypassAndNoElicitorDecline(t *testing.T) {
	for _, tc := range []struct {
		mode   consent.Mode
		el     *scriptedElicitor
		source string
	}{
		{consent.Bypass, &scriptedElicitor{answers: []func(context.Context, elicit.Question) (elicit.Answer, error){answer(elicit.Accept, map[string]any{"name": "Ada"})}}, journal.ElicitByBypass},
		{consent.Ask, nil, journal.ElicitByNoOne},
	} {
		t.Run(string(tc.mode)+"/"+tc.source, func(t *testing.T) {
			var el elicit.Elicitor
			if tc.el != nil {
				el = tc.el
			}
			e := formsEnv(t, tc.mode, el, tool.Limits{}, call("c1", "forms__ask_one", `{}`))
			s, res, err := e.send("Ask me")
			if err != nil || res.Status != harness.TurnCompleted {
				t.Fatalf("Send = %+v, %v", res, err)
			}
			if tc.el != nil && len(tc.el.questions()) != 0 {
				t.Error("bypass asked the person")
			}
			invs := e.invocations(s.ID())
			if len(invs) != 1 || !strings.Contains(string(invs[0].Result), `\"action\":\"decline\"`) {
				t.Fatalf("invocations = %+v; want the server to have got decline", invs)
			}
			es := e.elicitations(invs[0].ID)
			if len(es) != 1 || es[0].Source != tc.source || es[0].Action != "decline" || !slices.Equal(es[0].Fields, []string{"name"}) {
				t.Errorf("journal rows = %+v; want one decline by %s", es, tc.source)
			}
		})
	}
}

// An unanswered question is declined before the call's bound passes (the
// bound is not extended): the server gets the decline in time and the
// call succeeds.
func TestElicitationUnansweredDeclinesBeforeTheBound(t *testing.T) {
	el := &scriptedElicitor{answers: []func(context.Context, elicit.Question) (elicit.Answer, error){waitForever}}
	// 3 s bound: the question is open for 1 s (elicit.Margin before it).
	e := formsEnv(t, consent.Ask, el, tool.Limits{CallTimeout: elicit.Margin + time.Second}, call("c1", "forms__ask_one", `{}`))
	s, res, err := e.send("Ask me")
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("Send = %+v, %v", res, err)
	}
	invs := e.invocations(s.ID())
	if len(invs) != 1 || invs[0].Status != harness.StatusSucceeded || !strings.Contains(string(invs[0].Result), "decline") {
		t.Fatalf("invocations = %+v; want a succeeded call whose server got decline", invs)
	}
	qs := el.questions()
	if len(qs) != 1 || qs[0].Deadline.IsZero() {
		t.Fatalf("questions = %+v", qs)
	}
	es := e.elicitations(invs[0].ID)
	if len(es) != 1 || es[0].Source != journal.ElicitByBound || es[0].Action != "decline" {
		t.Errorf("journal rows = %+v; want one decline by the bound", es)
	}
}

// The typed value is never journaled by the elicitation: a server that
// does not echo it back leaves no trace of it in the journal file.
func TestElicitationValueNeverJournaled(t *testing.T) {
	el := &scriptedElicitor{answers: []func(context.Context, elicit.Question) (elicit.Answer, error){
		answer(elicit.Accept, map[string]any{"name": pinSecret}),
	}}
	e := formsEnv(t, consent.Ask, el, tool.Limits{}, call("c1", "forms__ask_nested", `{}`), call("c2", "forms__ask_loop", `{}`))
	_, res, err := e.send("Ask me")
	if err != nil {
		t.Fatalf("Send = %+v, %v", res, err)
	}
	e.rt.Close()
	for _, f := range []string{e.db, e.db + "-wal"} {
		raw, err := os.ReadFile(f)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if bytes.Contains(raw, []byte(pinSecret)) {
			t.Errorf("%s holds the typed answer", f)
		}
	}
}

// elicit.Ask's sources are journaled as they are spelled.
func TestElicitSourcesAreTheJournals(t *testing.T) {
	for s, j := range map[elicit.Source]string{elicit.ByPerson: journal.ElicitByPerson, elicit.ByBound: journal.ElicitByBound,
		elicit.ByNoOne: journal.ElicitByNoOne, elicit.ByCancelled: journal.ElicitByCancelled} {
		if string(s) != j {
			t.Errorf("elicit source %q is journaled as %q", s, j)
		}
	}
}
