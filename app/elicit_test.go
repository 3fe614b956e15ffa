package app

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/elicit"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// askServer is a go-sdk MCP server over streamable HTTP on 127.0.0.1 whose
// tool "signup" asks one question (name, email, age, plan) and returns the
// answer it got as text; every answer it got is sent on got.
func askServer(t *testing.T) (url string, got <-chan string) {
	t.Helper()
	ch := make(chan string, 4)
	form := map[string]any{"type": "object", "required": []string{"name", "email"}, "properties": map[string]any{
		"name":  map[string]any{"type": "string", "title": "Your name", "minLength": 2},
		"email": map[string]any{"type": "string", "format": "email"},
		"age":   map[string]any{"type": "integer", "minimum": 0, "maximum": 150},
		"plan":  map[string]any{"type": "string", "enum": []string{"free", "pro"}, "default": "free"},
	}}
	srv := sdk.NewServer(&sdk.Implementation{Name: "signup-server", Version: "1.0.0"}, nil)
	srv.AddTool(&sdk.Tool{Name: "signup", Description: "signs you up", InputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			if len(req.Params.InputResponses) == 0 {
				return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{"q": &sdk.ElicitParams{Message: "Sign up <b>now</b>", RequestedSchema: form}}}, nil
			}
			raw, _ := json.Marshal(req.Params.InputResponses["q"])
			ch <- string(raw)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "got " + string(raw)}}}, nil
		})
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	return hs.URL, ch
}

