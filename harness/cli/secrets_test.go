package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/mcp/mcptest"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// secretServerEnv makes this test binary serve mcptest.SecretServer over
// stdio (TestMain), with its secret from mcptest.SecretEnv.
const secretServerEnv = "OW_CLI_TEST_SECRET_SERVER"

func serveSecret() int {
	if err := mcptest.ServeSecret(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "secret server:", err)
		return 1
	}
	return 0
}

// cliSecret is MY_TOKEN: the servers.json entry passes it to the server as
// ${MY_TOKEN}, which makes it a secret of the provider (docs/servers.md).
// The echo tool returns it split in two: each half must vanish as well.
const cliSecret = "owtok-7Qp2Xv9LmZ4r8KsT"

// leaked names where the secret, or either half of it, appears in b.
func leaked(where string, b []byte) []string {
	half := len(cliSecret) / 2
	var out []string
	for _, p := range []string{cliSecret, cliSecret[:half], cliSecret[half:]} {
		if bytes.Contains(b, []byte(p)) {
			out = append(out, fmt.Sprintf("%s holds %q", where, p))
		}
	}
	return out
}

// lockedBuffer collects a child's output while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return bytes.Clone(l.b.Bytes())
}

// Issue 11, build item 5: a real server (mcptest.SecretServer, this test
// binary as a child process) gets MY_TOKEN through servers.json and echoes
// it into its serverInfo (name, title, version, description, website), its
// instructions, its tools' names, titles, descriptions, schemas and
// annotations, progress, stderr and results, where it splits it across
// two adjacent text blocks. Through the real binary — `check --json`,
// `run` and `serve --stdio` (session.open, a turn with an approval) with a
// scripted model on 127.0.0.1 — neither the secret nor either half of it
// appears in their output, in any request the model received, or in the
// bytes of the journal's SQLite files (docs/mcp.md#secrets).
func TestSecretsNeverLeaveTheProvider(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	servers := filepath.Join(dir, "servers.json")
	entry, _ := json.MarshalIndent(map[string]any{"servers": map[string]any{"echo": map[string]any{"transport": "stdio", "command": exe,
		"env": map[string]string{secretServerEnv: "1", mcptest.SecretEnv: "${MY_TOKEN}", "GORACE": "atexit_sleep_ms=0"}}}}, "", "  ")
	coworkers := filepath.Join(dir, "coworkers")
	cw := filepath.Join(coworkers, "echoer", "coworker")
	if err := os.MkdirAll(cw, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		servers:                          string(entry),
		filepath.Join(cw, "manifest.md"): "---\nid: echoer\nname: Echoer\nversion: 1.0.0\n---\nUse your tools.\n",
		// every tool of the provider, so the one named with the secret is seen too
		filepath.Join(cw, "tools.json"): `{"version":1,"mcp":["echo"]}`,
	} {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(dir, "journal.db")
	env := append(binEnv(t), "MY_TOKEN="+cliSecret, "ANTHROPIC_API_KEY=", "ANTHROPIC_BASE_URL=")
	var leaks []string
	run := func(args ...string) (stdout, stderr []byte) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), runGuard) // it starts the secret server
		defer cancel()
		cmd := exec.CommandContext(ctx, binary, args...)
		cmd.Env = env
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		if err := cmd.Run(); err != nil {
			t.Fatalf("openworker %s = %v\nstdout:\n%s\nstderr:\n%s", args[0], err, o.Bytes(), e.Bytes())
		}
		leaks = append(leaks, leaked(args[0]+" stdout", o.Bytes())...)
		leaks = append(leaks, leaked(args[0]+" stderr", e.Bytes())...)
		return o.Bytes(), e.Bytes()
	}

	// check --json: the tools resolve, the server's version is redacted in
	// each pin, and the tool named with the secret is left out under its
	// redacted name (brackets are no tool name).
	out, _ := run("check", "--coworkers", coworkers, "--servers", servers, "--json")
	var rep struct {
		OK []struct {
			Tools []struct {
				Name string `json:"name"`
				Pin  struct {
					Version string `json:"version"`
				} `json:"pin"`
			} `json:"tools"`
			LeftOut []struct {
				Tool string `json:"tool"`
			} `json:"left_out"`
		} `json:"ok"`
	}
	if err := json.Unmarshal(out, &rep); err != nil || len(rep.OK) != 1 {
		t.Fatalf("check --json = %s (%v)", out, err)
	}
	var resolved []string
	for _, tl := range rep.OK[0].Tools {
		resolved = append(resolved, tl.Name+"@"+tl.Pin.Version)
	}
	if got := strings.Join(resolved, " "); got != "echo.echo@1.0.0+[redacted] echo.echo_structured@1.0.0+[redacted]" {
		t.Errorf("check resolved %s", got)
	}
	if lo := rep.OK[0].LeftOut; len(lo) != 1 || lo[0].Tool != "echo.get_[redacted]" {
		t.Errorf("check left out %+v, want echo.get_[redacted]", lo)
	}

	// run: the model is offered the tools and reads their results, redacted.
	m := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "echo__echo", Arguments: `{}`}, {ID: "c2", Name: "echo__echo_structured", Arguments: `{}`}}},
		modeltest.Reply{Text: "Echoed."},
	)
	run("run", "--coworkers", coworkers, "--coworker", "echoer", "--servers", servers, "--db", db,
		"--base-url", m.URL, "--model", "test", "--approve", "bypass", "Echo the token.")
	reqs := m.Requests()
	if len(reqs) != 2 {
		t.Fatalf("the model got %d requests, want 2", len(reqs))
	}
	var offered []string
	for _, tl := range reqs[0].Tools {
		offered = append(offered, tl.Name+": "+tl.Description)
	}
	if got := strings.Join(offered, "; "); got != "echo__echo: Echoes the token [redacted].; echo__echo_structured: Returns the token [redacted] as structured content." {
		t.Errorf("the model was offered %s", got)
	}
	results := reqs[1].ToolResults()
	if len(results) != 2 || results[0].Text != "the token is [redacted]\n[redacted], keep it safe" || results[1].Text != `{"token":"[redacted]"}` {
		t.Errorf("the model read %+v", results)
	}
	for i, r := range reqs {
		leaks = append(leaks, leaked(fmt.Sprintf("model request %d", i), r.Body)...)
	}

	// serve --stdio: session.open, then a turn whose call is approved
	// through the protocol, as the app's UI does.
	m = modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "echo__echo", Arguments: `{}`}}},
		modeltest.Reply{Text: "Echoed again."},
	)
	var proto, serveErr lockedBuffer
	c, cmd := startServeWith(t, env, &proto, &serveErr, "--coworkers", coworkers, "--servers", servers, "--db", db,
		"--base-url", m.URL, "--model", "test", "--approve", "ask")
	open := c.until(nil, response(c.send("session.open", map[string]any{"coworker": "echoer"})))
	sid, _ := field(open, "result", "session_id").(string)
	tools, _ := field(open, "result", "tools").([]any)
	if sid == "" || len(tools) != 2 || field(tools[0].(map[string]any), "pin", "version") != "1.0.0+[redacted]" {
		t.Fatalf("session.open = %v", open)
	}
	turn := c.send("turn.send", map[string]any{"session_id": sid, "text": "Echo the token."})
	appr := c.until(nil, eventType("approval.required"))
	if d := field(appr, "event", "request", "description"); d != "Echoes the token [redacted]." {
		t.Errorf("the approval request describes the tool as %v", d)
	}
	c.send("approval.respond", map[string]any{"approval_id": field(appr, "event", "approval_id"), "decision": "allow_once"})
	fin := c.until(nil, eventType("tool.finished"))
	if text := field(fin, "event", "text"); text != "the token is [redacted]\n[redacted], keep it safe" {
		t.Errorf("tool.finished text = %v", text)
	}
	if res := c.until(nil, response(turn)); field(res, "result", "status") != "completed" {
		t.Fatalf("turn.send = %v", res)
	}
	c.until(nil, response(c.send("session.close", map[string]any{"session_id": sid})))
	c.in.Close()
	deadline := time.After(hangGuard)
	for open := true; open; { // stdout to its end, then wait
		select {
		case _, open = <-c.lines:
		case <-deadline:
			t.Fatalf("serve did not end its output within %v of stdin closing", hangGuard)
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve = %v\nstderr:\n%s", err, serveErr.Bytes())
	}
	leaks = append(leaks, leaked("serve's protocol output", proto.Bytes())...)
	leaks = append(leaks, leaked("serve's stderr", serveErr.Bytes())...)
	for i, r := range m.Requests() {
		leaks = append(leaks, leaked(fmt.Sprintf("serve's model request %d", i), r.Body)...)
	}

	// The journal's files, byte for byte: the database and, when there,
	// its write-ahead log and shared memory. It did keep the results.
	var journaled []byte
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		b, err := os.ReadFile(db + suffix)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		leaks = append(leaks, leaked("journal file "+filepath.Base(db+suffix), b)...)
		journaled = append(journaled, b...)
	}
	if !bytes.Contains(journaled, []byte("the token is [redacted]")) || !bytes.Contains(journaled, []byte("1.0.0+[redacted]")) {
		t.Errorf("the journal files hold no redacted result or identity: is the journal where the test looks (%s)?", db)
	}
	if len(leaks) > 0 {
		t.Errorf("the secret leaked:\n%s", strings.Join(leaks, "\n"))
	}
}
