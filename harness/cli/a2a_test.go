package cli_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/a2a/a2atest"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

func startTestAgent(t *testing.T) *a2atest.Agent {
	t.Helper()
	return a2atest.New(t, a2atest.Options{Streaming: true})
}

func writeAgentServers(t *testing.T, path, cardURL string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"servers": map[string]any{"helper": map[string]any{"transport": "a2a", "card": cardURL}}})
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
}

func openJournalAt(t *testing.T, db string) *journal.Journal {
	t.Helper()
	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j
}

// TestRunA2AAgent: a turn through `openworker run` calls the echo skill
// of a real A2A agent named in servers.json; the model gets the
// artifact, and the journal has the call with the agent's task ID.
func TestRunA2AAgent(t *testing.T) {
	ag := startTestAgent(t)
	dir := t.TempDir()
	servers := filepath.Join(dir, "servers.json")
	writeAgentServers(t, servers, ag.CardURL)
	bundles := filepath.Join(dir, "coworkers")
	writeBundleAt(t, bundles, "delegate", "helper.echo")
	m := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "helper__echo", Arguments: `{"text":"ping"}`}}},
		modeltest.Reply{Text: "The agent answered."})
	db := filepath.Join(dir, "journal.db")
	out, errs, code := runBinary(t, nil, "run", "--coworkers", bundles, "--coworker", "delegate", "--servers", servers, "--db", db,
		"--base-url", m.URL, "--model", "test", "--approve", "bypass", "Ask the agent.")
	if code != 0 || !strings.Contains(out, "The agent answered.") || !strings.Contains(errs, "✓ helper.echo succeeded") {
		t.Fatalf("run = %d\n%s\n%s", code, out, errs)
	}
	if res := m.Requests()[1].ToolResults(); len(res) != 1 || !strings.Contains(res[0].Text, "echo: ping") {
		t.Errorf("the model saw %+v", res)
	}
	j := openJournalAt(t, db)
	all, err := j.Unreconciled(context.Background())
	if err != nil || len(all) != 0 {
		t.Fatalf("unreconciled %v, %v", all, err)
	}
	d, err := j.Detail(context.Background(), mustNewestSession(t, j))
	if err != nil || len(d.Invocations) != 1 {
		t.Fatalf("detail %+v %v", d, err)
	}
	h, _ := j.Handle(context.Background(), d.Invocations[0].ID)
	j.Close()
	if show, errs, code := runBinary(t, nil, "journal", "show", "--db", db); code != 0 || h == "" || !strings.Contains(show, "helper.echo") || !strings.Contains(show, "task "+h) {
		t.Errorf("journal show = %d\n%s%s\nwant the task %q", code, show, errs, h)
	}
}

func mustNewestSession(t *testing.T, j *journal.Journal) string {
	t.Helper()
	page, err := j.SessionPage(context.Background(), journal.SessionQuery{Limit: 1})
	if err != nil || len(page.Sessions) != 1 {
		t.Fatalf("sessions %+v %v", page, err)
	}
	return page.Sessions[0].ID
}

