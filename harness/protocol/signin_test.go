package protocol_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/protocol"
	"github.com/openworker/desktop/harness/tool"
)

var prompt = oauth.Prompt{Namespace: "remote", Server: "mcp.example.com", SignInHost: "auth.example.com",
	URL: "https://auth.example.com/authorize?state=s1&code_challenge=c1", Scopes: []string{"read"}}

// jsonLines is a writer the test reads JSON jsonLines from.
type jsonLines struct {
	mu  sync.Mutex
	buf []string
	ch  chan map[string]any
}

func newJSONLines() *jsonLines { return &jsonLines{ch: make(chan map[string]any, 100)} }

func (l *jsonLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			return 0, err
		}
		l.buf = append(l.buf, s)
		l.ch <- m
	}
	return len(p), nil
}

func (l *jsonLines) next(t *testing.T) map[string]any {
	t.Helper()
	select {
	case m := <-l.ch:
		return m
	case <-time.After(30 * time.Second):
		t.Fatal("no line within 30 s")
	}
	return nil
}

func event(m map[string]any) map[string]any { e, _ := m["event"].(map[string]any); return e }

// docs/stdio-protocol.md#sign-in: unanswered, a sign-in is given up after
// oauth.DefaultSignInTimeout with signin.closed reason bound; a
// cancelled ctx (the turn) closes it with reason cancelled.
func TestSignInBoundAndCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		out := newJSONLines()
		srv := protocol.NewServer(out)
		start := time.Now()
		ok, err := srv.AskSignIn(context.Background(), prompt)
		if ok || err == nil || !strings.Contains(err.Error(), "no signin.respond within 5m0s") || time.Since(start) != oauth.DefaultSignInTimeout {
			t.Fatalf("AskSignIn = %v, %v after %v", ok, err, time.Since(start))
		}
		req, closed := event(<-out.ch), event(<-out.ch)
		if req["type"] != "signin.required" || req["host"] != "auth.example.com" || req["url"] != prompt.URL || req["server"] != "mcp.example.com" {
			t.Fatalf("signin.required = %v", req)
		}
		if closed["type"] != "signin.closed" || closed["signin_id"] != req["signin_id"] || closed["reason"] != "bound" {
			t.Fatalf("signin.closed = %v", closed)
		}

		ctx, cancel := context.WithCancelCause(context.Background())
		go func() { <-out.ch; cancel(errors.New("the turn was cancelled")) }()
		if ok, err := srv.AskSignIn(ctx, prompt); ok || err == nil || err.Error() != "the turn was cancelled" {
			t.Fatalf("AskSignIn cancelled = %v, %v", ok, err)
		}
		if closed := event(<-out.ch); closed["reason"] != "cancelled" {
			t.Fatalf("signin.closed = %v", closed)
		}
	})
}

// docs/stdio-protocol.md#sign-in: "open" with a browser that fails is
// answered failed and the sign-in stays open for "opened"; when stdin
// closes while a sign-in waits, it is closed with reason closing.
func TestSignInOpenFailsAndClosing(t *testing.T) {
	rt, err := harness.Open(context.Background(), tool.NewRegistry(), harness.Options{Coworkers: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	out := newJSONLines()
	srv := protocol.NewServer(out)
	srv.SetBrowser(func(context.Context, string) error { return errors.New("no display") })
	inR, inW := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(context.Background(), rt, harness.SessionOptions{}, inR) }()
	type asked struct {
		ok  bool
		err error
	}
	answers := make(chan asked, 2)
	ask := func() string {
		go func() { ok, err := srv.AskSignIn(context.Background(), prompt); answers <- asked{ok, err} }()
		req := event(out.next(t))
		id, _ := req["signin_id"].(string)
		if req["type"] != "signin.required" || !strings.HasPrefix(id, "sig_") {
			t.Fatalf("signin.required = %v", req)
		}
		return id
	}
	w := bufio.NewWriter(inW)
	send := func(line string) map[string]any {
		t.Helper()
		w.WriteString(line + "\n")
		w.Flush()
		return out.next(t)
	}

	id := ask()
	res := send(`{"id":1,"method":"signin.respond","params":{"signin_id":"` + id + `","action":"open"}}`)
	if e, _ := res["error"].(map[string]any); e["code"] != "failed" || !strings.Contains(e["message"].(string), "no display") || !strings.Contains(e["message"].(string), "still open") {
		t.Fatalf("open with a failing browser = %v", res)
	}
	res = send(`{"id":2,"method":"signin.respond","params":{"signin_id":"` + id + `","action":"opened"}}`)
	if r, _ := res["result"].(map[string]any); r["action"] != "opened" {
		t.Fatalf("opened = %v", res)
	}
	if a := <-answers; !a.ok || a.err != nil {
		t.Fatalf("AskSignIn = %+v; want true", a)
	}
	res = send(`{"id":3,"method":"signin.respond","params":{"id":"x"}}`)
	if e, _ := res["error"].(map[string]any); e["code"] != "bad_request" || !strings.Contains(e["message"].(string), `{"signin_id": ID, "action": open|opened|decline}`) {
		t.Fatalf("bad params = %v", res)
	}

	id = ask()
	inW.Close()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if closed := event(out.next(t)); closed["type"] != "signin.closed" || closed["signin_id"] != id || closed["reason"] != "closing" {
		t.Fatalf("signin.closed = %v", closed)
	}
	if a := <-answers; a.ok || a.err == nil || !strings.Contains(a.err.Error(), "closing") {
		t.Fatalf("AskSignIn at the end = %+v", a)
	}
}
