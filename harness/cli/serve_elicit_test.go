//go:build unix

package cli_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/internal/npmtest"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// docs/stdio-protocol.md#elicitation: server-everything's
// trigger-elicitation-request through `serve --stdio`: an
// elicitation.required event names the server and the call and carries the
// form; an answer that does not fit the form is refused with the reason
// while the question stays open; the valid answer reaches the server; a
// second answer finds no open question; the journal keeps the field names
// and the action, not the values.
func TestServeStdioElicitation(t *testing.T) {
	node, entry := npmtest.Server(t, "server-everything")
	s := newSetup(t, "helper", map[string]any{"everything": map[string]any{"transport": "stdio", "command": node, "args": []string{entry, "stdio"}}},
		[]string{"everything.trigger-elicitation-request: allow"}, "everything.trigger-elicitation-request")
	m := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "everything__trigger-elicitation-request", Arguments: `{}`}}},
		modeltest.Reply{Text: "Thanks, Grace."},
	)
	db := filepath.Join(t.TempDir(), "journal.db")
	c, _ := startServeWith(t, binEnv(t), nil, nil, "--coworkers", s.coworkers, "--servers", s.servers, "--db", db,
		"--base-url", m.URL, "--model", "test", "--approve", "ask")
	open := c.until(nil, response(c.send("session.open", map[string]any{"coworker": "helper"})))
	sid, _ := field(open, "result", "session_id").(string)
	if sid == "" {
		t.Fatalf("session.open = %v", open)
	}
	var seen []string
	turnID := c.send("turn.send", map[string]any{"session_id": sid, "text": "Ask me."})
	ev := c.until(&seen, eventType("elicitation.required"))
	eid, _ := field(ev, "event", "elicitation_id").(string)
	q, _ := field(ev, "event", "question").(map[string]any)
	fields, _ := q["fields"].([]any)
	if !strings.HasPrefix(eid, "eli_") || q["namespace"] != "everything" || q["tool"] != "everything.trigger-elicitation-request" ||
		!strings.HasPrefix(q["invocation"].(string), "inv_") || len(fields) != 13 || q["deadline"] == "" {
		t.Fatalf("elicitation.required = %v", ev)
	}
	if f0 := fields[0].(map[string]any); f0["name"] != "name" || f0["kind"] != "string" || f0["required"] != true {
		t.Errorf("first field = %v", f0)
	}
	bad := c.until(&seen, response(c.send("elicitation.respond", map[string]any{"elicitation_id": eid, "action": "accept",
		"content": map[string]any{"name": "Grace", "email": "not-an-address"}})))
	if field(bad, "error", "code") != "bad_request" || !strings.Contains(field(bad, "error", "message").(string), "email") {
		t.Fatalf("an invalid answer = %v; want bad_request naming email", bad)
	}
	ok := c.until(&seen, response(c.send("elicitation.respond", map[string]any{"elicitation_id": eid, "action": "accept",
		"content": map[string]any{"name": "Grace Hopper", "email": "grace@example.com", "integer": 9}})))
	if field(ok, "result", "action") != "accept" {
		t.Fatalf("elicitation.respond = %v", ok)
	}
	res := c.until(&seen, response(turnID))
	if field(res, "result", "status") != "completed" {
		t.Fatalf("turn.send = %v", res)
	}
	if got := strings.Join(seen, " "); !strings.Contains(got, "tool.started elicitation.required elicitation.answered tool.finished:succeeded") {
		t.Errorf("events = %s", got)
	}
	again := c.until(nil, response(c.send("elicitation.respond", map[string]any{"elicitation_id": eid, "action": "decline"})))
	if field(again, "error", "code") != "not_found" {
		t.Errorf("a second answer = %v; want not_found", again)
	}
	c.until(nil, response(c.send("session.close", map[string]any{"session_id": sid})))

	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	d, err := j.Detail(t.Context(), sid)
	if err != nil || len(d.Invocations) != 1 {
		t.Fatalf("Detail = %+v, %v", d, err)
	}
	if !strings.Contains(string(d.Invocations[0].Result), "- Name: Grace Hopper") {
		t.Errorf("the server's result = %s; want the accepted name", d.Invocations[0].Result)
	}
	es, err := j.Elicitations(t.Context(), d.Invocations[0].ID)
	if err != nil || len(es) != 1 || es[0].Action != "accept" || es[0].Source != journal.ElicitByPerson || es[0].SessionID != sid {
		t.Errorf("journaled elicitations = %+v, %v", es, err)
	}
}