// TestRunA2AKilledThenPoll: `run` is killed (SIGKILL) while the agent's
// slow task works. The journal keeps the task ID; `journal reconcile
// --poll` asks the agent: working (stays unknown), unknown to another
// agent (stays unknown), then completed (applied, with the artifacts).
// Nothing is sent to the agent again.
func TestRunA2AKilledThenPoll(t *testing.T) {
	ag := startTestAgent(t)
	dir := t.TempDir()
	servers := filepath.Join(dir, "servers.json")
	writeAgentServers(t, servers, ag.CardURL)
	bundles := filepath.Join(dir, "coworkers")
	writeBundleAt(t, bundles, "delegate", "helper.slow")
	m := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "helper__slow", Arguments: `{"text":"the long job"}`}}},
		modeltest.Reply{Text: "never reached"})
	db := filepath.Join(dir, "journal.db")
	// The task ID is journaled before the first status update is
	// forwarded (docs/a2a.md#durable-handles).
	task := runThenKill(t, ag.Started(), "slow task started",
		"run", "--coworkers", bundles, "--coworker", "delegate", "--servers", servers, "--db", db,
		"--base-url", m.URL, "--model", "test", "--approve", "bypass", "Start the long job.")
	sends := ag.Requests("/a2a")

	// Which invocation: the only one of the journal.
	j := openJournalAt(t, db)
	unknown, err := j.Unreconciled(context.Background())
	if err != nil || len(unknown) != 1 || unknown[0].Provider != "a2a:helper" {
		t.Fatalf("unreconciled = %+v, %v", unknown, err)
	}
	inv := unknown[0].ID
	if h, err := j.Handle(context.Background(), inv); err != nil || h != task {
		t.Fatalf("handle %q, %v; the agent's task is %s", h, err, task)
	}
	j.Close()

	out, errs, _ := runBinary(t, nil, "journal", "list", "--unknown", "--db", db)
	t.Logf("journal list --unknown:\n%s%s", out, errs)
	poll := func(servers string) (string, string, int) {
		out, errs, code := runBinary(t, nil, "journal", "reconcile", inv, "--poll", "--servers", servers, "--db", db)
		t.Logf("reconcile --poll: exit %d\n%s%s", code, out, errs)
		return out, errs, code
	}
	// Still working: it stays unknown.
	out, errs, code := poll(servers)
	if code != 1 || !strings.Contains(errs, "stays unknown") || !strings.Contains(errs, "task "+task+" is working") {
		t.Fatalf("poll while working = %d\n%s\n%s", code, out, errs)
	}
	// An agent that does not know the task: it stays unknown, for the person.
	other := startTestAgent(t)
	otherServers := filepath.Join(dir, "other.json")
	writeAgentServers(t, otherServers, other.CardURL)
	out, errs, code = poll(otherServers)
	if code != 1 || !strings.Contains(errs, `does not know task `+task) {
		t.Fatalf("poll of an agent that forgot = %d\n%s\n%s", code, out, errs)
	}
	// The agent finishes the task; the poll records its answer.
	ag.Release()
	for i := 0; ; i++ {
		out, errs, code = poll(servers)
		if code == 0 || i == 100 || !strings.Contains(errs, "is working") {
			break
		}
	}
	if code != 0 || !strings.Contains(out, "invocation "+inv+" reconciled: applied") || !strings.Contains(out, "task "+task+" is completed") {
		t.Fatalf("poll after the task completed = %d\n%s\n%s", code, out, errs)
	}
	j = openJournalAt(t, db)
	got, err := j.Invocation(context.Background(), inv)
	if err != nil || got.Reconciled != journal.EffectApplied || got.ReconciledBy != "a2a:poll" || !strings.Contains(string(got.Result), "slow done: the long job") {
		t.Fatalf("reconciled invocation = %+v, %v", got, err)
	}
	if rep, err := j.Verify(context.Background()); err != nil || !rep.OK {
		t.Errorf("Verify = %+v, %v", rep, err)
	}
	// Polls ask with tasks/get only: the message was sent once.
	if n := ag.Requests("/a2a") - sends; n < 2 {
		t.Errorf("%d requests after the kill; want the polls' tasks/get", n)
	}
	// A second poll finds nothing to do.
	if _, errs, code := poll(servers); code != 2 || !strings.Contains(errs, "already reconciled as applied") {
		t.Errorf("second poll = %d %s", code, errs)
	}
}

