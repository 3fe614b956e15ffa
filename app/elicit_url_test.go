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

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// signinServer is a go-sdk MCP server over streamable HTTP on 127.0.0.1
// whose tool "signin" {"url": U} asks to open U (URL mode) and returns the
// action it got.
func signinServer(t *testing.T) string {
	t.Helper()
	srv := sdk.NewServer(&sdk.Implementation{Name: "signin-server", Version: "1.0.0"}, nil)
	srv.AddTool(&sdk.Tool{Name: "signin", Description: "signs you in", InputSchema: json.RawMessage(`{"type":"object","properties":{"url":{"type":"string"}}}`),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			if len(req.Params.InputResponses) == 0 {
				var in struct{ URL string }
				_ = json.Unmarshal(req.Params.Arguments, &in)
				return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{"u": &sdk.ElicitParams{Mode: "url", Message: "Sign in to Example",
					URL: in.URL, ElicitationID: "e1"}}}, nil
			}
			raw, _ := json.Marshal(req.Params.InputResponses["u"])
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(raw)}}}, nil
		})
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	return hs.URL
}

func signinEnv(t *testing.T, urls ...string) (*testEnv, *recordOpener) {
	t.Helper()
	servers := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(servers, []byte(`{"servers": {"signin": {"type": "http", "url": "`+signinServer(t)+`"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var replies []modeltest.Reply
	for _, u := range urls {
		args, _ := json.Marshal(map[string]string{"url": u})
		replies = append(replies, modeltest.Reply{ToolCalls: []model.ToolCall{{Name: "signin__signin", Arguments: string(args)}}})
	}
	replies = append(replies, modeltest.Reply{Text: "done"})
	e := newTestEnv(t, envOpts{cfg: config{Servers: servers}, replies: replies})
	writeBundle(t, e.bundles, "signer", "signin.signin")
	rec := &recordOpener{}
	e.app.opener = rec
	return e, rec
}

// TestURLElicitationOpensOnlyOnAccept: a URL question reaches the dialog
// with the URL and its host (an IDN host in punycode); declining opens
// nothing, "Open" (accept) opens the page through the app's opener; a
// javascript: URL never reaches the dialog; the journal keeps the host
// and the action, not the URL.
func TestURLElicitationOpensOnlyOnAccept(t *testing.T) {
	e, opened := signinEnv(t, "https://bücher.example/login?state=tok-9X", "https://login.example.com/", "javascript:alert(1)")
	chat, err := e.app.Chats.OpenChat("signer")
	if err != nil {
		t.Fatal(err)
	}
	done := sendAsync(e.app, chat.SessionID, "sign me in")
	allowNext(t, e)
	p := e.rec.waitFor(t, EventElicitationAsked, nil).(PendingElicitation)
	q := p.Question
	if q.Mode != "url" || q.URL != "https://xn--bcher-kva.example/login?state=tok-9X" || q.Host != "xn--bcher-kva.example" || q.Message != "Sign in to Example" || q.ServerName != "signin-server" {
		t.Fatalf("asked = %+v", q)
	}
	if err := e.app.Asks.AnswerElicitation(q.ID, "decline", nil); err != nil {
		t.Fatal(err)
	}
	approveNth(t, e, 2)
	q2 := e.rec.waitFor(t, EventElicitationAsked, func(x any) bool { return x.(PendingElicitation).Question.ID != q.ID }).(PendingElicitation).Question
	if len(opened.opened) != 0 {
		t.Fatalf("opened %q before any Open", opened.opened)
	}
	if err := e.app.Asks.AnswerElicitation(q2.ID, "accept", nil); err != nil {
		t.Fatal(err)
	}
	if len(opened.opened) != 1 || opened.opened[0] != "https://login.example.com/" {
		t.Fatalf("opened %q; want the second URL only", opened.opened)
	}
	// The javascript: URL is refused before the dialog: its call goes on
	// to a third approval and no third question.
	approveNth(t, e, 3) // the javascript: URL is refused before the dialog: no third question
	if res := waitResult(t, done); res.Status != harness.TurnCompleted {
		t.Fatalf("turn = %+v", res)
	}
	if n := len(e.rec.all(EventElicitationAsked)); n != 2 {
		t.Errorf("%d questions shown; want 2 (the javascript: one refused)", n)
	}
	d, err := e.app.Activity.SessionDetail(chat.SessionID)
	if err != nil || len(d.Invocations) != 3 {
		t.Fatalf("invocations = %+v, %v", d.Invocations, err)
	}
	j, _ := e.app.engine.openJournal()
	want := []struct{ host, action, source string }{
		{"xn--bcher-kva.example", "decline", journal.ElicitByPerson},
		{"login.example.com", "accept", journal.ElicitByPerson},
		{"", "decline", journal.ElicitByRefused},
	}
	for i, inv := range d.Invocations {
		es, err := j.Elicitations(context.Background(), inv.ID)
		if err != nil || len(es) != 1 || es[0].Mode != "url" || es[0].Host != want[i].host || es[0].Action != want[i].action || es[0].Source != want[i].source {
			t.Errorf("call %d journaled %+v, %v; want %+v", i, es, err, want[i])
		}
		if b, _ := json.Marshal(es); strings.Contains(string(b), "tok-9X") || strings.Contains(string(b), "alert") {
			t.Errorf("call %d: the journal row holds the URL: %s", i, b)
		}
	}
}

// approveNth answers the n-th consent prompt (1-based) "once".
func approveNth(t *testing.T, e *testEnv, n int) {
	t.Helper()
	e.rec.waitFor(t, EventApprovalRequest, func(any) bool { return len(e.rec.all(EventApprovalRequest)) >= n })
	p := e.rec.all(EventApprovalRequest)[n-1].(PendingApproval)
	if err := e.app.Asks.RespondApproval(p.ID, "allow_once"); err != nil {
		t.Fatal(err)
	}
}
