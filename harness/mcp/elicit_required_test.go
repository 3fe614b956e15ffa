package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/elicit"
	"github.com/openworker/desktop/harness/mcp/mcptest"
	"github.com/openworker/desktop/harness/tool"
)

// requiredAsker answers every page with answer; with then, it also runs
// then (in its own goroutine) after answering.
type requiredAsker struct {
	mu      sync.Mutex
	answer  elicit.Action
	then    func(q Asked)
	asked   []Asked
	refused []string
}

func (a *requiredAsker) Ask(ctx context.Context, q Asked) elicit.Answer {
	a.mu.Lock()
	a.asked = append(a.asked, q)
	a.mu.Unlock()
	if _, ok := ctx.Deadline(); !ok {
		return elicit.Answer{Action: elicit.Cancel} // the call's bound must reach the question
	}
	if a.then != nil {
		go a.then(q)
	}
	return elicit.Answer{Action: a.answer}
}

func (a *requiredAsker) Refused(q Asked, why error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.refused = append(a.refused, q.Host+": "+why.Error())
}

func requiredProvider(t *testing.T, wait time.Duration) *Provider {
	t.Helper()
	p, err := Connect(context.Background(), selfServer(t, "shop", "url-required"), &Options{Elicitation: &ElicitationOptions{CompleteWait: wait}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// callRequired makes one call with a as its Asker, within the hang guard.
func callRequired(t *testing.T, p *Provider, a Asker, name, args string) (out tool.Output, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if a != nil {
		ctx = WithAsker(ctx, a)
	}
	within(t, hangGuard, "tools/call "+name, func() { out, err = p.CallTool(ctx, name, json.RawMessage(args), nil) })
	return out, err
}

// TestURLRequiredRetriedOnceAfterComplete: a -32042 from a go-sdk server
// (mcp.URLElicitationRequiredError) is asked as a URL question of the
// call with its host; once the person accepted and the server sent
// notifications/elicitation/complete for the page, the call is retried
// once and succeeds. The wait is 10 minutes, so only the completion can
// end it within the hang guard.
func TestURLRequiredRetriedOnceAfterComplete(t *testing.T) {
	p := requiredProvider(t, 10*time.Minute)
	a := &requiredAsker{answer: elicit.Accept}
	a.then = func(q Asked) {
		if _, err := p.CallTool(context.Background(), "complete", json.RawMessage(`{"id":"pay-1"}`), nil); err != nil {
			t.Errorf("complete: %v", err)
		}
	}
	out, err := callRequired(t, p, a, "pay", `{}`)
	if err != nil || out.Text != "paid on call 2" {
		t.Fatalf("pay = %q, %v; want the retried call's result", out.Text, err)
	}
	if len(a.asked) != 1 || a.asked[0].Mode != elicit.ModeURL || a.asked[0].URL != mcptest.PayURL || a.asked[0].Host != "pay.example.com" ||
		a.asked[0].Message != "Pay for order 7 first." || a.asked[0].Namespace != "shop" || a.asked[0].ServerName != "url-required" {
		t.Fatalf("asked = %+v", a.asked)
	}
}

// TestURLRequiredRetriedWithoutComplete: with no completion, the accepted
// call is retried once when the wait (here 1 ns) is over.
func TestURLRequiredRetriedWithoutComplete(t *testing.T) {
	p := requiredProvider(t, time.Nanosecond)
	a := &requiredAsker{answer: elicit.Accept}
	if out, err := callRequired(t, p, a, "pay", `{}`); err != nil || out.Text != "paid on call 2" || len(a.asked) != 1 {
		t.Fatalf("pay = %q, %v, asked %d; want the retried call's result after one question", out.Text, err, len(a.asked))
	}
}

// TestURLRequiredDeclined: a declined or cancelled page fails the call
// with the page's host, and the call is not retried (the next call is the
// server's second).
func TestURLRequiredDeclined(t *testing.T) {
	for _, act := range []elicit.Action{elicit.Decline, elicit.Cancel} {
		t.Run(string(act), func(t *testing.T) {
			p := requiredProvider(t, time.Nanosecond)
			a := &requiredAsker{answer: act}
			_, err := callRequired(t, p, a, "pay", `{}`)
			var te *tool.ToolError
			want := "the page at pay.example.com opened before tools/call \"pay\" (MCP URLElicitationRequired, -32042), and it was " + map[elicit.Action]string{elicit.Decline: "declined", elicit.Cancel: "cancelled"}[act]
			if !errors.As(err, &te) || te.Code != "mcp_error" || !strings.Contains(te.Message, want) || !strings.Contains(te.Message, "not retried") {
				t.Fatalf("pay = %v; want a tool error containing %q", err, want)
			}
			if out, err := callRequired(t, p, a, "pay", `{}`); err != nil || out.Text != "paid on call 2" {
				t.Fatalf("the next call = %q, %v; want the server's second call (the declined one was not retried)", out.Text, err)
			}
		})
	}
}

// TestURLRequiredNeverLoops: a server that answers -32042 again on the
// retry fails the call after one question and one retry.
func TestURLRequiredNeverLoops(t *testing.T) {
	p := requiredProvider(t, time.Nanosecond)
	a := &requiredAsker{answer: elicit.Accept}
	_, err := callRequired(t, p, a, "loop", `{}`)
	if err == nil || !strings.Contains(err.Error(), `still needs a page opened after tools/call "loop" was retried once`) {
		t.Fatalf("loop = %v; want the retry's -32042 to fail the call", err)
	}
	if len(a.asked) != 1 || a.asked[0].Host != "loop.example.com" {
		t.Fatalf("asked = %+v; want the first page only", a.asked)
	}
}

// TestURLRequiredMalformed: -32042 data that is not one to three url-mode
// elicitations with an id and an allowed URL fails the call with why;
// nothing is asked and nothing hangs. A refused URL is told to Refused.
func TestURLRequiredMalformed(t *testing.T) {
	p := requiredProvider(t, 10*time.Minute)
	page := func(id, u string) string {
		return `{"mode":"url","url":"` + u + `","elicitationId":"` + id + `","message":"m"}`
	}
	for _, tc := range []struct{ name, data, want string }{
		{"no data", `null`, "it has no data"},
		{"not an object", `"x"`, `its data is not {"elicitations":[…]}`},
		{"empty", `{"elicitations":[]}`, `its data has no "elicitations"`},
		{"form mode", `{"elicitations":[{"message":"name?","requestedSchema":{"type":"object"}}]}`, `elicitation 1 has mode ""; only "url"`},
		{"too many", `{"elicitations":[` + page("a", "https://a.example/") + `,` + page("b", "https://a.example/") + `,` + page("c", "https://a.example/") + `,` + page("d", "https://a.example/") + `]}`, "it asks to open 4 pages; at most 3"},
		{"no id", `{"elicitations":[{"mode":"url","url":"https://a.example/"}]}`, `elicitation 1 has no "elicitationId"`},
		{"same id", `{"elicitations":[` + page("a", "https://a.example/") + `,` + page("a", "https://b.example/") + `]}`, `elicitation 2 repeats "elicitationId" "a"`},
		{"huge", `{"elicitations":[` + page("a", "https://a.example/?"+strings.Repeat("x", MaxURLRequiredData)) + `]}`, "over the 65536-byte limit"},
		{"javascript", `{"elicitations":[` + page("a", "javascript:alert(1)") + `]}`, `the page was refused: the URL's scheme "javascript" is refused`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := &requiredAsker{answer: elicit.Accept}
			args, _ := json.Marshal(map[string]json.RawMessage{"data": json.RawMessage(tc.data)})
			_, err := callRequired(t, p, a, "malformed", string(args))
			var te *tool.ToolError
			if !errors.As(err, &te) || !strings.Contains(te.Message, tc.want) || !strings.Contains(te.Message, `before tools/call "malformed" (MCP URLElicitationRequired, -32042)`) {
				t.Fatalf("malformed = %v; want a tool error containing %q", err, tc.want)
			}
			if len(a.asked) != 0 {
				t.Errorf("asked %+v; want nothing asked", a.asked)
			}
			if tc.name == "javascript" && (len(a.refused) != 1 || !strings.Contains(a.refused[0], "javascript")) {
				t.Errorf("refused = %q; want the javascript: URL", a.refused)
			}
		})
	}
	// Without an Asker the call fails with the server's message and says so.
	if _, err := callRequired(t, p, nil, "pay", `{}`); err == nil || !strings.Contains(err.Error(), "no one to ask: URL elicitation required") {
		t.Fatalf("pay without an Asker = %v", err)
	}
}