// askEnv is a test app whose coworker "asker" uses the signup server.
func askEnv(t *testing.T, replies ...modeltest.Reply) (*testEnv, <-chan string) {
	t.Helper()
	url, got := askServer(t)
	servers := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(servers, []byte(`{"servers": {"signup": {"type": "http", "url": "`+url+`"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t, envOpts{cfg: config{Servers: servers}, replies: replies})
	writeBundle(t, e.bundles, "asker", "signup.signup")
	return e, got
}

var signupCall = modeltest.Reply{ToolCalls: []model.ToolCall{{Name: "signup__signup", Arguments: `{}`}}}

// allowNext answers the next consent prompt "once".
func allowNext(t *testing.T, e *testEnv) {
	t.Helper()
	p := e.rec.waitFor(t, EventApprovalRequest, nil).(PendingApproval)
	if err := e.app.Asks.RespondApproval(p.ID, "allow_once"); err != nil {
		t.Fatal(err)
	}
}

// TestElicitationAnsweredInTheApp: a server's question during a call is
// sent to the UI with the server, the call and the coworker; an answer
// that does not fit the form is refused and the question stays open; the
// valid answer reaches the server, the dialog closes, and the journal
// keeps the field names and the action, not the values.
func TestElicitationAnsweredInTheApp(t *testing.T) {
	e, got := askEnv(t, signupCall, modeltest.Reply{Text: "signed up"})
	chat, err := e.app.Chats.OpenChat("asker")
	if err != nil {
		t.Fatal(err)
	}
	done := sendAsync(e.app, chat.SessionID, "sign me up")
	allowNext(t, e)
	p := e.rec.waitFor(t, EventElicitationAsked, nil).(PendingElicitation)
	q := p.Question
	if q.Namespace != "signup" || q.ServerName != "signup-server" || q.Tool != "signup.signup" || q.SessionID != chat.SessionID ||
		q.Message != "Sign up <b>now</b>" || len(q.Fields) != 4 || q.Deadline.IsZero() || p.Coworker != "asker" || p.CoworkerName != "Test asker" {
		t.Fatalf("asked = %+v", p)
	}
	if pend, _ := e.app.Asks.PendingElicitations(); len(pend) != 1 || pend[0].Question.ID != q.ID {
		t.Fatalf("PendingElicitations = %+v", pend)
	}
	err = e.app.Asks.AnswerElicitation(q.ID, "accept", map[string]any{"name": "Ada", "email": "not-an-email"})
	if err == nil || !strings.Contains(err.Error(), "email") {
		t.Fatalf("an invalid email accepted: %v", err)
	}
	if err := e.app.Asks.AnswerElicitation(q.ID, "maybe", nil); err == nil {
		t.Fatal(`"maybe" taken as an answer`)
	}
	const email = "ada-7Q2@example.org"
	if err := e.app.Asks.AnswerElicitation(q.ID, "accept", map[string]any{"name": "Ada", "email": email, "age": float64(36), "plan": "pro"}); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-got:
		if !strings.Contains(s, `"action":"accept"`) || !strings.Contains(s, email) || !strings.Contains(s, `"age":36`) {
			t.Fatalf("the server got %s", s)
		}
	case <-time.After(hangGuard):
		t.Fatal("the server got no answer")
	}
	if res := waitResult(t, done); res.Status != harness.TurnCompleted {
		t.Fatalf("turn = %+v", res)
	}
	c := e.rec.waitFor(t, EventElicitationClosed, nil).(ElicitationClosed)
	if c.ID != q.ID || c.Action != "accept" || c.Reason != "answered" {
		t.Fatalf("closed = %+v", c)
	}
	if err := e.app.Asks.AnswerElicitation(q.ID, "decline", nil); err != ErrNoSuchElicitation {
		t.Fatalf("answering again = %v, want ErrNoSuchElicitation", err)
	}
	j, err := e.app.engine.openJournal()
	if err != nil {
		t.Fatal(err)
	}
	es, err := j.Elicitations(context.Background(), q.Invocation)
	if err != nil || len(es) != 1 || es[0].Action != "accept" || es[0].Source != journal.ElicitByPerson || strings.Join(es[0].Fields, ",") != "name,email,age,plan" {
		t.Fatalf("journal = %+v, %v", es, err)
	}
	if b, _ := json.Marshal(es); strings.Contains(string(b), email) {
		t.Fatal("the journal holds the typed email")
	}
}

// TestElicitationWithdrawnWhenTheTurnIsCancelled: cancelling the turn
// closes the open question's dialog with a notice, and the server is told
// cancel.
func TestElicitationWithdrawnWhenTheTurnIsCancelled(t *testing.T) {
	e, _ := askEnv(t, signupCall, modeltest.Reply{Text: "never"})
	chat, err := e.app.Chats.OpenChat("asker")
	if err != nil {
		t.Fatal(err)
	}
	_ = e.app.Window.SetWindowFocused(false)
	done := sendAsync(e.app, chat.SessionID, "sign me up")
	allowNext(t, e)
	q := e.rec.waitFor(t, EventElicitationAsked, nil).(PendingElicitation).Question
	if err := e.app.Chats.Cancel(chat.SessionID); err != nil {
		t.Fatal(err)
	}
	c := e.rec.waitFor(t, EventElicitationClosed, nil).(ElicitationClosed)
	if c.ID != q.ID || c.Reason != elicitCancelled {
		t.Fatalf("closed = %+v, want withdrawn", c)
	}
	if res := waitResult(t, done); res.Status != harness.TurnCancelled {
		t.Fatalf("turn = %+v, want cancelled", res)
	}
	if pend, _ := e.app.Asks.PendingElicitations(); len(pend) != 0 {
		t.Fatalf("still pending: %+v", pend)
	}
	if s := e.notify.waitFor(t, "question"); strings.Contains(s, "Sign up") {
		t.Errorf("notification %q: want a question notice without the message", s)
	}
}

// TestElicitorExpiresAtItsDeadline: a question whose ctx reaches its
// deadline closes with "the question expired" and declines; two questions
// wait at once and are listed oldest first. On synctest's clock: the
// deadline passes only once every goroutine of the bubble waits.
func TestElicitorExpiresAtItsDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := newRecorder()
		m := newAppElicitor(rec, nil, nil, nil)
		form, err := elicit.Parse(json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		first := make(chan elicit.Answer, 1)
		go func() {
			a, _ := m.Elicit(ctx, elicit.NewQuestion("eli_1", "first", form))
			first <- a
		}()
		rec.waitFor(t, EventElicitationAsked, nil)
		dctx, dcancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer dcancel()
		a, err := m.Elicit(dctx, elicit.NewQuestion("eli_2", "second", form))
		if a.Action != elicit.Decline || err != context.DeadlineExceeded {
			t.Fatalf("expired = %+v, %v", a, err)
		}
		c := rec.waitFor(t, EventElicitationClosed, nil).(ElicitationClosed)
		if c.ID != "eli_2" || c.Action != "decline" || !strings.HasPrefix(c.Reason, "the question expired") {
			t.Fatalf("closed = %+v", c)
		}
		if pend := m.Pending(); len(pend) != 1 || pend[0].Question.ID != "eli_1" {
			t.Fatalf("pending = %+v, want only the first", pend)
		}
		if err := m.Answer("eli_1", "accept", map[string]any{"ok": true}); err != nil {
			t.Fatal(err)
		}
		if a := <-first; a.Action != elicit.Accept || a.Content["ok"] != true {
			t.Fatalf("first = %+v", a)
		}
	})
}
