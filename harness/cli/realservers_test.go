//go:build unix

package cli_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/internal/npmtest"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// Real MCP servers through the real binary (issue 10, "Real parts in the
// tests"): each test writes a coworker bundle and a servers.json naming a
// real server, runs `openworker check` (the bundle is ok) and `openworker
// run` with a scripted model on 127.0.0.1 whose replies call real tools,
// then asserts on the result text the model received and on the journal's
// invocation rows in the real SQLite file.
//
// The npm servers (@modelcontextprotocol/server-memory, server-filesystem,
// server-everything) are pinned in harness/mcp/testdata/npm and found and
// run through harness/internal/npmtest: without node or the installed
// servers these tests skip, unless the environment variable CI is set
// (there they fail), and they skip with -short. The mcp-go server is this
// test binary itself (mcpgo_server_test.go). The tests share nothing (each
// has its folders, journal, model and servers) and run in parallel.

// realSetup is one coworker and the servers.json it runs with.
type realSetup struct {
	coworkers string // the bundles folder
	servers   string // the servers.json file
	id        string // the coworker
	tools     []string
}

// newSetup writes servers (namespace → entry) as servers.json and a bundle
// id selecting tools (tools.json v3). Each policy line ("TOOL: allow") goes
// into the manifest's policy.
func newSetup(t *testing.T, id string, servers map[string]any, policy []string, tools ...string) realSetup {
	t.Helper()
	dir := t.TempDir()
	s := realSetup{coworkers: filepath.Join(dir, "coworkers"), servers: filepath.Join(dir, "servers.json"), id: id, tools: tools}
	raw, err := json.MarshalIndent(map[string]any{"servers": servers}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.servers, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	cw := filepath.Join(s.coworkers, id, "coworker")
	if err := os.MkdirAll(cw, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := "---\nid: " + id + "\nname: " + id + " coworker\nversion: 1.0.0\n"
	if len(policy) > 0 {
		manifest += "policy:\n  " + strings.Join(policy, "\n  ") + "\n"
	}
	manifest += "---\nUse your tools to answer.\n"
	sel, _ := json.Marshal(map[string]any{"version": 3, "tools": tools})
	if err := os.WriteFile(filepath.Join(cw, "manifest.md"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cw, "tools.json"), sel, 0o644); err != nil {
		t.Fatal(err)
	}
	return s
}

// command is the binary with args, killed if it outlives runGuard (it
// starts node servers).
func command(t *testing.T, args ...string) *exec.Cmd {
	ctx, cancel := context.WithTimeout(context.Background(), runGuard)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = append(binEnv(t), "ANTHROPIC_API_KEY=", "ANTHROPIC_BASE_URL=")
	return cmd
}

// check runs `openworker check` of the setup: exit 0, the coworker ok and
// every selected tool resolved to its MCP provider.
func (s realSetup) check(t *testing.T) {
	t.Helper()
	var stderr strings.Builder
	cmd := command(t, "check", "--coworkers", s.coworkers, "--servers", s.servers)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("check = %v\nstdout:\n%s\nstderr:\n%s", err, out, stderr.String())
	}
	if !strings.Contains(string(out), "ok      "+s.id+" (") {
		t.Errorf("check printed:\n%s\nwant %s ok", out, s.id)
	}
	for _, name := range s.tools {
		ns, remote, _ := strings.Cut(name, ".")
		line := regexp.MustCompile(`(?m)^ +` + regexp.QuoteMeta(name) + ` +→ mcp:` + ns + ` +` + regexp.QuoteMeta(remote) + ` \(alias `)
		if !line.Match(out) {
			t.Errorf("check printed:\n%s\nwant %s resolved to mcp:%s %s", out, name, ns, remote)
		}
	}
}

// runResult is what one `openworker run` left behind.
type runResult struct {
	model          *modeltest.Server
	stdout, stderr string
	session        journal.SessionDetail
	db             string // the journal file
}

// run runs one turn of the setup's coworker with prompt against a scripted
// model speaking kind that serves replies, with extra flags (for example
// --approve bypass). The run must exit 0 and use every reply; its journal
// must verify. It returns the model's recorded requests and the journaled
// session.
func (s realSetup) run(t *testing.T, kind modeltest.Kind, flags []string, prompt string, replies ...modeltest.Reply) runResult {
	t.Helper()
	var r runResult
	provider := "openai"
	if kind == modeltest.Anthropic {
		r.model, provider = modeltest.NewAnthropic(t, replies...), "anthropic"
	} else {
		r.model = modeltest.NewOpenAI(t, replies...)
	}
	db := filepath.Join(t.TempDir(), "journal.db")
	r.db = db
	args := append([]string{"run", "--coworkers", s.coworkers, "--coworker", s.id, "--servers", s.servers, "--db", db,
		"--provider", provider, "--base-url", r.model.URL, "--model", "test"}, flags...)
	cmd := command(t, append(args, prompt)...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r.stdout, r.stderr = stdout.String(), stderr.String()
	if err != nil {
		t.Fatalf("run = %v\nstdout:\n%s\nstderr:\n%s", err, r.stdout, r.stderr)
	}
	if n := r.model.Remaining(); n != 0 || len(r.model.Requests()) != len(replies) {
		t.Fatalf("the model got %d requests with %d of %d replies unused; stderr:\n%s", len(r.model.Requests()), n, len(replies), r.stderr)
	}
	if out, err := command(t, "journal", "verify", "--db", db).CombinedOutput(); err != nil {
		t.Fatalf("journal verify = %v: %s", err, out)
	}
	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	ss, err := j.Sessions(context.Background(), 2)
	if err != nil || len(ss) != 1 {
		t.Fatalf("journaled sessions = %+v, %v; want one", ss, err)
	}
	if r.session, err = j.Detail(context.Background(), ss[0].ID); err != nil {
		t.Fatal(err)
	}
	if len(r.session.Turns) != 1 || r.session.Turns[0].Status != "completed" {
		t.Fatalf("journaled turns = %+v; want one completed", r.session.Turns)
	}
	return r
}

// results returns the tool results the model received in request n.
func (r runResult) results(t *testing.T, n int) []modeltest.RecordedToolResult {
	t.Helper()
	reqs := r.model.Requests()
	if n >= len(reqs) {
		t.Fatalf("the model got %d requests, want at least %d", len(reqs), n+1)
	}
	return reqs[n].ToolResults()
}

// invocation returns the one journaled invocation of tool, with its result
// text: "text" of the journaled result JSON, or "structured" when there is
// no text.
func (r runResult) invocation(t *testing.T, tool string) (journal.Invocation, string) {
	t.Helper()
	var found []journal.Invocation
	for _, inv := range r.session.Invocations {
		if inv.Tool == tool {
			found = append(found, inv)
		}
	}
	if len(found) != 1 {
		t.Fatalf("journal has %d invocations of %s, want 1: %+v", len(found), tool, r.session.Invocations)
	}
	var res struct {
		Structured json.RawMessage `json:"structured"`
		Text       string          `json:"text"`
	}
	if len(found[0].Result) > 0 {
		if err := json.Unmarshal(found[0].Result, &res); err != nil {
			t.Fatalf("journaled result of %s = %s: %v", tool, found[0].Result, err)
		}
	}
	if res.Text == "" {
		return found[0], string(res.Structured)
	}
	return found[0], res.Text
}

// succeeded checks that tool is journaled succeeded with a result holding
// every want, as the model saw it (seen), and returns the journaled text.
func (r runResult) succeeded(t *testing.T, tool, seen string, want ...string) {
	t.Helper()
	inv, text := r.invocation(t, tool)
	if inv.Status != journal.InvocationStatus("succeeded") || inv.Error != "" {
		t.Errorf("%s journaled %s (%s: %s), want succeeded", tool, inv.Status, inv.ErrorCode, inv.Error)
	}
	for _, w := range want {
		if !strings.Contains(seen, w) {
			t.Errorf("the model saw the %s result %q, want it to contain %q", tool, seen, w)
		}
		if !strings.Contains(text, w) {
			t.Errorf("the journaled %s result %s lacks %q", tool, inv.Result, w)
		}
	}
}

// approvedBy checks every journaled approval came from source.
func (r runResult) approvedBy(t *testing.T, source string) {
	t.Helper()
	if len(r.session.Approvals) != len(r.session.Invocations) {
		t.Errorf("%d approvals for %d invocations", len(r.session.Approvals), len(r.session.Invocations))
	}
	for _, a := range r.session.Approvals {
		if a.Decision != "allow_once" || a.Source != source {
			t.Errorf("approval of %s = %s by %s, want allow_once by %s", a.Tool, a.Decision, a.Source, source)
		}
	}
}

func call(id, name, args string) model.ToolCall {
	return model.ToolCall{ID: id, Name: name, Arguments: args}
}

// TestRealServerMemory: @modelcontextprotocol/server-memory over stdio
// creates an entity in its real file and reads the graph back; the
// manifest's policy approves both calls.
func TestRealServerMemory(t *testing.T) {
	t.Parallel()
	node, entry := npmtest.Server(t, "server-memory")
	graph := filepath.Join(t.TempDir(), "memory.jsonl")
	s := newSetup(t, "archivist", map[string]any{
		"memory": map[string]any{"transport": "stdio", "command": node, "args": []string{entry},
			"env": map[string]string{"MEMORY_FILE_PATH": graph}},
	}, []string{"memory.create_entities: allow", "memory.read_graph: allow"}, "memory.create_entities", "memory.read_graph")
	s.check(t)

	r := s.run(t, modeltest.OpenAI, nil, "Remember Ada Lovelace.",
		modeltest.Reply{ToolCalls: []model.ToolCall{call("c1", "memory__create_entities",
			`{"entities":[{"name":"Ada Lovelace","entityType":"person","observations":["wrote the first program"]}]}`)}},
		modeltest.Reply{ToolCalls: []model.ToolCall{call("c2", "memory__read_graph", `{}`)}},
		modeltest.Reply{Text: "Ada Lovelace is in the graph."},
	)
	created, read := r.results(t, 1), r.results(t, 2)
	if len(created) != 1 || len(read) != 2 {
		t.Fatalf("tool results: %d, then %d; want 1, then 2", len(created), len(read))
	}
	// create_entities answers with the entities as text (and as
	// structuredContent), read_graph with the graph; either is JSON.
	for tool, seen := range map[string]string{"memory.create_entities": created[0].Text, "memory.read_graph": read[1].Text} {
		inv, journaled := r.invocation(t, tool)
		if inv.Status != "succeeded" {
			t.Errorf("%s journaled %s (%s: %s), want succeeded", tool, inv.Status, inv.ErrorCode, inv.Error)
		}
		if !holdsAda(seen) {
			t.Errorf("the model saw the %s result %q, want Ada Lovelace, a person who wrote the first program", tool, seen)
		}
		if !holdsAda(journaled) {
			t.Errorf("the journaled %s result %s lacks Ada Lovelace", tool, inv.Result)
		}
	}
	r.approvedBy(t, "policy:manifest")
	if !strings.Contains(r.stdout, "Ada Lovelace is in the graph.") {
		t.Errorf("run printed %q, want the model's last reply", r.stdout)
	}
	if stored, err := os.ReadFile(graph); err != nil || !strings.Contains(string(stored), `"name":"Ada Lovelace"`) {
		t.Errorf("the server's graph file = %q, %v; want the entity stored", stored, err)
	}
}

// holdsAda reports whether text is server-memory's JSON of a graph (an
// object with entities) or of entities (an array) holding Ada Lovelace as
// a person with the observation "wrote the first program".
func holdsAda(text string) bool {
	type entity struct {
		Name         string   `json:"name"`
		EntityType   string   `json:"entityType"`
		Observations []string `json:"observations"`
	}
	var graph struct {
		Entities []entity `json:"entities"`
	}
	if json.Unmarshal([]byte(text), &graph) != nil && json.Unmarshal([]byte(text), &graph.Entities) != nil {
		return false
	}
	for _, e := range graph.Entities {
		if e.Name == "Ada Lovelace" && e.EntityType == "person" && len(e.Observations) == 1 && e.Observations[0] == "wrote the first program" {
			return true
		}
	}
	return false
}

// TestRealServerFilesystem: @modelcontextprotocol/server-filesystem over
// stdio, given a temporary folder as its allowed root, lists it and reads a
// file in it; a read outside the root is the server's error result, and
// the turn goes on.
func TestRealServerFilesystem(t *testing.T) {
	t.Parallel()
	node, entry := npmtest.Server(t, "server-filesystem")
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "notes.txt"), []byte("the meeting is at 10:00\n"), 0o644)
	os.Mkdir(filepath.Join(root, "drafts"), 0o755)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(outside, []byte("not for the model\n"), 0o644)

	s := newSetup(t, "clerk", map[string]any{
		"filesystem": map[string]any{"transport": "stdio", "command": node, "args": []string{entry, root}},
	}, nil, "filesystem.list_directory", "filesystem.read_text_file")
	s.check(t)

	args := func(path string) string { b, _ := json.Marshal(map[string]string{"path": path}); return string(b) }
	r := s.run(t, modeltest.Anthropic, []string{"--approve", "bypass"}, "When is the meeting?",
		modeltest.Reply{ToolCalls: []model.ToolCall{
			call("c1", "filesystem__list_directory", args(root)),
			call("c2", "filesystem__read_text_file", args(filepath.Join(root, "notes.txt"))),
			call("c3", "filesystem__read_text_file", args(outside)),
		}},
		modeltest.Reply{Text: "The meeting is at 10:00."},
	)
	res := r.results(t, 1)
	if len(res) != 3 || res[0].IsError || res[1].IsError || !res[2].IsError {
		t.Fatalf("tool results = %+v; want two results, then an error", res)
	}
	r.succeeded(t, "filesystem.list_directory", res[0].Text, "[FILE] notes.txt", "[DIR] drafts")
	var reads []journal.Invocation
	for _, inv := range r.session.Invocations {
		if inv.Tool == "filesystem.read_text_file" {
			reads = append(reads, inv)
		}
	}
	if len(reads) != 2 || reads[0].Status != "succeeded" || !strings.Contains(string(reads[0].Result), "the meeting is at 10:00") ||
		!strings.Contains(res[1].Text, "the meeting is at 10:00") {
		t.Errorf("read_text_file journaled %+v, the model saw %q; want the file's text", reads, res[1].Text)
	}
	if len(reads) == 2 && (reads[1].Status != "failed" || reads[1].ErrorCode != "mcp_error" || !strings.Contains(reads[1].Error, "outside allowed directories")) {
		t.Errorf("read outside the root journaled %s (%s: %s), want failed: outside allowed directories", reads[1].Status, reads[1].ErrorCode, reads[1].Error)
	}
	if !strings.Contains(res[2].Text, "outside allowed directories") || strings.Contains(res[2].Text, "not for the model") {
		t.Errorf("the model saw %q for the read outside the root, want the server's refusal", res[2].Text)
	}
	r.approvedBy(t, "bypass")
	if !strings.Contains(r.stdout, "The meeting is at 10:00.") {
		t.Errorf("run printed %q, want the model's last reply", r.stdout)
	}
}

