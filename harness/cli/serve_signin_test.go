package cli_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"github.com/openworker/desktop/harness/cli"
	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/mcp/oauth/oauthtest"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// signInServe is `openworker serve --stdio` run in this process (cli.Run)
// on pipes for its stdin and stdout, so the sign-in store can be the mock
// OS keychain and the browser of "open" the test's (WithSignIn). Every
// stdout line is kept in transcript, stderr in stderr.
type signInServe struct {
	*client
	transcript, stderr *lockedBuffer
	as                 *oauthtest.AuthServer
	ms                 *oauthtest.MCPServer
	browsed            func() int // how often serve's browser (for "open") ran
}

// startSignInServe starts serve with a coworker selecting remote.whoami of
// an oauthtest MCP server on 127.0.0.1 (allowed by its policy), and a
// scripted model that calls it once.
func startSignInServe(t *testing.T) *signInServe {
	t.Helper()
	keyring.MockInit()
	as := oauthtest.NewAuthServer(t, oauthtest.Options{Iss: true})
	ms := oauthtest.NewMCPServer(t, as)
	dir := t.TempDir()
	coworkers, servers := filepath.Join(dir, "coworkers"), filepath.Join(dir, "servers.json")
	write(t, servers, `{"servers": {"remote": {"transport": "streamable_http", "url": "`+ms.URL+`"}}}`)
	cw := filepath.Join(coworkers, "helper", "coworker")
	if err := os.MkdirAll(cw, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(cw, "manifest.md"), "---\nid: helper\nname: helper\nversion: 1.0.0\npolicy:\n  remote.whoami: allow\n---\nUse your tools.\n")
	write(t, filepath.Join(cw, "tools.json"), `{"version": 3, "tools": ["remote.whoami"]}`)
	m := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "remote__whoami", Arguments: `{}`}}},
		modeltest.Reply{Text: "Done."},
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c2", Name: "remote__whoami", Arguments: `{}`}}},
		modeltest.Reply{Text: "Done again."},
	)
	var mu sync.Mutex
	browsed := 0
	browser := func(ctx context.Context, u string) error {
		mu.Lock()
		browsed++
		mu.Unlock()
		return oauthtest.Browser(ctx, u)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &signInServe{transcript: &lockedBuffer{}, stderr: &lockedBuffer{}, as: as, ms: ms,
		browsed: func() int { mu.Lock(); defer mu.Unlock(); return browsed }}
	done := make(chan int, 1)
	go func() {
		code := cli.Run(context.Background(), tool.NewRegistry(), []string{"serve", "--stdio", "--coworkers", coworkers, "--servers", servers,
			"--db", filepath.Join(t.TempDir(), "journal.db"), "--base-url", m.URL, "--model", "test", "--approve", "ask"},
			cli.WithIO(inR, outW, s.stderr, func(string) string { return "" }, func() bool { return false }),
			cli.WithSignIn(oauth.KeychainStore{}, browser))
		outW.Close()
		done <- code
	}()
	s.client = &client{t: t, in: inW, lines: make(chan map[string]any, 1000)}
	go func() {
		sc := bufio.NewScanner(io.TeeReader(outR, s.transcript))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				m = map[string]any{"unparsable": sc.Text()}
			}
			s.lines <- m
		}
		close(s.lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("serve exited %d; stderr:\n%s", code, s.stderr.Bytes())
			}
		case <-time.After(hangGuard):
			t.Errorf("serve did not end within %v of stdin closing", hangGuard)
		}
	})
	return s
}

// noTokens fails when a token the authorization server issued is in the
// protocol's transcript or on stderr.
func (s *signInServe) noTokens(t *testing.T) {
	t.Helper()
	issued := s.as.Issued()
	if len(issued) == 0 {
		t.Fatal("the authorization server issued no token")
	}
	for where, b := range map[string][]byte{"the protocol transcript": s.transcript.Bytes(), "stderr": s.stderr.Bytes()} {
		for _, tok := range issued {
			if bytes.Contains(b, []byte(tok)) {
				t.Errorf("%s holds a token (%s…)", where, tok[:6])
			}
		}
	}
}

