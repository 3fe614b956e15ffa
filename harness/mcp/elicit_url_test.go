package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/elicit"
)

// rawURLServer is a JSON-RPC server on stdio speaking MCP 2025-11-25 that
// asks URL-mode questions as requests of its own: tools/call "open" with
// {"url": U} asks to open U (elicitationId "e1") and returns the answer it
// got as text; tools/call "complete" sends notifications/elicitation/complete
// for "e1". initialize's capabilities are returned by tools/call "caps".
func rawURLServer() {
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
	var caps json.RawMessage
	var waiting json.RawMessage // the tools/call "open" waiting for its answer
	text := func(id json.RawMessage, s string) {
		out.Encode(map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]any{"content": []any{map[string]any{"type": "text", "text": s}}}})
	}
	for in.Scan() {
		var m msg
		if json.Unmarshal(in.Bytes(), &m) != nil {
			continue
		}
		switch {
		case m.Method == "initialize":
			var p struct{ Capabilities json.RawMessage }
			json.Unmarshal(m.Params, &p)
			caps = p.Capabilities
			out.Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"protocolVersion": "2025-11-25",
				"capabilities": map[string]any{"tools": map[string]any{}}, "serverInfo": map[string]any{"name": "raw-url", "version": "1.0.0"}}})
		case m.Method == "tools/list":
			out.Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"tools": []any{
				map[string]any{"name": "open", "inputSchema": map[string]any{"type": "object"}},
				map[string]any{"name": "complete", "inputSchema": map[string]any{"type": "object"}},
				map[string]any{"name": "caps", "inputSchema": map[string]any{"type": "object"}}}}})
		case m.Method == "tools/call":
			var p struct {
				Name      string
				Arguments struct{ URL string }
			}
			json.Unmarshal(m.Params, &p)
			switch p.Name {
			case "caps":
				text(m.ID, string(caps))
			case "complete":
				out.Encode(map[string]any{"jsonrpc": "2.0", "method": "notifications/elicitation/complete", "params": map[string]any{"elicitationId": "e1"}})
				text(m.ID, "sent")
			default:
				waiting = m.ID
				out.Encode(map[string]any{"jsonrpc": "2.0", "id": "q1", "method": "elicitation/create",
					"params": map[string]any{"mode": "url", "message": "Sign in to Example", "url": p.Arguments.URL, "elicitationId": "e1"}})
			}
		case m.Method == "" && len(m.ID) > 0 && waiting != nil:
			got := string(m.Result)
			if len(m.Error) > 0 {
				got = "error " + string(m.Error)
			}
			text(waiting, got)
			waiting = nil
		case len(m.ID) > 0 && m.Method != "":
			out.Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "no " + m.Method}})
		}
	}
	os.Exit(0)
}

// urlAsker answers URL questions with answer, or, when wait is set, only
// when its ctx ends (reporting the cause on ended).
type urlAsker struct {
	mu      sync.Mutex
	answer  elicit.Answer
	wait    bool
	seen    chan struct{} // with wait: told when asked
	ended   chan error
	asked   []Asked
	refused []Asked
	why     []string
}

func (a *urlAsker) Ask(ctx context.Context, q Asked) elicit.Answer {
	a.mu.Lock()
	a.asked = append(a.asked, q)
	a.mu.Unlock()
	if a.wait {
		a.seen <- struct{}{}
		<-ctx.Done()
		a.ended <- context.Cause(ctx)
		return elicit.Answer{Action: elicit.Cancel}
	}
	return a.answer
}

func (a *urlAsker) Refused(q Asked, why error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.refused = append(a.refused, q)
	a.why = append(a.why, why.Error())
}

