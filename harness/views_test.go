package harness_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/mcp/mcptest"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// viewPrompter answers each prompt for kit.bump with the next decision of
// its list (deny when none is left), allows the others once, and keeps the
// requests.
type viewPrompter struct {
	mu      sync.Mutex
	answers []consent.Decision
	reqs    []consent.Request
}

func (p *viewPrompter) Prompt(_ context.Context, r consent.Request) (consent.Decision, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reqs = append(p.reqs, r)
	if r.Tool != "kit.bump" {
		return consent.AllowOnce, nil
	}
	if len(p.answers) == 0 {
		return consent.Deny, nil
	}
	d := p.answers[0]
	p.answers = p.answers[1:]
	return d, nil
}

func (p *viewPrompter) requests() []consent.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]consent.Request(nil), p.reqs...)
}

func uiEnv(t *testing.T, p consent.Prompter, replies ...modeltest.Reply) *env {
	t.Helper()
	url, stop := mcptest.ServeUI()
	t.Cleanup(stop)
	return newEnv(t, envOpts{servers: []tool.MCPServer{{Namespace: "kit", Transport: tool.TransportStreamableHTTP, URL: url}},
		selected: []string{"kit.show", "kit.bump", "kit.model_only", "kit.big_show"}, mode: consent.Ask, prompter: p, replies: replies})
}

func invByID(t *testing.T, e *env, sid, id string) journal.Invocation {
	t.Helper()
	for _, inv := range e.invocations(sid) {
		if inv.ID == id {
			return inv
		}
	}
	t.Fatalf("no invocation %s in the journal", id)
	return journal.Invocation{}
}

