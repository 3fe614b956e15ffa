package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/elicit"
)

// rawElicitServer is a JSON-RPC server on stdio speaking MCP 2025-06-18,
// where a server's question is its own request: right after the
// handshake it asks one question outside any call; tools/call "nested"
// asks with a schema that is not flat, tools/call "one" asks a flat
// question; each call's result is the answer the server got, as text,
// and tools/call "stray" returns the answer to the first question.
func rawElicitServer() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := json.NewEncoder(os.Stdout)
	type msg struct {
		ID     json.RawMessage `json:"id,omitempty"`
		Method string          `json:"method,omitempty"`
		Params json.RawMessage `json:"params,omitempty"`
		Result json.RawMessage `json:"result,omitempty"`
		Error  json.RawMessage `json:"error,omitempty"`
	}
	flat := `{"type":"object","required":["name"],"properties":{"name":{"type":"string"}}}`
	nested := `{"type":"object","properties":{"addr":{"type":"object","properties":{"street":{"type":"string"}}}}}`
	ask := func(id, schema string) {
		out.Encode(map[string]any{"jsonrpc": "2.0", "id": id, "method": "elicitation/create",
			"params": map[string]any{"message": "Who are you?", "requestedSchema": json.RawMessage(schema)}})
	}
	answers := map[string]string{}
	pending := map[string]json.RawMessage{} // question id → the tools/call id waiting for it
	for in.Scan() {
		var m msg
		if json.Unmarshal(in.Bytes(), &m) != nil {
			continue
		}
		reply := func(id json.RawMessage, result any) {
			out.Encode(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
		}
		switch {
		case m.Method == "initialize":
			reply(m.ID, map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": "raw-forms", "version": "1.0.0"}})
		case m.Method == "notifications/initialized":
			ask("stray", flat)
		case m.Method == "tools/list":
			reply(m.ID, map[string]any{"tools": []any{
				map[string]any{"name": "one", "inputSchema": map[string]any{"type": "object"}},
				map[string]any{"name": "nested", "inputSchema": map[string]any{"type": "object"}},
				map[string]any{"name": "stray", "inputSchema": map[string]any{"type": "object"}}}})
		case m.Method == "tools/call":
			var p struct{ Name string }
			json.Unmarshal(m.Params, &p)
			switch p.Name {
			case "stray":
				if got, ok := answers["stray"]; ok {
					reply(m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": got}}})
				} else { // the answer is still on its way: reply when it comes
					pending["stray"] = m.ID
				}
			case "nested":
				pending["q-nested"] = m.ID
				ask("q-nested", nested)
			default:
				pending["q-one"] = m.ID
				ask("q-one", flat)
			}
		case m.Method == "" && len(m.ID) > 0: // an answer to a question
			var id string
			json.Unmarshal(m.ID, &id)
			got := string(m.Result)
			if len(m.Error) > 0 {
				got = "error " + string(m.Error)
			}
			answers[id] = got
			if cid, ok := pending[id]; ok {
				delete(pending, id)
				reply(cid, map[string]any{"content": []any{map[string]any{"type": "text", "text": got}}})
			}
		case len(m.ID) > 0:
			out.Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "no " + m.Method}})
		}
	}
	os.Exit(0)
}

// testAsker answers every question with its answer and records what it saw.
type testAsker struct {
	mu      sync.Mutex
	answer  elicit.Answer
	asked   []Asked
	refused []string
}

func (a *testAsker) Ask(ctx context.Context, q Asked) elicit.Answer {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, q)
	if _, ok := ctx.Deadline(); !ok {
		return elicit.Answer{Action: elicit.Cancel} // the call's deadline must reach the question
	}
	return a.answer
}

func (a *testAsker) Refused(q Asked, why error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.refused = append(a.refused, why.Error())
}

// A server on MCP before 2026-07-28 asks with requests of its own: a
// question during the one running call goes to that call's Asker (with
// the call's deadline), one outside any call is declined and given to
// Stray, and a schema that is not flat is refused with an error the
// server receives and the Asker is told of.
func TestElicitationLegacyRequests(t *testing.T) {
	strays := make(chan string, 4)
	p, err := Connect(context.Background(), selfServer(t, "raw", "elicit-raw"), &Options{Elicitation: &ElicitationOptions{
		Stray: func(q Asked, why string) {
			strays <- q.Namespace + "/" + q.ServerName + ": " + why + " " + strings.Join(q.Form.Names(), ",")
		}}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	select {
	case s := <-strays:
		if !strings.Contains(s, "raw/raw-forms: no tool call of this server is running") || !strings.HasSuffix(s, " name") {
			t.Errorf("stray = %q", s)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the question outside any call was not given to Stray")
	}
	out, err := p.CallTool(context.Background(), "stray", nil, nil)
	if err != nil || out.Text != `{"action":"decline"}` {
		t.Errorf("the server got %q, %v for its question outside a call; want decline", out.Text, err)
	}

	a := &testAsker{answer: elicit.Answer{Action: elicit.Accept, Content: map[string]any{"name": "Ada"}}}
	ctx, cancel := context.WithTimeout(WithAsker(context.Background(), a), time.Minute)
	defer cancel()
	out, err = p.CallTool(ctx, "one", nil, func(string, json.RawMessage) error { return nil })
	if err != nil || out.Text != `{"action":"accept","content":{"name":"Ada"}}` {
		t.Errorf("the server got %q, %v; want the accepted answer", out.Text, err)
	}
	if len(a.asked) != 1 || a.asked[0].Message != "Who are you?" || a.asked[0].ServerName != "raw-forms" || a.asked[0].Mode != "form" {
		t.Errorf("asked = %+v", a.asked)
	}
	out, err = p.CallTool(ctx, "nested", nil, nil)
	if err != nil || !strings.Contains(out.Text, "error") || !strings.Contains(out.Text, `openworker refused the elicitation: property \"addr\" has nested properties`) {
		t.Errorf("the server got %q, %v for a nested form; want the refusal", out.Text, err)
	}
	if len(a.refused) != 1 || !strings.Contains(a.refused[0], "nested") || len(a.asked) != 1 {
		t.Errorf("refused = %v, asked %d; want the nested form refused, not asked", a.refused, len(a.asked))
	}
}

func TestRunningCallsOnlyOne(t *testing.T) {
	var r running
	if c, why := r.only(); c != nil || !strings.Contains(why, "no tool call") {
		t.Errorf("no call: %v %q", c, why)
	}
	ctx := context.WithValue(context.Background(), askerKey{}, nil)
	done1 := r.add(ctx)
	if c, _ := r.only(); c != ctx {
		t.Error("one call: not found")
	}
	done2 := r.add(context.Background())
	if c, why := r.only(); c != nil || why != fmt.Sprintf("%d tool calls of this server are running and the question does not say which one asks", 2) {
		t.Errorf("two calls: %v %q", c, why)
	}
	done1()
	done2()
	if c, _ := r.only(); c != nil {
		t.Error("a finished call is still running")
	}
}
