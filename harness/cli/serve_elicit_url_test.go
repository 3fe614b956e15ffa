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

// docs/mcp.md#url-mode over `serve --stdio`: server-everything registers
// trigger-url-elicitation only for a client that advertises URL mode; its
// question arrives as elicitation.required with mode "url", the URL with
// the IDN host in punycode and the host; the client's accept reaches the
// server; a javascript: URL is declined without an event; the journal
// keeps the host and the action, not the URL.
func TestServeStdioURLElicitation(t *testing.T) {
	node, entry := npmtest.Server(t, "server-everything")
	s := newSetup(t, "helper", map[string]any{"everything": map[string]any{"transport": "stdio", "command": node, "args": []string{entry, "stdio"}}},
		[]string{"everything.trigger-url-elicitation: allow"}, "everything.trigger-url-elicitation")
	m := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "everything__trigger-url-elicitation", Arguments: `{"url":"https://bücher.example/login?state=tok-5R"}`}}},
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c2", Name: "everything__trigger-url-elicitation", Arguments: `{"url":"javascript:alert(1)"}`}}},
		modeltest.Reply{Text: "Done."},
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
	turnID := c.send("turn.send", map[string]any{"session_id": sid, "text": "Sign me in."})
	ev := c.until(&seen, eventType("elicitation.required"))
	eid, _ := field(ev, "event", "elicitation_id").(string)
	q, _ := field(ev, "event", "question").(map[string]any)
	if q["mode"] != "url" || q["url"] != "https://xn--bcher-kva.example/login?state=tok-5R" || q["host"] != "xn--bcher-kva.example" || q["tool"] != "everything.trigger-url-elicitation" {
		t.Fatalf("elicitation.required = %v", ev)
	}
	ok := c.until(&seen, response(c.send("elicitation.respond", map[string]any{"elicitation_id": eid, "action": "accept"})))
	if field(ok, "result", "action") != "accept" {
		t.Fatalf("elicitation.respond = %v", ok)
	}
	res := c.until(&seen, response(turnID))
	if field(res, "result", "status") != "completed" {
		t.Fatalf("turn.send = %v", res)
	}
	if n := strings.Count(strings.Join(seen, " "), "elicitation.required"); n != 1 {
		t.Errorf("%d questions sent; want 1 (the javascript: URL refused): %s", n, strings.Join(seen, " "))
	}
	c.until(nil, response(c.send("session.close", map[string]any{"session_id": sid})))

	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	d, err := j.Detail(t.Context(), sid)
	if err != nil || len(d.Invocations) != 2 {
		t.Fatalf("Detail = %+v, %v", d, err)
	}
	if !strings.Contains(string(d.Invocations[0].Result), "accept") {
		t.Errorf("the server's result = %s; want the accept", d.Invocations[0].Result)
	}
	want := []struct{ host, action, source string }{
		{"xn--bcher-kva.example", "accept", journal.ElicitByPerson},
		{"", "decline", journal.ElicitByRefused},
	}
	for i, inv := range d.Invocations {
		es, err := j.Elicitations(t.Context(), inv.ID)
		if err != nil || len(es) != 1 || es[0].Mode != "url" || es[0].Host != want[i].host || es[0].Action != want[i].action || es[0].Source != want[i].source {
			t.Errorf("call %d journaled %+v, %v; want %+v", i, es, err, want[i])
			continue
		}
		if strings.Contains(es[0].Reason, "alert") || strings.Contains(es[0].Reason, "tok-5R") {
			t.Errorf("call %d: the reason holds the URL: %q", i, es[0].Reason)
		}
	}
}