// TestViewsFromAModelCall: a model's call of a tool with a view carries
// ui_resource on tool.finished and the journal keeps its URI, size and
// digest (a real SQLite file); a tool whose visibility is ["app"] is not
// offered to the model (its call is refused not_selected); a view over
// 2 MB is refused in the event without failing the call; the view's calls
// are allowed, denied, refused not_selected, not_for_app and over_budget,
// each journaled with the view's origin; the prompt names the view.
func TestViewsFromAModelCall(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	p := &viewPrompter{answers: []consent.Decision{consent.AllowOnce, consent.Deny}}
	e := uiEnv(t, p,
		modeltest.Reply{ToolCalls: []model.ToolCall{call("c1", "kit__show", `{}`), call("c2", "kit__bump", `{}`), call("c3", "kit__big_show", `{}`)}},
		modeltest.Reply{Text: "shown"})
	s, res, err := e.send("show the counter")
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	defer s.Close()
	if offered := e.model.Requests()[0].ToolNames(); slices.Contains(offered, "kit__bump") || !slices.Contains(offered, "kit__show") || !slices.Contains(offered, "kit__model_only") {
		t.Errorf("the model was offered %v; want kit__show and kit__model_only, not kit__bump (visibility [app])", offered)
	}
	fin := e.eventsOf(harness.EventToolFinished)
	if len(fin) != 3 {
		t.Fatalf("tool.finished events: %+v", fin)
	}
	sum := sha256.Sum256([]byte(mcptest.UIPage))
	digest := "sha256:" + hex.EncodeToString(sum[:])
	show := fin[0]
	if show.Status != "succeeded" || show.UIResource == nil || *show.UIResource != (harness.UIResourceRef{URI: "ui://kit/view.html", Digest: digest, Size: len(mcptest.UIPage)}) {
		t.Fatalf("show finished = %+v, ui %+v", show, show.UIResource)
	}
	raw, _ := json.Marshal(show)
	if !strings.Contains(string(raw), `"ui_resource":{"uri":"ui://kit/view.html","digest":"`+digest+`","size":`) {
		t.Errorf("tool.finished JSON: %s", raw)
	}
	if b := fin[1]; b.Status != "refused" || b.Code != "not_selected" || b.UIResource != nil || b.Tool != "" {
		t.Errorf("the model's kit__bump = %+v", b)
	}
	if big := fin[2]; big.Status != "succeeded" || big.UIResource == nil || big.UIResource.Digest != "" ||
		!strings.Contains(big.UIResource.Error, "ui://kit/big.html: it is 2097153 bytes (2.0 MB), over the 2 MB bound") {
		t.Errorf("big_show finished = %+v, ui %+v", big, big.UIResource)
	}
	row := invByID(t, e, s.ID(), show.Invocation)
	if row.UIURI != "ui://kit/view.html" || row.UISize != len(mcptest.UIPage) || row.UIDigest != digest || row.Origin != "" {
		t.Errorf("show's row: ui %q %d %q origin %q", row.UIURI, row.UISize, row.UIDigest, row.Origin)
	}
	if big := invByID(t, e, s.ID(), fin[2].Invocation); big.UIURI != "" || big.Status != journal.InvSucceeded {
		t.Errorf("big_show's row: ui %q status %s", big.UIURI, big.Status)
	}

	view, err := s.UIResource(ctx, show.Invocation)
	if err != nil || string(view.HTML) != mcptest.UIPage || view.Digest != digest || len(view.CSP.Connect) != 2 {
		t.Fatalf("UIResource = %+v, %v", view, err)
	}
	if _, err := s.UIResource(ctx, fin[2].Invocation); err == nil || !strings.Contains(err.Error(), "has no app view") {
		t.Errorf("UIResource of big_show = %v", err)
	}
	if _, err := s.UIResource(ctx, "inv_nope"); err == nil || !strings.Contains(err.Error(), `no invocation "inv_nope" in session`) {
		t.Errorf("UIResource of an unknown invocation = %v", err)
	}

	origin := "view:" + show.Invocation
	var sunk []harness.Event
	var sinkMu sync.Mutex
	sink := func(ev harness.Event) { sinkMu.Lock(); sunk = append(sunk, ev); sinkMu.Unlock() }
	viewCall := func(name, args string) harness.ViewResult {
		t.Helper()
		r, err := s.CallFromView(ctx, harness.ViewCall{Invocation: show.Invocation, Name: name, Arguments: json.RawMessage(args)}, sink)
		if err != nil {
			t.Fatalf("CallFromView(%s): %v", name, err)
		}
		return r
	}

	// Allowed: the prompt names the view; the call is journaled with the
	// origin and the view's turn; its events carry the origin.
	before := len(p.requests())
	ok := viewCall("bump", `{}`)
	if ok.Status != "succeeded" || ok.Invocation == "" || string(ok.Output.Structured) != `{"count":1}` {
		t.Fatalf("allowed view call = %+v", ok)
	}
	reqs := p.requests()
	if len(reqs) != before+1 || reqs[before].Origin != "the app view of kit.show" || reqs[before].Tool != "kit.bump" {
		t.Fatalf("prompts: %+v", reqs[before:])
	}
	okRow := invByID(t, e, s.ID(), ok.Invocation)
	if okRow.Origin != origin || okRow.TurnID != show.TurnID || okRow.Status != journal.InvSucceeded || okRow.Tool != "kit.bump" || okRow.UIURI != "ui://kit/view.html" {
		t.Errorf("allowed view call's row: %+v", okRow)
	}
	sinkMu.Lock()
	var types []string
	for _, ev := range sunk {
		types = append(types, string(ev.Type))
		if ev.Origin != origin {
			t.Errorf("event %s has origin %q, want %q", ev.Type, ev.Origin, origin)
		}
	}
	sinkMu.Unlock()
	if strings.Join(types, " ") != "tool.proposed approval.required approval.decided tool.started tool.finished" {
		t.Errorf("view call events: %v", types)
	}
	historyBefore := len(e.model.Requests())

	// Denied: reported back, journaled with the origin and the decision.
	den := viewCall("bump", `{}`)
	if den.Status != "refused" || den.Code != "denied" || den.Invocation == "" {
		t.Errorf("denied view call = %+v", den)
	}
	if r := invByID(t, e, s.ID(), den.Invocation); r.Origin != origin || r.Status != journal.InvRefused || r.ErrorCode != "denied" {
		t.Errorf("denied row: %+v", r)
	}
	// Not selected, not for views, bad arguments: refused before any prompt.
	prompts := len(p.requests())
	uns := viewCall("peek", `{}`)
	if uns.Status != "refused" || uns.Code != "not_selected" || !strings.Contains(uns.Error, `asked for "peek", which is not a tool selected for this coworker`) {
		t.Errorf("unselected view call = %+v", uns)
	}
	if r := invByID(t, e, s.ID(), uns.Invocation); r.Origin != origin || r.ErrorCode != "not_selected" || r.Alias != "peek" || r.Tool != "" {
		t.Errorf("unselected row: %+v", r)
	}
	if nfa := viewCall("model_only", `{}`); nfa.Status != "refused" || nfa.Code != "not_for_app" || !strings.Contains(nfa.Error, "kit.model_only is not for app views") {
		t.Errorf("model-only view call = %+v", nfa)
	}
	if bad := viewCall("bump", `[1]`); bad.Status != "refused" || bad.Code != "invalid_arguments" {
		t.Errorf("view call with bad arguments = %+v", bad)
	}
	if n := len(p.requests()); n != prompts {
		t.Errorf("%d prompts for refused view calls", n-prompts)
	}
	// The view's results never reach the model: no model request was made.
	if n := len(e.model.Requests()); n != historyBefore {
		t.Errorf("view calls made %d model requests", n-historyBefore)
	}
	for _, m := range e.messages(s.ID()) {
		if strings.Contains(string(m.Content), "count 1") {
			t.Errorf("a view call's result is in the history: %s", m.Content)
		}
	}

	// The budget: 100 view calls in the session, refused ones included.
	for i := 5; i < harness.MaxViewCalls; i++ { // 5 view calls so far
		if r := viewCall("peek", `{}`); r.Code != "not_selected" {
			t.Fatalf("view call %d = %+v", i+1, r)
		}
	}
	over := viewCall("peek", `{}`)
	if over.Status != "refused" || over.Code != "over_budget" || !strings.Contains(over.Error, "asked 100 tool calls") {
		t.Errorf("view call 101 = %+v", over)
	}
	if r := invByID(t, e, s.ID(), over.Invocation); r.Origin != origin || r.ErrorCode != "over_budget" {
		t.Errorf("over-budget row: %+v", r)
	}

	// Errors, not refusals: an invocation without a view, an unknown one.
	if _, err := s.CallFromView(ctx, harness.ViewCall{Invocation: fin[1].Invocation, Name: "bump"}, nil); err == nil || !strings.Contains(err.Error(), "has no app view") {
		t.Errorf("CallFromView from a refused call = %v", err)
	}
	if _, err := s.CallFromView(ctx, harness.ViewCall{Invocation: "inv_nope", Name: "bump"}, nil); err == nil {
		t.Error("CallFromView from an unknown invocation succeeded")
	}
}