// TestRealServerEverything: @modelcontextprotocol/server-everything over
// stdio and over streamable HTTP (started here on 127.0.0.1): echo and
// get-sum through a run.
func TestRealServerEverything(t *testing.T) {
	t.Parallel()
	node, entry := npmtest.Server(t, "server-everything")
	for _, transport := range []string{"stdio", "streamable_http"} {
		t.Run(transport, func(t *testing.T) {
			srv := map[string]any{"transport": "stdio", "command": node, "args": []string{entry, "stdio"}}
			if transport == "streamable_http" {
				srv = map[string]any{"transport": "streamable_http", "url": npmtest.StartEverything(t, "streamableHttp").URL("/mcp")}
			}
			s := newSetup(t, "helper", map[string]any{"everything": srv}, nil, "everything.echo", "everything.get-sum")
			s.check(t)
			r := s.run(t, modeltest.OpenAI, []string{"--approve", "bypass"}, "Echo and add.",
				modeltest.Reply{ToolCalls: []model.ToolCall{
					call("c1", "everything__echo", `{"message":"hello from openworker"}`),
					call("c2", "everything__get-sum", `{"a":19,"b":23}`),
				}},
				modeltest.Reply{Text: "19 + 23 = 42."},
			)
			res := r.results(t, 1)
			if len(res) != 2 {
				t.Fatalf("tool results = %+v, want 2", res)
			}
			if res[0].Text != "Echo: hello from openworker" {
				t.Errorf("the model saw the echo %q, want exactly \"Echo: hello from openworker\"", res[0].Text)
			}
			r.succeeded(t, "everything.echo", res[0].Text, "Echo: hello from openworker")
			r.succeeded(t, "everything.get-sum", res[1].Text, "is 42")
			r.approvedBy(t, "bypass")
			if !strings.Contains(r.stdout, "19 + 23 = 42.") {
				t.Errorf("run printed %q, want the model's last reply", r.stdout)
			}
		})
	}
}