// docs/stdio-protocol.md#sign-in: a protected remote server on 127.0.0.1
// needs a sign-in when serve starts it: serve sends signin.required naming
// the provider, both hosts and the sign-in URL (no secret in it), opens no
// browser itself, and waits; the client answers "opened" and does the
// browser step itself; the call then succeeds with the token. A second
// answer and an unknown id are not_found, a bad action bad_request; no
// token is ever in the transcript or on stderr.
func TestServeStdioSignIn(t *testing.T) {
	s := startSignInServe(t)
	c := s.client
	var seen []string
	openID := c.send("session.open", map[string]any{"coworker": "helper"})
	ev := c.until(&seen, func(m map[string]any) bool { return eventType("signin.required")(m) || response(openID)(m) })
	if !eventType("signin.required")(ev) {
		t.Fatalf("session.open answered before any sign-in: %v", ev)
	}
	e := ev["event"].(map[string]any)
	sid, _ := e["signin_id"].(string)
	url, _ := e["url"].(string)
	msHost := strings.TrimPrefix(s.ms.Server.URL, "http://")
	asHost := strings.TrimPrefix(s.as.Issuer, "http://")
	if !strings.HasPrefix(sid, "sig_") || e["namespace"] != "remote" || e["server"] != msHost || e["host"] != asHost ||
		!strings.HasPrefix(url, s.as.Issuer) || !strings.Contains(url, "code_challenge=") || !strings.Contains(url, "state=") {
		t.Fatalf("signin.required = %v", ev)
	}
	if s.browsed() != 0 {
		t.Fatal("serve opened a browser before the client answered")
	}
	bad := c.until(&seen, response(c.send("signin.respond", map[string]any{"signin_id": sid, "action": "accept"})))
	if field(bad, "error", "code") != "bad_request" || !strings.Contains(field(bad, "error", "message").(string), "open, opened or decline") {
		t.Fatalf("a bad action = %v", bad)
	}
	unknown := c.until(&seen, response(c.send("signin.respond", map[string]any{"signin_id": "sig_nope", "action": "opened"})))
	if field(unknown, "error", "code") != "not_found" {
		t.Fatalf("an unknown id = %v", unknown)
	}
	ok := c.until(&seen, response(c.send("signin.respond", map[string]any{"signin_id": sid, "action": "opened"})))
	if field(ok, "result", "action") != "opened" {
		t.Fatalf("signin.respond = %v", ok)
	}
	// The client's browser step: follow the URL; the sign-in page
	// redirects to serve's loopback listener.
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	if err := oauthtest.Browser(ctx, url); err != nil {
		t.Fatalf("the browser step: %v", err)
	}
	open := c.until(&seen, response(openID))
	ses, _ := field(open, "result", "session_id").(string)
	if ses == "" {
		t.Fatalf("session.open = %v\nstderr %s", open, s.stderr.Bytes())
	}
	again := c.until(nil, response(c.send("signin.respond", map[string]any{"signin_id": sid, "action": "opened"})))
	if field(again, "error", "code") != "not_found" {
		t.Errorf("a second answer = %v; want not_found", again)
	}
	turn := c.until(&seen, response(c.send("turn.send", map[string]any{"session_id": ses, "text": "who am I?"})))
	if field(turn, "result", "status") != "completed" || s.ms.Calls() != 1 {
		t.Fatalf("turn.send = %v, calls %d\nstderr %s", turn, s.ms.Calls(), s.stderr.Bytes())
	}
	if got := strings.Join(seen, " "); !strings.Contains(got, "tool.finished:succeeded") || strings.Contains(got, "signin.closed") {
		t.Errorf("events = %s", got)
	}
	if g, _ := (oauth.KeychainStore{}).Load(s.ms.URL); g == nil || g.AccessToken == "" {
		t.Errorf("no grant in the (mock) keychain: %+v", g)
	}
	if s.browsed() != 0 {
		t.Error("serve opened a browser although the client had")
	}
	c.until(nil, response(c.send("session.close", map[string]any{"session_id": ses})))
	s.noTokens(t)
}

