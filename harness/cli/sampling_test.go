//go:build unix

package cli_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/cli"
	"github.com/openworker/desktop/harness/internal/npmtest"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// runSampling runs `openworker run --approve bypass` in process on
// server-everything's trigger-sampling-request with a coworker that allows
// sampling, stdin script as the terminal (or no terminal), and returns
// stderr and the journal's invocations.
func runSampling(t *testing.T, terminal bool, script string, replies ...modeltest.Reply) (string, []journal.Invocation) {
	t.Helper()
	node, entry := npmtest.Server(t, "server-everything")
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	s := newSetup(t, "helper", map[string]any{"everything": map[string]any{"transport": "stdio", "command": node, "args": []string{entry, "stdio"}}},
		nil, "everything.trigger-sampling-request")
	mpath := filepath.Join(s.coworkers, "helper", "coworker", "manifest.md")
	raw, _ := os.ReadFile(mpath)
	os.WriteFile(mpath, []byte(strings.Replace(string(raw), "version: 1.0.0\n", "version: 1.0.0\nsampling: [everything]\n", 1)), 0o644)
	m := modeltest.NewOpenAI(t, replies...)
	db := filepath.Join(t.TempDir(), "journal.db")
	var out, errOut strings.Builder
	env := func(k string) string { return "" }
	code := cli.Run(context.Background(), tool.NewRegistry(), []string{"run", "--coworkers", s.coworkers, "--coworker", "helper", "--servers", s.servers,
		"--db", db, "--provider", "openai", "--base-url", m.URL, "--model", "test", "--approve", "bypass", "Ask the server."},
		cli.WithIO(strings.NewReader(script), &out, &errOut, env, func() bool { return terminal }))
	if code != 0 {
		t.Fatalf("run = exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	ss, err := j.Sessions(context.Background(), 2)
	if err != nil || len(ss) != 1 {
		t.Fatalf("sessions = %+v, %v", ss, err)
	}
	invs, err := j.Invocations(context.Background(), ss[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	return errOut.String(), invs
}

const samplingArgs = `{"prompt":"What is the capital of France?","maxTokens":50}`

// TestRunSamplingOnTerminal: the sampling request is asked for on the
// terminal even with --approve bypass (it shows the server, the model,
// the token cap, the system prompt and the message; "s" is not an answer
// here); "o" sends it once and the server gets the scripted model's text.
func TestRunSamplingOnTerminal(t *testing.T) {
	stderr, invs := runSampling(t, true, "s\no\n",
		modeltest.Reply{ToolCalls: []model.ToolCall{call("c1", "everything__trigger-sampling-request", samplingArgs)}},
		modeltest.Reply{Text: "Paris."}, modeltest.Reply{Text: "The server heard Paris."})
	for _, want := range []string{"asks your model for a completion during everything.trigger-sampling-request", "model: openai-compatible",
		"max tokens: 50\n", "  system prompt:\n  | You are a helpful test server.", "  user:\n  | Resource trigger-sampling-request context: What is the capital of France?",
		"[o] send once  [d] deny: ", "please answer o or d"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if len(invs) != 2 || invs[0].Tool != "everything.trigger-sampling-request" || !strings.Contains(string(invs[0].Result), "Paris.") ||
		invs[1].Tool != harness.SamplingTool || invs[1].Status != harness.StatusSucceeded || invs[1].CallID != invs[0].ID {
		t.Errorf("invocations = %+v", invs)
	}
}

// TestRunSamplingWithoutTerminal: with no terminal the request is refused
// and the server is told why.
func TestRunSamplingWithoutTerminal(t *testing.T) {
	_, invs := runSampling(t, false, "",
		modeltest.Reply{ToolCalls: []model.ToolCall{call("c1", "everything__trigger-sampling-request", samplingArgs)}},
		modeltest.Reply{Text: "It was refused."})
	if len(invs) != 2 || invs[0].Status == harness.StatusSucceeded || !strings.Contains(invs[0].Error, "no terminal to ask whether everything may use your model") ||
		invs[1].Status != harness.StatusRefused || invs[1].ErrorCode != "denied" {
		t.Errorf("invocations = %+v", invs)
	}
}

// TestServeStdioSampling: docs/stdio-protocol.md#sampling. Through `serve
// --stdio --approve bypass` the call runs unasked, but the sampling
// request arrives as approval.required with request.sampling set; once
// approved, the scripted model's text reaches the server and
// sampling.requested / sampling.finished report it.
func TestServeStdioSampling(t *testing.T) {
	node, entry := npmtest.Server(t, "server-everything")
	s := newSetup(t, "helper", map[string]any{"everything": map[string]any{"transport": "stdio", "command": node, "args": []string{entry, "stdio"}}},
		nil, "everything.trigger-sampling-request")
	mpath := filepath.Join(s.coworkers, "helper", "coworker", "manifest.md")
	raw, _ := os.ReadFile(mpath)
	os.WriteFile(mpath, []byte(strings.Replace(string(raw), "version: 1.0.0\n", "version: 1.0.0\nsampling: [everything]\n", 1)), 0o644)
	m := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{call("c1", "everything__trigger-sampling-request", samplingArgs)}},
		modeltest.Reply{Text: "Paris."}, modeltest.Reply{Text: "The server heard Paris."})
	db := filepath.Join(t.TempDir(), "journal.db")
	c, _ := startServeWith(t, binEnv(t), nil, nil, "--coworkers", s.coworkers, "--servers", s.servers, "--db", db,
		"--base-url", m.URL, "--model", "test", "--approve", "bypass")
	open := c.until(nil, response(c.send("session.open", map[string]any{"coworker": "helper"})))
	sid, _ := field(open, "result", "session_id").(string)
	if sid == "" {
		t.Fatalf("session.open = %v", open)
	}
	var seen []string
	turnID := c.send("turn.send", map[string]any{"session_id": sid, "text": "Ask the server."})
	ev := c.until(&seen, eventType("approval.required"))
	aid, _ := field(ev, "event", "approval_id").(string)
	sr, _ := field(ev, "event", "request", "sampling").(map[string]any)
	msgs, _ := sr["messages"].([]any)
	if sr == nil || sr["namespace"] != "everything" || sr["system_prompt"] != "You are a helpful test server." || sr["max_tokens"] != float64(50) ||
		len(msgs) != 1 || !strings.Contains(msgs[0].(map[string]any)["text"].(string), "What is the capital of France?") || sr["model"] == "" {
		t.Fatalf("approval.required = %v", ev)
	}
	c.until(&seen, response(c.send("approval.respond", map[string]any{"approval_id": aid, "decision": "allow_once"})))
	res := c.until(&seen, response(turnID))
	if field(res, "result", "status") != "completed" {
		t.Fatalf("turn.send = %v", res)
	}
	if got := strings.Join(seen, " "); !strings.Contains(got, "sampling.requested") || !strings.Contains(got, "sampling.finished") {
		t.Errorf("events = %s", got)
	}
	c.until(nil, response(c.send("session.close", map[string]any{"session_id": sid})))
	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	invs, err := j.Invocations(t.Context(), sid)
	if err != nil || len(invs) != 2 || !strings.Contains(string(invs[0].Result), "Paris.") || invs[1].Tool != harness.SamplingTool || invs[1].Status != harness.StatusSucceeded {
		t.Errorf("invocations = %+v, %v", invs, err)
	}
}