func urlProvider(t *testing.T) *Provider {
	t.Helper()
	p, err := Connect(context.Background(), selfServer(t, "web", "elicit-url"), &Options{Elicitation: &ElicitationOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func openURL(t *testing.T, p *Provider, a Asker, u string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(WithAsker(context.Background(), a), time.Minute)
	defer cancel()
	args, _ := json.Marshal(map[string]string{"url": u})
	out, err := p.CallTool(ctx, "open", args, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out.Text
}

// TestURLElicitationAdvertisedAndChecked: URL mode is advertised with form
// mode; an https URL is asked with its host (an IDN host in punycode) and
// the server gets the person's action without content; javascript:,
// data:, file:, plain http to another computer and a user@ part are
// refused (declined, Refused told why, never asked).
func TestURLElicitationAdvertisedAndChecked(t *testing.T) {
	p := urlProvider(t)
	caps, err := p.CallTool(context.Background(), "caps", nil, nil)
	if err != nil || !strings.Contains(caps.Text, `"elicitation":{"form":{},"url":{}}`) {
		t.Fatalf("capabilities = %q, %v; want form and url elicitation", caps.Text, err)
	}
	a := &urlAsker{answer: elicit.Answer{Action: elicit.Accept}}
	if got := openURL(t, p, a, "https://login.example.com/authorize?state=s3cr3t"); got != `{"action":"accept"}` {
		t.Errorf("the server got %s; want accept without content", got)
	}
	if got := openURL(t, p, a, "https://bücher.example/pay"); got != `{"action":"accept"}` {
		t.Errorf("the server got %s for an IDN host", got)
	}
	if len(a.asked) != 2 || a.asked[0].Mode != "url" || a.asked[0].Host != "login.example.com" || a.asked[0].URL != "https://login.example.com/authorize?state=s3cr3t" ||
		a.asked[0].Message != "Sign in to Example" || a.asked[1].Host != "xn--bcher-kva.example" || a.asked[1].URL != "https://xn--bcher-kva.example/pay" {
		t.Fatalf("asked = %+v", a.asked)
	}
	a.answer = elicit.Answer{Action: elicit.Decline}
	for _, bad := range []struct{ url, why string }{
		{"javascript:alert(1)", `scheme "javascript" is refused`},
		{"data:text/html,<b>hi</b>", `scheme "data" is refused`},
		{"file:///etc/passwd", `scheme "file" is refused`},
		{"http://evil.example/login", "plain http to evil.example"},
		{"https://bank.example@evil.example/", "user name part"},
	} {
		if got := openURL(t, p, a, bad.url); got != `{"action":"decline"}` {
			t.Errorf("%s: the server got %s; want decline", bad.url, got)
		}
		if n := len(a.why); n == 0 || !strings.Contains(a.why[n-1], bad.why) || strings.Contains(a.why[n-1], bad.url) {
			t.Errorf("%s: refused with %q; want %q, without the URL", bad.url, a.why, bad.why)
		}
	}
	if len(a.asked) != 2 {
		t.Errorf("a refused URL was asked: %+v", a.asked[2:])
	}
	if got := openURL(t, p, a, "http://127.0.0.1:8080/cb"); got != `{"action":"decline"}` || len(a.asked) != 3 || a.asked[2].Host != "127.0.0.1" {
		t.Errorf("http to this computer: got %s, asked %+v", got, a.asked)
	}
}

// TestURLElicitationCompleteClosesTheQuestion: the server's
// notifications/elicitation/complete ends the open question's ctx with
// elicit.ErrCompleted.
func TestURLElicitationCompleteClosesTheQuestion(t *testing.T) {
	p := urlProvider(t)
	a := &urlAsker{wait: true, seen: make(chan struct{}, 1), ended: make(chan error, 1)}
	got := make(chan string, 1)
	go func() { got <- openURL(t, p, a, "https://login.example.com/") }()
	// The question is open once the Asker saw it; then the server says done.
	select {
	case <-a.seen:
	case <-time.After(30 * time.Second):
		t.Fatal("the URL question was not asked")
	}
	if out, err := p.CallTool(context.Background(), "complete", nil, nil); err != nil || out.Text != "sent" {
		t.Fatalf("complete = %v, %v", out, err)
	}
	select {
	case cause := <-a.ended:
		if cause != elicit.ErrCompleted {
			t.Errorf("the question ended with %v; want ErrCompleted", cause)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the completion did not close the question")
	}
	if s := <-got; s != `{"action":"cancel"}` {
		t.Errorf("the server got %s; want cancel", s)
	}
}
