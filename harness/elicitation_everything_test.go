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

// server-everything's trigger-elicitation-request (an elicitation/create
// request of its own during the call: MCP before 2026-07-28) through a
// turn with the scripted model and a scripted Elicitor: the form it asks
// for is parsed with every kind of field, and the server's result shows
// what it got for accept, an invalid answer asked again, decline, cancel,
// and a question left unanswered until the call's bound is near.
func TestElicitationServerEverything(t *testing.T) {
	node, entry := npmtest.Server(t, "server-everything")
	valid := map[string]any{"name": "Ada Lovelace", "email": "ada@example.com", "birthdate": "1815-12-10", "integer": 7,
		"untitledSingleSelectEnum": "Joey", "untitledMultipleSelectEnum": []string{"Piano", "Violin"}, "check": true}
	for _, tc := range []struct {
		name    string
		answers []func(context.Context, elicit.Question) (elicit.Answer, error)
		limits  tool.Limits
		want    []string // in the server's result
		action  string
		source  string
		asked   int
	}{
		{"accept", []func(context.Context, elicit.Question) (elicit.Answer, error){answer(elicit.Accept, valid)}, tool.Limits{},
			[]string{"- Name: Ada Lovelace", "- Email: ada@example.com", "- Birthdate: 1815-12-10", "- Favorite Integer: 7", "Piano"}, "accept", journal.ElicitByPerson, 1},
		{"invalid-then-valid", []func(context.Context, elicit.Question) (elicit.Answer, error){
			answer(elicit.Accept, map[string]any{"name": "Ada", "email": "not-an-address", "integer": 1000}),
			answer(elicit.Accept, valid)}, tool.Limits{},
			[]string{"- Email: ada@example.com"}, "accept", journal.ElicitByPerson, 2},
		{"decline", []func(context.Context, elicit.Question) (elicit.Answer, error){answer(elicit.Decline, nil)}, tool.Limits{},
			[]string{"User declined"}, "decline", journal.ElicitByPerson, 1},
		{"cancel", []func(context.Context, elicit.Question) (elicit.Answer, error){answer(elicit.Cancel, nil)}, tool.Limits{},
			[]string{"User cancelled"}, "cancel", journal.ElicitByPerson, 1},
		{"bound", []func(context.Context, elicit.Question) (elicit.Answer, error){waitForever}, tool.Limits{CallTimeout: elicit.Margin + time.Second},
			[]string{"User declined"}, "decline", journal.ElicitByBound, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			el := &scriptedElicitor{answers: tc.answers}
			e := newEnv(t, envOpts{
				servers:  []tool.MCPServer{{Namespace: "everything", Program: node, Args: []string{entry, "stdio"}}},
				selected: []string{"everything.trigger-elicitation-request"}, mode: consent.Ask, prompter: &fixedPrompter{d: consent.AllowOnce},
				limits:  tc.limits,
				replies: []modeltest.Reply{{ToolCalls: []model.ToolCall{call("c1", "everything__trigger-elicitation-request", `{}`)}}, {Text: "done"}},
			})
			e.so.Elicitor = el
			s, res, err := e.send("Ask me")
			if err != nil || res.Status != harness.TurnCompleted {
				t.Fatalf("Send = %+v, %v", res, err)
			}
			invs := e.invocations(s.ID())
			if len(invs) != 1 || invs[0].Status != harness.StatusSucceeded {
				t.Fatalf("invocations = %+v", invs)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(invs[0].Result), w) {
					t.Errorf("the server's result lacks %q:\n%s", w, invs[0].Result)
				}
			}
			qs := el.questions()
			if len(qs) != tc.asked {
				t.Fatalf("asked %d times, want %d", len(qs), tc.asked)
			}
			q := qs[0]
			if q.Namespace != "everything" || q.Invocation != invs[0].ID || q.Tool != "everything.trigger-elicitation-request" || q.Message == "" || len(q.Fields) != 13 || q.Fields[0].Name != "name" || !q.Fields[0].Required {
				t.Errorf("question from %s %s (%s) with %d fields", q.Namespace, q.Tool, q.Invocation, len(q.Fields))
			}
			kinds := map[string]elicit.Kind{}
			for _, f := range q.Fields {
				kinds[f.Name] = f.Kind
			}
			if kinds["email"] != elicit.KindString || kinds["integer"] != elicit.KindInteger || kinds["check"] != elicit.KindBoolean ||
				kinds["legacyTitledEnum"] != elicit.KindEnum || kinds["titledMultipleSelectEnum"] != elicit.KindMulti || kinds["number"] != elicit.KindNumber {
				t.Errorf("field kinds = %v", kinds)
			}
			if tc.asked == 2 && (!strings.Contains(qs[1].Problem, "email") || !strings.Contains(qs[1].Problem, "integer")) {
				t.Errorf("the second ask's problem = %q; want it to name email and integer", qs[1].Problem)
			}
			es := e.elicitations(invs[0].ID)
			if len(es) != 1 || es[0].Action != tc.action || es[0].Source != tc.source || len(es[0].Fields) != 13 || es[0].Seq != 1 {
				t.Errorf("journal rows = %+v", es)
			}
		})
	}
}
