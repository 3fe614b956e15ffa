//go:build unix

package harness_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/elicit"
	"github.com/openworker/desktop/harness/internal/npmtest"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// server-everything's trigger-url-elicitation with errorPath=true answers
// the first call with -32042 (URLElicitationRequired) asking to open
// https://modelcontextprotocol.io; the retry with the same arguments skips
// the error path and asks for the argument's URL with an
// elicitation/create of its own. It never sends
// notifications/elicitation/complete, so the retry comes when the wait is
// over: half the call's bound (8 s here, so 4 s; the 30 s default is
// longer).
//   - accept: the page is asked as a URL question of the invocation with
//     its host, journaled with the host and accept; the call is retried
//     once and succeeds (its own question is the invocation's second);
//   - decline: the call fails naming the host, not retried;
//   - bypass: declined unasked (journaled bypass), the call fails.
func TestURLRequiredServerEverything(t *testing.T) {
	node, entry := npmtest.Server(t, "server-everything")
	args := `{"url":"https://example.com/start","errorPath":true}`
	for _, tc := range []struct {
		name    string
		mode    consent.Mode
		answer  elicit.Action
		status  journal.InvocationStatus
		asked   int
		journal []string // host action source, one per row
	}{
		{"accept", consent.Ask, elicit.Accept, harness.StatusSucceeded, 2,
			[]string{"modelcontextprotocol.io accept person", "example.com accept person"}},
		{"decline", consent.Ask, elicit.Decline, harness.StatusFailed, 1, []string{"modelcontextprotocol.io decline person"}},
		{"bypass", consent.Bypass, elicit.Accept, harness.StatusFailed, 0, []string{"modelcontextprotocol.io decline bypass"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			el := &scriptedElicitor{answers: []func(context.Context, elicit.Question) (elicit.Answer, error){answer(tc.answer, nil), answer(tc.answer, nil)}}
			e := newEnv(t, envOpts{
				servers:  []tool.MCPServer{{Namespace: "everything", Program: node, Args: []string{entry, "stdio"}}},
				selected: []string{"everything.trigger-url-elicitation"}, mode: tc.mode, prompter: &fixedPrompter{d: consent.AllowOnce},
				limits:  tool.Limits{CallTimeout: 8 * time.Second},
				replies: []modeltest.Reply{{ToolCalls: []model.ToolCall{call("c1", "everything__trigger-url-elicitation", args)}}, {Text: "done"}},
			})
			e.so.Elicitor = el
			s, res, err := e.send("Open it")
			if err != nil || res.Status != harness.TurnCompleted {
				t.Fatalf("Send = %+v, %v", res, err)
			}
			invs := e.invocations(s.ID())
			if len(invs) != 1 || invs[0].Status != tc.status {
				t.Fatalf("invocations = %+v; want one %s", invs, tc.status)
			}
			inv := invs[0]
			switch tc.answer {
			case elicit.Accept:
				if tc.mode != consent.Bypass && !strings.Contains(string(inv.Result), "User completed the URL elicitation flow") {
					t.Errorf("the retried call's result = %s", inv.Result)
				}
			}
			if tc.status == harness.StatusFailed {
				want := `the server needs the page at modelcontextprotocol.io opened before tools/call "trigger-url-elicitation" (MCP URLElicitationRequired, -32042), and it was declined`
				if !strings.Contains(inv.Error, want) {
					t.Errorf("error = %q; want %q", inv.Error, want)
				}
			}
			qs := el.questions()
			if len(qs) != tc.asked {
				t.Fatalf("asked %d times, want %d", len(qs), tc.asked)
			}
			if tc.asked > 0 {
				q := qs[0]
				if q.Mode != elicit.ModeURL || q.Host != "modelcontextprotocol.io" || !strings.HasPrefix(q.URL, "https://modelcontextprotocol.io") ||
					q.Invocation != inv.ID || q.Tool != "everything.trigger-url-elicitation" || q.Namespace != "everything" || !strings.Contains(q.Message, "prerequisite") {
					t.Errorf("the -32042 page was asked as %+v", q)
				}
			}
			es := e.elicitations(inv.ID)
			var got []string
			for i, r := range es {
				got = append(got, r.Host+" "+r.Action+" "+r.Source)
				if r.Mode != elicit.ModeURL || r.Seq != i+1 || r.InvocationID != inv.ID {
					t.Errorf("journal row %d = %+v", i, r)
				}
			}
			if strings.Join(got, "; ") != strings.Join(tc.journal, "; ") {
				t.Errorf("journal rows = %q; want %q", got, tc.journal)
			}
		})
	}
}