// TestRealServerMCPGoHandlerError: a server built with mark3labs/mcp-go
// whose handler returns an error (`return nil, err`, a JSON-RPC error
// answer). The invocation is failed with the server's message, the model
// gets it as an error result next to the other call's result, and the
// turn goes on to the model's next reply (issue 10, item 1).
func TestRealServerMCPGoHandlerError(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s := newSetup(t, "bookkeeper", map[string]any{
		// GORACE: a -race child otherwise sleeps 1 s at exit.
		"ledger": map[string]any{"transport": "stdio", "command": exe,
			"env": map[string]string{mcpgoEnv: "1", "GORACE": "atexit_sleep_ms=0"}},
	}, nil, "ledger.find_order", "ledger.order_count")
	s.check(t)

	r := s.run(t, modeltest.Anthropic, []string{"--approve", "bypass"}, "Where is order B-7?",
		modeltest.Reply{ToolCalls: []model.ToolCall{
			call("c1", "ledger__find_order", `{"number":"B-7"}`),
			call("c2", "ledger__order_count", `{}`),
		}},
		modeltest.Reply{Text: "Order B-7 is not in the ledger, which holds 3 orders."},
	)
	res := r.results(t, 1)
	if len(res) != 2 {
		t.Fatalf("tool results = %+v, want 2", res)
	}
	const msg = `no order "B-7" in the ledger`
	if !res[0].IsError || !strings.Contains(res[0].Text, msg) || strings.Contains(res[0].Text, "error: error") {
		t.Errorf("the model saw find_order as %+v; want an error result with %q, said once", res[0], msg)
	}
	inv, _ := r.invocation(t, "ledger.find_order")
	if inv.Status != "failed" || inv.ErrorCode != "mcp_error" || !strings.Contains(inv.Error, msg) {
		t.Errorf("find_order journaled %s (%s: %s), want failed: mcp_error with the server's message", inv.Status, inv.ErrorCode, inv.Error)
	}
	if res[1].IsError {
		t.Errorf("order_count = %+v, want a result", res[1])
	}
	r.succeeded(t, "ledger.order_count", res[1].Text, "the ledger holds 3 orders")
	r.approvedBy(t, "bypass")
	if !strings.Contains(r.stdout, "Order B-7 is not in the ledger, which holds 3 orders.") {
		t.Errorf("run printed %q, want the model's next reply", r.stdout)
	}
}