// TestViewCallInAResumedSession: after the runtime restarts, the resumed
// session finds the view by the journaled ui_uri, reads it again, and its
// view may still call tools.
func TestViewCallInAResumedSession(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p := &viewPrompter{answers: []consent.Decision{consent.AllowOnce}}
	e := uiEnv(t, p, modeltest.Reply{ToolCalls: []model.ToolCall{call("c1", "kit__show", `{}`)}}, modeltest.Reply{Text: "shown"})
	s, _, err := e.send("show")
	if err != nil {
		t.Fatal(err)
	}
	showInv := e.eventsOf(harness.EventToolFinished)[0].Invocation
	id := s.ID()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := e.rt.ResumeSession(ctx, id, e.so)
	if err != nil {
		t.Fatalf("Resume: %v", err)
	}
	defer r.Close()
	view, err := r.UIResource(ctx, showInv)
	if err != nil || string(view.HTML) != mcptest.UIPage {
		t.Fatalf("UIResource after resume = %q, %v", view.HTML, err)
	}
	res, err := r.CallFromView(ctx, harness.ViewCall{Invocation: showInv, Name: "bump"}, nil)
	if err != nil || res.Status != "succeeded" {
		t.Fatalf("view call after resume = %+v, %v", res, err)
	}
	if row := invByID(t, e, id, res.Invocation); row.Origin != "view:"+showInv {
		t.Errorf("row after resume: %+v", row)
	}
}
