package protocol_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/elicit"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/protocol"
	"github.com/openworker/desktop/harness/tool"
)

type elicited struct {
	a   elicit.Answer
	err error
}

// docs/inbox.md#askers, docs/stdio-protocol.md#elicitation: a question
// on the protocol is a question item (server, message, field names —
// never the values); elicitation.required carries its item_id; of
// elicitation.respond and inbox.answer sent at once exactly one wins, the
// other is not_found saying it was already answered, and the values go
// only to the waiting call. A question whose deadline passes expires.
func TestElicitationIsAnInboxItem(t *testing.T) {
	rt, srv, out, send, end := servePipe(t)
	form, err := elicit.Parse(json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`))
	if err != nil {
		t.Fatal(err)
	}
	// Until Serve has set up its inbox, Elicit declines; wait for a reply.
	send(`{"id":0,"method":"inbox.list"}`)
	out.next(t)

	ask := func(ctx context.Context, id string) (chan elicited, map[string]any) {
		q := elicit.NewQuestion(id, "Who are you?", form)
		q.Namespace, q.Tool = "everything", "everything.ask"
		done := make(chan elicited, 1)
		go func() { a, err := srv.Elicit(ctx, q); done <- elicited{a, err} }()
		var ev map[string]any
		select {
		case m := <-out.ch:
			ev = event(m)
		case e := <-done:
			t.Fatalf("Elicit = %v, %v before asking", e.a, e.err)
		}
		if ev["type"] != "elicitation.required" || ev["elicitation_id"] != id || !strings.HasPrefix(ev["item_id"].(string), "inb") {
			t.Fatalf("elicitation.required = %v", ev)
		}
		return done, ev
	}

	for round := range 4 {
		qid := "eli_r" + string(rune('0'+round))
		done, ev := ask(context.Background(), qid)
		item := ev["item_id"].(string)
		it, err := rt.Journal().InboxItem(context.Background(), item)
		if err != nil || it.Kind != journal.InboxQuestion || !it.Open() || !strings.Contains(string(it.Asked), `"fields":["name"]`) || !strings.Contains(string(it.Asked), "Who are you?") {
			t.Fatalf("item = %+v, %v", it, err)
		}
		// Two answers at once; the order they are taken in is the race.
		respond := `{"id":1,"method":"elicitation.respond","params":{"elicitation_id":"` + qid + `","action":"accept","content":{"name":"Ada Secret"}}}`
		answer := `{"id":2,"method":"inbox.answer","params":{"item_id":"` + item + `","answer":{"action":"decline"}}}`
		res := twoAnswers(t, out, send, round, respond, answer)
		got := <-done
		if got.err != nil {
			t.Fatal(got.err)
		}
		if res[1]["error"] == nil {
			if got.a.Action != elicit.Accept || got.a.Content["name"] != "Ada Secret" {
				t.Fatalf("the waiting call got %+v", got.a)
			}
		} else if got.a.Action != elicit.Decline || got.a.Content != nil {
			t.Fatalf("the waiting call got %+v", got.a)
		}
		it, _ = rt.Journal().InboxItem(context.Background(), item)
		if it.Status != journal.InboxConsumed || strings.Contains(string(it.Answer)+string(it.Asked), "Ada Secret") {
			t.Fatalf("item after the answer = %+v", it)
		}
		send(respond) // a third answer after the call has its answer
		if e, _ := out.next(t)["error"].(map[string]any); e["code"] != "not_found" {
			t.Fatalf("a late elicitation.respond = %v", e)
		}
	}

	// A bad accept leaves the question open; then its deadline passes.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	done, ev := ask(ctx, "eli_late")
	send(`{"id":3,"method":"elicitation.respond","params":{"elicitation_id":"eli_late","action":"accept","content":{}}}`)
	if e, _ := out.next(t)["error"].(map[string]any); e["code"] != "bad_request" || !strings.Contains(e["message"].(string), "still open") {
		t.Fatalf("a bad accept = %v", e)
	}
	got := <-done
	if got.err == nil || got.a.Action != elicit.Decline {
		t.Fatalf("expired question = %+v", got)
	}
	if it, _ := rt.Journal().InboxItem(context.Background(), ev["item_id"].(string)); it.Status != journal.InboxExpired {
		t.Fatalf("expired item = %+v", it)
	}
	end()
}

// docs/inbox.md#askers, docs/stdio-protocol.md#sign-in: a sign-in on the
// protocol is a signin item (server and host, never the URL);
// signin.required carries its item_id; of signin.respond and inbox.answer
// sent at once exactly one wins; unanswered within SignInTimeout the item
// expires.
func TestSignInIsAnInboxItem(t *testing.T) {
	rt, srv, out, send, end := servePipe(t)
	send(`{"id":0,"method":"inbox.list"}`)
	out.next(t)
	type asked struct {
		ok  bool
		err error
	}
	ask := func() (chan asked, string, string) {
		done := make(chan asked, 1)
		go func() { ok, err := srv.AskSignIn(context.Background(), prompt); done <- asked{ok, err} }()
		ev := event(out.next(t))
		item, _ := ev["item_id"].(string)
		if ev["type"] != "signin.required" || !strings.HasPrefix(item, "inb") {
			t.Fatalf("signin.required = %v", ev)
		}
		return done, ev["signin_id"].(string), item
	}
	for round := range 4 {
		done, sid, item := ask()
		it, err := rt.Journal().InboxItem(context.Background(), item)
		if err != nil || it.Kind != journal.InboxSignIn || !it.Open() || !strings.Contains(string(it.Asked), `"host":"auth.example.com"`) || strings.Contains(string(it.Asked), "authorize") {
			t.Fatalf("item = %+v, %v", it, err)
		}
		respond := `{"id":1,"method":"signin.respond","params":{"signin_id":"` + sid + `","action":"opened"}}`
		answer := `{"id":2,"method":"inbox.answer","params":{"item_id":"` + item + `","answer":{"action":"decline"}}}`
		res := twoAnswers(t, out, send, round, respond, answer)
		got := <-done
		if got.err != nil || got.ok != (res[1]["error"] == nil) {
			t.Fatalf("round %d: %v; AskSignIn = %+v", round, res, got)
		}
	}
	srv.SignInTimeout = time.Second
	done, _, item := ask()
	if got := <-done; got.ok || got.err == nil {
		t.Fatalf("AskSignIn unanswered = %+v", got)
	}
	if closed := event(out.next(t)); closed["type"] != "signin.closed" || closed["reason"] != "bound" {
		t.Fatalf("signin.closed = %v", closed)
	}
	if it, _ := rt.Journal().InboxItem(context.Background(), item); it.Status != journal.InboxExpired {
		t.Fatalf("item = %+v", it)
	}
	end()
}

// twoAnswers sends the asker's own answer (respond, id 1) and
// inbox.answer (id 2) at once, in an order that alternates with round,
// and checks that exactly one wins and the other is told it was already
// answered. It returns the two responses by id.
func twoAnswers(t *testing.T, out *jsonLines, send func(...string), round int, respond, answer string) map[float64]map[string]any {
	t.Helper()
	if round%2 == 1 {
		send(answer, respond)
	} else {
		send(respond, answer)
	}
	res := map[float64]map[string]any{}
	for len(res) < 2 {
		m := out.next(t)
		if id, ok := m["id"].(float64); ok {
			res[id] = m
		}
	}
	wins := 0
	for _, m := range res {
		if m["error"] == nil {
			wins++
		} else if e := m["error"].(map[string]any); e["code"] != "not_found" || !strings.Contains(e["message"].(string), "already answered") {
			t.Fatalf("the losing answer = %v", m)
		}
	}
	if wins != 1 {
		t.Fatalf("round %d: %d answers won: %v", round, wins, res)
	}
	return res
}

// servePipe serves the stdio protocol on a pipe over a new runtime with
// its journal in a temporary folder: send writes lines to it, out reads
// what it answers, end closes the input and checks Serve ended cleanly.
func servePipe(t *testing.T) (rt *harness.Runtime, srv *protocol.Server, out *jsonLines, send func(...string), end func()) {
	t.Helper()
	dir := t.TempDir()
	rt, err := harness.Open(context.Background(), tool.NewRegistry(), harness.Options{Coworkers: dir, DBPath: filepath.Join(dir, "journal.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	out = newJSONLines()
	srv = protocol.NewServer(out)
	inR, inW := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(context.Background(), rt, harness.SessionOptions{}, inR) }()
	w := bufio.NewWriter(inW)
	send = func(lines ...string) {
		for _, l := range lines {
			w.WriteString(l + "\n")
		}
		w.Flush()
	}
	end = func() {
		t.Helper()
		inW.Close()
		if err := <-served; err != nil {
			t.Fatal(err)
		}
	}
	return rt, srv, out, send, end
}