// TestRealServerEverythingElicitationWithoutTerminal: server-everything's
// trigger-elicitation-request through `openworker run` with no terminal
// (the call allowed by the manifest's policy): the question is declined,
// stderr says so, the server reports the decline, and the journal keeps
// the question's fields and the decline.
func TestRealServerEverythingElicitationWithoutTerminal(t *testing.T) {
	t.Parallel()
	node, entry := npmtest.Server(t, "server-everything")
	s := newSetup(t, "helper", map[string]any{"everything": map[string]any{"transport": "stdio", "command": node, "args": []string{entry, "stdio"}}},
		[]string{"everything.trigger-elicitation-request: allow"}, "everything.trigger-elicitation-request")
	r := s.run(t, modeltest.OpenAI, []string{"--approve", "ask"}, "Ask me.",
		modeltest.Reply{ToolCalls: []model.ToolCall{call("c1", "everything__trigger-elicitation-request", `{}`)}},
		modeltest.Reply{Text: "You declined."},
	)
	if !strings.Contains(r.stderr, "everything (mcp-servers/everything) asked a question during everything.trigger-elicitation-request; declined: there is no terminal to ask on") {
		t.Errorf("stderr does not say the question was declined:\n%s", r.stderr)
	}
	inv, text := r.invocation(t, "everything.trigger-elicitation-request")
	if !strings.Contains(text, "User declined") {
		t.Errorf("the server's result = %q; want the decline", text)
	}
	j, err := journal.Open(r.db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	es, err := j.Elicitations(context.Background(), inv.ID)
	if err != nil || len(es) != 1 || es[0].Action != "decline" || es[0].Source != journal.ElicitByNoOne || len(es[0].Fields) != 13 {
		t.Errorf("journaled elicitations = %+v, %v; want one decline for want of a terminal", es, err)
	}
}

// TestRealServerEverythingProgress: server-everything's long-running
// operation sends progress without a message; `run` prints each step as
// "N of M (P%)" on stderr, in order, before the call's result.
func TestRealServerEverythingProgress(t *testing.T) {
	t.Parallel()
	node, entry := npmtest.Server(t, "server-everything")
	s := newSetup(t, "helper", map[string]any{"everything": map[string]any{"transport": "stdio", "command": node, "args": []string{entry, "stdio"}}},
		nil, "everything.trigger-long-running-operation")
	r := s.run(t, modeltest.OpenAI, []string{"--approve", "bypass"}, "Run it.",
		modeltest.Reply{ToolCalls: []model.ToolCall{call("c1", "everything__trigger-long-running-operation", `{"duration":1,"steps":4}`)}},
		modeltest.Reply{Text: "done"},
	)
	want := "  … 1 of 4 (25%)\n  … 2 of 4 (50%)\n  … 3 of 4 (75%)\n  … 4 of 4 (100%)\n✓ everything.trigger-long-running-operation succeeded"
	if !strings.Contains(r.stderr, want) {
		t.Errorf("run's stderr:\n%s\nwant it to hold:\n%s", r.stderr, want)
	}
}
