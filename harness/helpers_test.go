package harness_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/a2a"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
	"github.com/openworker/desktop/tools/device"
)

// The test binary re-executes itself as the device MCP server when this
// variable is set, so MCP tests use a real child process.
const serveDeviceEnv = "OPENWORKER_TEST_SERVE_DEVICE"

// pidFileEnv, beside serveDeviceEnv, names a file the device server writes
// its process id to, so a test can watch the process itself.
const pidFileEnv = "OPENWORKER_TEST_PIDFILE"

func TestMain(m *testing.M) {
	if os.Getenv(serveDeviceEnv) == "1" {
		if f := os.Getenv(pidFileEnv); f != "" {
			_ = os.WriteFile(f, []byte(strconv.Itoa(os.Getpid())), 0o644)
		}
		if err := device.ServeStdio(context.Background()); err != nil {
			os.Stderr.WriteString(err.Error())
			os.Exit(1)
		}
		os.Exit(0)
	}
	if os.Getenv(serveMisbehaveEnv) != "" {
		serveMisbehaving() // limits_mcp_test.go; exits
	}
	if k := os.Getenv(serveBigCatalogEnv); k != "" {
		serveBigCatalog(k) // catalog_bounds_test.go; exits
	}
	if os.Getenv(serveNamesEnv) != "" {
		serveNames() // names_test.go; exits
	}
	if os.Getenv(serveResultsEnv) != "" {
		serveResults() // results_test.go; exits
	}
	os.Exit(m.Run())
}

// testTool is a native tool whose behaviour each test sets.
type testTool struct {
	name  string
	risk  tool.Risk
	calls atomic.Int32
	fn    func(ctx context.Context, c *tool.Call, args json.RawMessage) (tool.Output, error)

	mu       sync.Mutex
	revoked  []string
	finished []bool
}

func (t *testTool) Descriptor() tool.Descriptor {
	return tool.Descriptor{
		Name:        t.name,
		Description: "a test tool",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","maxLength":100}},"additionalProperties":false}`),
		Version:     "1.0.0",
		Risk:        t.risk,
	}
}

func (t *testTool) Call(ctx context.Context, c *tool.Call, args json.RawMessage) (tool.Output, error) {
	t.calls.Add(1)
	if t.fn != nil {
		return t.fn(ctx, c, args)
	}
	var in struct{ Text string }
	_ = json.Unmarshal(args, &in)
	return tool.Output{Structured: json.RawMessage(`{"echo":` + mustJSON(in.Text) + `}`)}, nil
}

