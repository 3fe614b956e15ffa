package cli_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/internal/testbin"
)

// These tests build the real openworker binary once and drive it as a UI
// (serve --stdio) or a terminal user (run, then Ctrl-C) would.

var binary string

// TestMain builds the binary once for the package, or, when mcpgoEnv or
// secretServerEnv is set, makes this test binary the mcp-go server or the
// secret server (secrets_test.go) a servers.json names.
func TestMain(m *testing.M) {
	if os.Getenv(mcpgoEnv) != "" {
		os.Exit(serveMCPGo())
	}
	if os.Getenv(secretServerEnv) != "" {
		os.Exit(serveSecret())
	}
	if os.Getenv(appendEnv) != "" {
		os.Exit(serveAppend())
	}
	if os.Getenv(browserEnv) != "" {
		os.Exit(browse())
	}
	testbin.Main(m, &binary)
}

// writeCoworker writes a bundle selecting the device tool system_info_get
// (served by the binary itself as the MCP provider "device").
func writeCoworker(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "coworkers")
	cw := filepath.Join(dir, "sysinfo", "coworker")
	if err := os.MkdirAll(cw, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := "---\nid: sysinfo\nname: System Info\ndescription: reads system facts\nversion: 1.0.0\n---\nAnswer with the system facts.\n"
	if err := os.WriteFile(filepath.Join(cw, "manifest.md"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cw, "tools.json"), []byte(`{"version":3,"tools":["device.system_info_get"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// binEnv is the environment of the binary's runs: this one with a home
// and config folder of the test's own (homeEnv) and no model settings.
func binEnv(t *testing.T) []string {
	return append(append(os.Environ(), homeEnv(t.TempDir(), t.TempDir())...), "OPENAI_API_KEY=", "OPENAI_BASE_URL=", "GORACE=atexit_sleep_ms=0")
}

// homeEnv makes home the home folder and cfg the user config folder
// (where OpenWorker's folder is, cfg/OpenWorker) of a child, the way its
// system reads them: HOME and XDG_CONFIG_HOME, and on Windows
// USERPROFILE, APPDATA and LOCALAPPDATA (home\AppData\Local), which Go
// and the app read there instead: without them a run on Windows would
// use the person's own %APPDATA%\OpenWorker.
func homeEnv(home, cfg string) []string {
	env := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + cfg}
	if runtime.GOOS == "windows" {
		env = append(env, "USERPROFILE="+home, "APPDATA="+cfg, "LOCALAPPDATA="+filepath.Join(home, "AppData", "Local"))
	}
	return env
}

// client drives `openworker serve --stdio`.
type client struct {
	t         *testing.T
	in        io.WriteCloser
	lines     chan map[string]any
	log       []string
	next      int
	responses []map[string]any // responses until passed over (see until)
}

func startServe(t *testing.T, modelURL, db string) (*client, *exec.Cmd) {
	t.Helper()
	return startServeWith(t, binEnv(t), nil, nil, "--coworkers", writeCoworker(t), "--db", db,
		"--base-url", modelURL, "--model", "test", "--approve", "ask")
}

// startServeWith starts `openworker serve --stdio` with args in env,
// copying its stdout and stderr as they come to tee and stderr (each may
// be nil: stdout is then only parsed, stderr goes to the test's).
func startServeWith(t *testing.T, env []string, tee, stderr io.Writer, args ...string) (*client, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"serve", "--stdio"}, args...)...)
	cmd.Env = env
	cmd.Stderr = os.Stderr
	if stderr != nil {
		cmd.Stderr = stderr
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out io.Reader = pipe
	if tee != nil {
		out = io.TeeReader(pipe, tee)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &client{t: t, in: in, lines: make(chan map[string]any, 1000)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				m = map[string]any{"unparsable": sc.Text()}
			}
			c.lines <- m
		}
		close(c.lines)
	}()
	t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	return c, cmd
}

func (c *client) sendRaw(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatal(err)
	}
}

// send writes a request and returns its id.
func (c *client) send(method string, params any) float64 {
	c.t.Helper()
	c.next++
	b, _ := json.Marshal(map[string]any{"id": c.next, "method": method, "params": params})
	c.sendRaw(string(b))
	return float64(c.next)
}

// hangGuard bounds a wait that only catches a hang (a line that never
// comes, a process that never exits). It is far longer than any of them
// takes on a loaded machine and shorter than what the code under test
// would take when broken (the slow scripted replies take over a minute),
// so it measures no speed.
const hangGuard = 30 * time.Second

// read returns the next line, failing after hangGuard.
func (c *client) read() map[string]any {
	c.t.Helper()
	select {
	case m, ok := <-c.lines:
		if !ok {
			c.t.Fatalf("the server closed stdout; lines so far:\n%s", strings.Join(c.log, "\n"))
		}
		b, _ := json.Marshal(m)
		c.log = append(c.log, string(b))
		return m
	case <-time.After(hangGuard):
		c.t.Fatalf("no line within %v; lines so far:\n%s", hangGuard, strings.Join(c.log, "\n"))
	}
	return nil
}

// until reads lines until f returns true for one, returning it; events seen
// on the way are appended to seen.
func (c *client) until(seen *[]string, f func(m map[string]any) bool) map[string]any {
	c.t.Helper()
	// A response passed over while waiting for something else is kept: the
	// server may answer two requests in either order (a sign-in's answer
	// and the request it unblocked), and each ID is answered once.
	for i, m := range c.responses {
		if f(m) {
			c.responses = append(c.responses[:i:i], c.responses[i+1:]...)
			return m
		}
	}
	for {
		m := c.read()
		if _, isResponse := m["id"]; isResponse && !f(m) {
			c.responses = append(c.responses, m)
			continue
		}
		if ev, ok := m["event"].(map[string]any); ok && seen != nil {
			typ, _ := ev["type"].(string)
			if st, _ := ev["status"].(string); st != "" && (typ == "tool.finished" || typ == "turn.finished") {
				typ += ":" + st
			}
			if len(*seen) == 0 || (*seen)[len(*seen)-1] != typ {
				*seen = append(*seen, typ)
			}
		}
		if f(m) {
			return m
		}
	}
}

func response(id float64) func(m map[string]any) bool {
	return func(m map[string]any) bool { v, ok := m["id"].(float64); return ok && v == id }
}

func eventType(typ string) func(m map[string]any) bool {
	return func(m map[string]any) bool {
		ev, ok := m["event"].(map[string]any)
		return ok && ev["type"] == typ
	}
}

func field(m map[string]any, path ...string) any {
	var v any = m
	for _, p := range path {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mm[p]
	}
	return v
}

// docs/stdio-protocol.md: the real binary speaks the JSON-lines protocol: a whole turn
// with an approval, bad lines answered with errors, turn.cancel, and
// session.close.
func TestServeStdioProtocol(t *testing.T) {
	srv := modeltest.NewOpenAI(t,
		modeltest.Reply{Text: "Let me look.", ToolCalls: []model.ToolCall{{ID: "c1", Name: "device__system_info_get", Arguments: `{}`}}},
		modeltest.Reply{Text: "Your system is fine."},
		modeltest.Reply{Text: strings.Repeat("a very slow answer ", 50), Delay: 300 * time.Millisecond},
	)
	db := filepath.Join(t.TempDir(), "journal.db")
	c, cmd := startServe(t, srv.URL, db)

	id := c.send("session.open", map[string]any{"coworker": "sysinfo"})
	open := c.until(nil, response(id))
	sid, _ := field(open, "result", "session_id").(string)
	if !strings.HasPrefix(sid, "ses_") || !strings.HasPrefix(fmt.Sprint(field(open, "result", "identity")), "sha256:") {
		t.Fatalf("session.open = %v", open)
	}

	var seen []string
	turnID := c.send("turn.send", map[string]any{"session_id": sid, "text": "How is my system?"})
	appr := c.until(&seen, eventType("approval.required"))
	aid, _ := field(appr, "event", "approval_id").(string)
	if aid == "" || field(appr, "event", "request", "tool") != "device.system_info_get" {
		t.Fatalf("approval.required = %v", appr)
	}
	rid := c.send("approval.respond", map[string]any{"approval_id": aid, "decision": "allow_once"})
	res := c.until(&seen, func(m map[string]any) bool { return response(rid)(m) || response(turnID)(m) })
	if field(res, "result", "decision") != "allow_once" {
		t.Fatalf("approval.respond = %v", res)
	}
	res = c.until(&seen, response(turnID))
	if field(res, "result", "status") != "completed" || field(res, "result", "text") != "Your system is fine." {
		t.Fatalf("turn.send = %v", res)
	}
	// The device tool may report progress; that event is optional here.
	got := strings.ReplaceAll(strings.Join(seen, " "), " tool.progress", "")
	want := "turn.started assistant.delta assistant.message tool.proposed approval.required approval.decided tool.started tool.finished:succeeded assistant.delta assistant.message turn.finished:completed"
	if got != want {
		t.Fatalf("events:\n got %s\nwant %s", got, want)
	}

	// Bad lines get error responses and the server keeps working.
	c.sendRaw("this is not json")
	if m := c.read(); field(m, "error", "code") != "bad_request" || m["id"] != nil {
		t.Fatalf("not JSON: %v", m)
	}
	bad := c.send("session.explode", map[string]any{})
	if m := c.until(nil, response(bad)); field(m, "error", "code") != "bad_request" || !strings.Contains(fmt.Sprint(field(m, "error", "message")), "unknown method") {
		t.Fatalf("unknown method: %v", m)
	}
	bad = c.send("turn.send", map[string]any{"session_id": "ses_nope", "text": "hi"})
	if m := c.until(nil, response(bad)); field(m, "error", "code") != "not_found" {
		t.Fatalf("unknown session: %v", m)
	}
	bad = c.send("approval.respond", map[string]any{"approval_id": aid, "decision": "allow_once"})
	if m := c.until(nil, response(bad)); field(m, "error", "code") != "not_found" || !strings.Contains(fmt.Sprint(field(m, "error", "message")), "already answered") {
		t.Fatalf("answered approval: %v", m)
	}

	// turn.cancel during a slow streamed reply.
	seen = nil
	turnID = c.send("turn.send", map[string]any{"session_id": sid, "text": "Tell me a long story."})
	c.until(&seen, eventType("assistant.delta"))
	cid := c.send("turn.cancel", map[string]any{"session_id": sid})
	if m := c.until(&seen, response(cid)); field(m, "result", "cancelled") != true {
		t.Fatalf("turn.cancel = %v", m)
	}
	if m := c.until(&seen, response(turnID)); field(m, "result", "status") != "cancelled" {
		t.Fatalf("cancelled turn.send = %v", m)
	}

	closeID := c.send("session.close", map[string]any{"session_id": sid})
	if m := c.until(nil, response(closeID)); field(m, "result", "closed") != true {
		t.Fatalf("session.close = %v", m)
	}
	c.in.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve exited with %v after stdin closed", err)
		}
	case <-time.After(hangGuard):
		t.Fatalf("serve did not exit within %v of stdin closing", hangGuard)
	}

	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	d, err := j.Detail(context.Background(), sid)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Turns) != 2 || d.Turns[0].Status != "completed" || d.Turns[1].Status != "cancelled" || d.Session.Status != "closed" {
		t.Fatalf("journal: session %s, turns %+v", d.Session.Status, d.Turns)
	}
	if len(d.Approvals) != 1 || d.Approvals[0].Decision != "allow_once" || d.Approvals[0].Source != "prompt" {
		t.Fatalf("journal approvals = %+v", d.Approvals)
	}
	// The approval was an inbox item, answered once by approval.respond
	// and taken by the waiting prompt (docs/inbox.md).
	it, err := j.InboxItem(context.Background(), aid)
	if err != nil || it.Kind != journal.InboxApproval || it.Status != journal.InboxConsumed || it.AnsweredBy != "stdio" ||
		string(it.Answer) != `"allow_once"` || it.SessionID != sid || it.Tool != "device.system_info_get" {
		t.Fatalf("inbox item %s = %+v, %v", aid, it, err)
	}
}

// Ctrl-C during `openworker run` cancels the stream: exit 1 with
// "cancelled", and the journal shows the turn cancelled.
func TestRunInterrupted(t *testing.T) {
	srv := modeltest.NewOpenAI(t, modeltest.Reply{Text: strings.Repeat("slow ", 200), Delay: 200 * time.Millisecond})
	db := filepath.Join(t.TempDir(), "journal.db")
	cmd := exec.Command(binary, "run", "--coworkers", writeCoworker(t), "--coworker", "sysinfo", "--db", db,
		"--base-url", srv.URL, "--model", "test", "--approve", "bypass", "Tell me everything.")
	cmd.Env = binEnv(t)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	interruptible(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	if _, err := io.ReadAtLeast(stdout, buf, 1); err != nil {
		t.Fatalf("no assistant text: %v; stderr: %s", err, stderr.String())
	}
	if err := interrupt(cmd); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal(err)
	}
	go io.Copy(io.Discard, stdout)
	// The reply would take 67 s (334 chunks 200 ms apart): a run that
	// ends within hangGuard of SIGINT did not wait for it.
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err = <-exited:
	case <-time.After(hangGuard):
		cmd.Process.Kill()
		<-exited
		t.Fatalf("run did not stop within %v of SIGINT; stderr: %s", hangGuard, stderr.String())
	}
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "cancelled") {
		t.Fatalf("run after SIGINT: %v; stderr %q; want exit 1 saying cancelled", err, stderr.String())
	}
	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	ss, err := j.Sessions(context.Background(), 1)
	if err != nil || len(ss) != 1 {
		t.Fatalf("sessions = %+v, %v", ss, err)
	}
	turns, err := j.Turns(context.Background(), ss[0].ID)
	if err != nil || len(turns) != 1 || turns[0].Status != "cancelled" {
		t.Fatalf("turns = %+v, %v; want one cancelled turn", turns, err)
	}
}