// TestCheckA2A: `check` reads the cards of the agents a bundle selects: a
// good card resolves the skills; a card that is not JSON, a card over
// 1 MB, a name the card does not list, and an agent that never answers
// are errors naming the card's URL and the fix; nothing hangs.
func TestCheckA2A(t *testing.T) {
	ag := startTestAgent(t)
	dir := t.TempDir()
	bundles := filepath.Join(dir, "coworkers")
	writeBundleAt(t, bundles, "good", "helper.echo", "helper.slow")
	writeBundleAt(t, bundles, "typo", "helper.ecko")
	writeBundleAt(t, bundles, "broken", "bad.echo")
	writeBundleAt(t, bundles, "huge", "huge.echo")
	writeBundleAt(t, bundles, "silent", "silent.echo")
	bad := serveCard(t, "{\n  \"name\": \"x\",\n  oops\n}")
	huge := serveCard(t, `{"name": "x", "description": "`+strings.Repeat("x", 1<<20)+`", "url": "http://127.0.0.1:1/a2a", "skills": [{"id": "echo"}]}`)
	silent := hangingListener(t)
	servers := filepath.Join(dir, "servers.json")
	body, _ := json.Marshal(map[string]any{"servers": map[string]any{
		"helper": map[string]any{"transport": "a2a", "card": ag.CardURL},
		"bad":    map[string]any{"transport": "a2a", "card": bad},
		"huge":   map[string]any{"transport": "a2a", "card": huge},
		"silent": map[string]any{"transport": "a2a", "card": "http://" + silent + "/.well-known/agent-card.json"},
	}})
	os.WriteFile(servers, body, 0o644)
	start := time.Now()
	out, errs, code := runBinary(t, nil, "check", "--coworkers", bundles, "--servers", servers)
	t.Logf("check: exit %d\n%s%s", code, out, errs)
	if code == 0 {
		t.Fatalf("check passed with broken bundles")
	}
	all := out + errs
	for _, want := range []string{
		`"helper.ecko": the card of A2A agent "helper" lists no skill "ecko"`,
		bad + `: it is not JSON: line 3, column 3`,
		huge + `: it is over 1048576 bytes (1 MB)`,
		`the agent did not answer within 10s`,
		`check that A2A agent "bad" is running and answers at its card URL`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("check output lacks %q", want)
		}
	}
	if !regexp.MustCompile(`ok\s+good .*\n\s+helper\.echo\s+→ a2a:helper\s+echo`).MatchString(out) {
		t.Errorf("the good bundle is not ok with its skills:\n%s", out)
	}
	if d := time.Since(start); d >= runGuard { // 10 s for the silent agent, not runBinary's hang guard
		t.Errorf("check took %s", d)
	}
}

// serveCard serves body as an agent card; it returns the card's URL.
func serveCard(t *testing.T, body string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }))
	t.Cleanup(srv.Close)
	return srv.URL + "/.well-known/agent-card.json"
}

// hangingListener accepts connections and never answers.
func hangingListener(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return ln.Addr().String()
}

// TestDoctorA2A: `doctor` reads each agent's card and says what it offers
// or why it cannot be used, without the agent's header values.
func TestDoctorA2A(t *testing.T) {
	ag := startTestAgent(t)
	dir := t.TempDir()
	servers := filepath.Join(dir, "servers.json")
	body, _ := json.Marshal(map[string]any{"servers": map[string]any{
		"helper": map[string]any{"transport": "a2a", "card": ag.CardURL, "headers": map[string]string{"Authorization": "Bearer d0ctor-secret"}},
		"bad":    map[string]any{"transport": "a2a", "card": serveCard(t, `{"name": "x"}`)},
	}})
	os.WriteFile(servers, body, 0o644)
	out, errs, code := runBinary(t, nil, "doctor", "--servers", servers, "--db", filepath.Join(dir, "none.db"))
	t.Logf("doctor: exit %d\n%s%s", code, out, errs)
	if !regexp.MustCompile(`A2A agent helper\s+ok: "Test agent", 4 skills \(echo, slow, ask, fail\), message/stream on this computer, card sha256:`).MatchString(out) {
		t.Errorf("doctor does not report the agent")
	}
	if !regexp.MustCompile(`A2A agent bad\s+failed: A2A agent card .*: it has no "url"`).MatchString(out) {
		t.Errorf("doctor does not report the broken card")
	}
	if strings.Contains(out+errs, "d0ctor-secret") {
		t.Errorf("doctor shows a header value")
	}
	if ag.Requests("/a2a") != 0 {
		t.Errorf("doctor sent the agent %d messages", ag.Requests("/a2a"))
	}
}