func (t *testTool) Revoke(sessionID string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.revoked = append(t.revoked, sessionID)
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// writeBundle writes a v3 bundle selecting tools, with optional policy YAML
// lines, into dir/<id>.
func writeBundle(t testing.TB, dir, id string, tools []string, policy string) {
	t.Helper()
	cw := filepath.Join(dir, id, "coworker")
	if err := os.MkdirAll(cw, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := "---\nid: " + id + "\nname: Test " + id + "\ndescription: a test coworker\nversion: 1.0.0\n" + policy + "---\nYou are a test coworker. Use your tools.\n"
	sel, _ := json.Marshal(map[string]any{"version": 3, "tools": tools})
	if err := os.WriteFile(filepath.Join(cw, "manifest.md"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cw, "tools.json"), sel, 0o644); err != nil {
		t.Fatal(err)
	}
}

// env is one runtime over a real journal file and a scripted model.
type env struct {
	t        testing.TB
	rt       *harness.Runtime
	model    *modeltest.Server
	dir      string
	db       string
	bundles  string
	provider model.Provider
	so       harness.SessionOptions // what every session of the env is opened with
	reso     harness.SessionOptions // what a reopened runtime resumes sessions with
	events   []harness.Event
	eventMu  sync.Mutex
}

type envOpts struct {
	tools    []tool.Tool
	device   bool
	selected []string
	policy   string
	mode     consent.Mode
	prompter consent.Prompter
	limits   tool.Limits
	maxCalls int
	// maxAttempts bounds a turn's provider attempts (0: the default).
	maxAttempts int
	replies     []modeltest.Reply
	// servers are MCP providers to register (stdio or streamable HTTP).
	servers []tool.MCPServer
	// agents are A2A agents to register (docs/a2a.md), reached with a2a.
	agents []tool.A2AAgent
	a2a    a2a.Options
	// logger receives the runtime's logs (default discards).
	logger *slog.Logger
	// anthropic serves the scripted model as Anthropic Messages.
	anthropic bool
}

func newEnv(t testing.TB, o envOpts) *env {
	t.Helper()
	reg := tool.NewRegistry()
	for _, tl := range o.tools {
		if err := reg.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	if o.device {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		if err := reg.RegisterMCP(tool.MCPServer{Namespace: "device", Program: exe, Env: map[string]string{serveDeviceEnv: "1"}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, srv := range o.servers {
		if err := reg.RegisterMCP(srv); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range o.agents {
		if err := reg.RegisterA2A(a); err != nil {
			t.Fatal(err)
		}
	}
	e := &env{t: t, dir: t.TempDir()}
	e.db = filepath.Join(e.dir, "journal.db")
	bundles := filepath.Join(e.dir, "coworkers")
	e.bundles = bundles
	writeBundle(t, bundles, "tester", o.selected, o.policy)
	kind := "openai"
	if o.anthropic {
		kind = "anthropic"
		e.model = modeltest.NewAnthropic(t, o.replies...)
	} else {
		e.model = modeltest.NewOpenAI(t, o.replies...)
	}
	provider, err := model.New(model.Config{Provider: kind, BaseURL: e.model.URL, Model: "test", APIKey: "test-key"})
	if err != nil {
		t.Fatal(err)
	}
	e.provider = provider
	if o.mode == "" {
		o.mode = consent.Bypass
	}
	// The test's own A2A agents answer: reading a card and tasks/cancel
	// wait up to hangGuard, not the defaults' 10 s and 5 s.
	if o.a2a.CardTimeout == 0 {
		o.a2a.CardTimeout = hangGuard
	}
	if o.a2a.CancelTimeout == 0 {
		o.a2a.CancelTimeout = hangGuard
	}
	rt, err := harness.Open(context.Background(), reg, harness.Options{
		Coworkers: bundles, DBPath: e.db, Limits: o.limits, MaxCalls: o.maxCalls, MaxAttempts: o.maxAttempts, Logger: o.logger, A2A: o.a2a,
	})
	e.so = harness.SessionOptions{Model: provider, Approve: o.mode, Prompter: o.prompter}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	e.rt = rt
	return e
}

func (e *env) sink(ev harness.Event) {
	e.eventMu.Lock()
	defer e.eventMu.Unlock()
	e.events = append(e.events, ev)
}

// send opens a session and runs one turn, within 60 s (a hang guard).
func (e *env) send(prompt string) (*harness.Session, *harness.TurnResult, error) {
	e.t.Helper()
	return e.sendWithin(prompt, 60*time.Second)
}

// sendWithin is send with the turn bounded by d instead.
func (e *env) sendWithin(prompt string, d time.Duration) (*harness.Session, *harness.TurnResult, error) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	s, err := e.rt.NewSession(ctx, "tester", e.so)
	if err != nil {
		e.t.Fatalf("NewSession: %v", err)
	}
	res, err := s.Send(ctx, prompt, e.sink)
	return s, res, err
}

func (e *env) invocations(sessionID string) []journal.Invocation {
	e.t.Helper()
	invs, err := e.rt.Journal().Invocations(context.Background(), sessionID)
	if err != nil {
		e.t.Fatal(err)
	}
	return invs
}

func (e *env) approvals(sessionID string) []journal.Approval {
	e.t.Helper()
	as, err := e.rt.Journal().Approvals(context.Background(), sessionID)
	if err != nil {
		e.t.Fatal(err)
	}
	return as
}

func call(id, name, args string) model.ToolCall {
	return model.ToolCall{ID: id, Name: name, Arguments: args}
}

// fixedPrompter answers every prompt with one decision and counts prompts.
type fixedPrompter struct {
	d     consent.Decision
	err   error
	count atomic.Int32
	delay time.Duration
}

func (p *fixedPrompter) Prompt(ctx context.Context, r consent.Request) (consent.Decision, error) {
	p.count.Add(1)
	if p.delay > 0 {
		select {
		case <-time.After(p.delay):
		case <-ctx.Done():
			return consent.Deny, ctx.Err()
		}
	}
	return p.d, p.err
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// hangGuard bounds a wait that only catches a hang (a turn that ignores
// Cancel, a tool that is never abandoned). It is far longer than any of
// them takes on a loaded machine, and shorter than what the code under
// test would take when broken (the slow scripted replies take over a
// minute, CallTimeout defaults to 75 s), so it measures no speed.
const hangGuard = 30 * time.Second

// within fails the test if f does not return within d.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	start := time.Now()
	go func() { defer close(done); f() }()
	select {
	case <-done:
		t.Logf("%s took %v", what, time.Since(start).Round(time.Millisecond))
	case <-time.After(d):
		t.Fatalf("%s did not return within %v", what, d)
	}
}

// open opens a session with the tester coworker.
func (e *env) open() *harness.Session {
	e.t.Helper()
	s, err := e.rt.NewSession(context.Background(), "tester", e.so)
	if err != nil {
		e.t.Fatalf("NewSession: %v", err)
	}
	return s
}

func (e *env) warnings(sessionID string) []journal.Warning {
	e.t.Helper()
	ws, err := e.rt.Journal().Warnings(context.Background(), sessionID)
	if err != nil {
		e.t.Fatal(err)
	}
	return ws
}

// messages returns the journaled messages of a session.
func (e *env) messages(sessionID string) []journal.Message {
	e.t.Helper()
	ms, err := e.rt.Journal().Messages(context.Background(), sessionID)
	if err != nil {
		e.t.Fatal(err)
	}
	return ms
}

// eventsOf returns the recorded events of one type.
func (e *env) eventsOf(typ harness.EventType) []harness.Event {
	e.eventMu.Lock()
	defer e.eventMu.Unlock()
	var out []harness.Event
	for _, ev := range e.events {
		if ev.Type == typ {
			out = append(out, ev)
		}
	}
	return out
}

// lockedBuffer is an io.Writer safe for concurrent log handlers.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// selfMCP describes this test binary serving the misbehaving MCP server on
// stdio; counter is a file the server appends one line to per call.
func selfMCP(t *testing.T, ns, counter string) tool.MCPServer {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return tool.MCPServer{Namespace: ns, Transport: tool.TransportStdio, Program: exe,
		Env: map[string]string{serveMisbehaveEnv: counter, "GORACE": "atexit_sleep_ms=0"}}
}

// countLines counts the lines of a file (0 when it does not exist).
func countLines(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "\n")
}