// docs/stdio-protocol.md#sign-in: the answer "open" has serve open the
// sign-in page in its browser (here the test's, through WithSignIn). When
// the server later refuses the tokens (revoked), the call in the next turn
// asks again (again, with the session), and turn.cancel while it waits
// closes it: signin.closed with reason cancelled, and an answer after
// that is not_found.
func TestServeStdioSignInOpen(t *testing.T) {
	s := startSignInServe(t)
	c := s.client
	openID := c.send("session.open", map[string]any{"coworker": "helper"})
	ev := c.until(nil, eventType("signin.required"))
	sid, _ := field(ev, "event", "signin_id").(string)
	ok := c.until(nil, response(c.send("signin.respond", map[string]any{"signin_id": sid, "action": "open"})))
	if field(ok, "result", "action") != "open" || s.browsed() != 1 {
		t.Fatalf("signin.respond open = %v, browser opened %d times", ok, s.browsed())
	}
	open := c.until(nil, response(openID))
	ses, _ := field(open, "result", "session_id").(string)
	if ses == "" {
		t.Fatalf("session.open = %v", open)
	}
	turn := c.until(nil, response(c.send("turn.send", map[string]any{"session_id": ses, "text": "who am I?"})))
	if field(turn, "result", "status") != "completed" || s.ms.Calls() != 1 {
		t.Fatalf("turn.send = %v, calls %d", turn, s.ms.Calls())
	}

	s.as.RevokeAll()
	turnID := c.send("turn.send", map[string]any{"session_id": ses, "text": "and now?"})
	ev = c.until(nil, eventType("signin.required"))
	e := ev["event"].(map[string]any)
	if e["again"] != true || e["session_id"] != ses || e["namespace"] != "remote" {
		t.Fatalf("the second signin.required = %v; want again and session %s", ev, ses)
	}
	sid2, _ := e["signin_id"].(string)
	c.send("turn.cancel", map[string]any{"session_id": ses})
	var closed map[string]any
	res := c.until(nil, func(m map[string]any) bool {
		if eventType("signin.closed")(m) {
			closed = m
		}
		return response(turnID)(m)
	})
	if field(closed, "event", "signin_id") != sid2 || field(closed, "event", "reason") != "cancelled" {
		t.Fatalf("signin.closed = %v", closed)
	}
	if field(res, "result", "status") != "cancelled" {
		t.Errorf("the cancelled turn = %v", res)
	}
	if late := c.until(nil, response(c.send("signin.respond", map[string]any{"signin_id": sid2, "action": "opened"}))); field(late, "error", "code") != "not_found" {
		t.Errorf("an answer after signin.closed = %v; want not_found", late)
	}
	if s.ms.Calls() != 1 || s.browsed() != 1 {
		t.Errorf("calls %d, browser %d after the cancelled sign-in; want 1 and 1", s.ms.Calls(), s.browsed())
	}
	s.noTokens(t)
}

// docs/stdio-protocol.md#sign-in: "decline" fails what needed the
// sign-in with an error naming the server and saying it was declined;
// nothing is stored and the server's tool is never reached.
func TestServeStdioSignInDecline(t *testing.T) {
	s := startSignInServe(t)
	c := s.client
	var seen []string
	openID := c.send("session.open", map[string]any{"coworker": "helper"})
	ev := c.until(&seen, eventType("signin.required"))
	sid, _ := field(ev, "event", "signin_id").(string)
	ok := c.until(&seen, response(c.send("signin.respond", map[string]any{"signin_id": sid, "action": "decline"})))
	if field(ok, "result", "action") != "decline" {
		t.Fatalf("signin.respond decline = %v", ok)
	}
	// Each start of the provider asks once (a failed start is tried again
	// once); every one is declined.
	asked := 1
	var open map[string]any
	for {
		m := c.until(&seen, func(m map[string]any) bool { return eventType("signin.required")(m) || response(openID)(m) })
		if response(openID)(m) {
			open = m
			break
		}
		asked++
		id, _ := field(m, "event", "signin_id").(string)
		c.until(&seen, response(c.send("signin.respond", map[string]any{"signin_id": id, "action": "decline"})))
	}
	if asked > 1 { // a start asks once, though it sends server/discover and initialize (oauth.WithAskOnce)
		t.Errorf("asked %d times after declines; want 1", asked)
	}
	msg, _ := field(open, "error", "message").(string)
	if ses, _ := field(open, "result", "session_id").(string); ses != "" {
		turn := c.until(&seen, response(c.send("turn.send", map[string]any{"session_id": ses, "text": "who am I?"})))
		b, _ := json.Marshal(turn)
		msg = string(b)
	}
	host := strings.TrimPrefix(s.ms.Server.URL, "http://")
	if !strings.Contains(msg, "sign-in to "+host+` for mcp provider \"remote\" was declined`) && !strings.Contains(msg, "sign-in to "+host+` for mcp provider "remote" was declined`) {
		t.Fatalf("after a decline: %s\nevents %v\nstderr %s", msg, seen, s.stderr.Bytes())
	}
	if s.ms.Calls() != 0 || s.browsed() != 0 || len(s.as.Issued()) != 0 {
		t.Errorf("calls %d, browser %d, tokens issued %d; want none", s.ms.Calls(), s.browsed(), len(s.as.Issued()))
	}
	if g, _ := (oauth.KeychainStore{}).Load(s.ms.URL); g != nil {
		t.Error("a declined sign-in stored a grant")
	}
}
