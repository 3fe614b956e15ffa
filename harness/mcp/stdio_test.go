//go:build unix

package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/openworker/desktop/harness/tool"
)

// The device server as a real child process: catalog, real results,
// progress over stdio, and Close ending the process.
func TestStdioDevice(t *testing.T) {
	ctx := context.Background()
	p, err := Connect(ctx, selfServer(t, "device", "device"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	pid := p.stdio.pid()
	if p.Namespace() != "device" || pid <= 0 {
		t.Fatalf("namespace %q pid %d", p.Namespace(), pid)
	}

	tools, err := p.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]RemoteTool{}
	for _, rt := range tools {
		byName[rt.Name] = rt
	}
	for _, name := range []string{"battery_status_get", "system_info_get", "disk_usage_get"} {
		rt, ok := byName[name]
		if !ok {
			t.Fatalf("catalog lacks %s: %v", name, tools)
		}
		d := rt.Descriptor("device")
		if d.Name != "device."+name || d.Risk != tool.ReadOnly || d.Cancellation != tool.Cooperative || len(d.OutputSchema) == 0 || d.Version != "dev" {
			t.Errorf("Descriptor(%s) = %+v, want device.%s, read_only, cooperative, an output schema, version dev", name, d, name)
		}
		if err := tool.CheckMCPName(d.Name); err != nil {
			t.Error(err)
		}
	}

	out, err := p.CallTool(ctx, "battery_status_get", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var bat struct {
		Present bool   `json:"present"`
		State   string `json:"state"`
		Message string `json:"message"`
		Source  string `json:"source"`
	}
	if err := json.Unmarshal(out.Structured, &bat); err != nil {
		t.Fatalf("battery structured %s: %v", out.Structured, err)
	}
	if hasSysfsBattery() != bat.Present || bat.State == "" {
		t.Errorf("battery_status_get = %+v, want present=%v (from /sys/class/power_supply)", bat, hasSysfsBattery())
	}
	if !bat.Present && bat.Message != "no battery present" {
		t.Errorf("battery_status_get without a battery: message %q, want \"no battery present\"", bat.Message)
	}

	// A JSON-RPC error (unknown tool) is a definite answer: a ToolError,
	// at once, and the provider stays up.
	within(t, hangGuard, "CallTool of an unknown tool", func() {
		_, err = p.CallTool(ctx, "no_such_tool", nil, nil)
	})
	var te *tool.ToolError
	if !errors.As(err, &te) || te.Code != "mcp_error" || !strings.Contains(te.Message, "no_such_tool") || !p.Alive() {
		t.Errorf("CallTool(no_such_tool) = %v, alive %v; want an mcp_error ToolError naming the tool and a live provider", err, p.Alive())
	}

	var mu sync.Mutex
	var events []string
	out, err = p.CallTool(ctx, "system_info_get", json.RawMessage(`{}`), func(msg string, data json.RawMessage) error {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, msg+" "+string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var sys struct {
		Hostname string `json:"hostname"`
		OS       string `json:"os"`
		CPUCount int    `json:"cpu_count"`
	}
	if err := json.Unmarshal(out.Structured, &sys); err != nil {
		t.Fatal(err)
	}
	if host, _ := os.Hostname(); sys.Hostname != host || sys.CPUCount < 1 || sys.OS == "" {
		t.Errorf("system_info_get = %+v, want hostname %q and a CPU count", sys, host)
	}
	mu.Lock()
	// All four notifications precede the result on the wire, so all four
	// are delivered before CallTool returns.
	if len(events) != 4 || !strings.Contains(events[0], `"progress":0`) || !strings.Contains(events[3], `{"progress":3,"total":3}`) {
		t.Errorf("progress events = %q, want the device server's steps 0..3 of 3", events)
	}
	t.Logf("progress events: %q", events)
	mu.Unlock()

	within(t, hangGuard, "Close", func() {
		if err := p.Close(); err != nil {
			t.Error(err)
		}
	})
	if !processGone(pid) {
		t.Errorf("device server pid %d still runs after Close", pid)
	}
	if _, err := p.CallTool(ctx, "battery_status_get", nil, nil); !errors.Is(err, ErrClosed) {
		t.Errorf("CallTool after Close = %v, want ErrClosed", err)
	}
}

func hasSysfsBattery() bool {
	entries, _ := os.ReadDir("/sys/class/power_supply")
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join("/sys/class/power_supply", e.Name(), "type"))
		scope, _ := os.ReadFile(filepath.Join("/sys/class/power_supply", e.Name(), "scope"))
		if strings.TrimSpace(string(b)) == "Battery" && strings.TrimSpace(string(scope)) != "Device" {
			return true
		}
	}
	return false
}

func TestStdioExitAtStart(t *testing.T) {
	_, err := Connect(context.Background(), selfServer(t, "acer", "exit-at-start"), nil)
	if err == nil {
		t.Fatal("Connect succeeded for a server that exits at start")
	}
	t.Logf("error: %v", err)
	mustContain(t, "error", err.Error(), `mcp provider "acer" exited during start`, "exit status 1",
		"stderr: fatal: cannot open config /nonexistent/acer.toml")
}

// A cwd that does not exist is named as the problem, with where the entry
// is, not reported as a missing program.
func TestStdioMissingCwd(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "no-such-folder")
	srv := tool.MCPServer{Namespace: "acer", Program: "sh", Args: []string{"-c", "exit 0"}, Dir: dir, Source: "servers.json:3"}
	_, err := Connect(context.Background(), srv, nil)
	if err == nil {
		t.Fatal("Connect succeeded with a missing cwd")
	}
	mustContain(t, "error", err.Error(), `mcp provider "acer"`, "the working folder "+dir+" does not exist", `fix its "cwd" at servers.json:3`)
	if strings.Contains(err.Error(), "program") {
		t.Errorf("error = %v; the program is fine", err)
	}
}

func TestStdioProgramMissing(t *testing.T) {
	srv := tool.MCPServer{Namespace: "acer", Program: "bin/no-such-launcher"}
	_, err := Connect(context.Background(), srv, &Options{InstallDir: t.TempDir()})
	if err == nil {
		t.Fatal("Connect succeeded for a missing program")
	}
	mustContain(t, "error", err.Error(), `mcp provider "acer" did not start`, "bin/no-such-launcher")
}

// A start that runs out of time names what the server printed on stderr.
// The deadline comes when the server has printed it (it says so on a
// FIFO), so a slow machine cannot make it come first.
func TestStdioStartTimeout(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "ready")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	srv := selfServer(t, "mute", "hang")
	srv.Env[readyEnv] = fifo
	ctx, expire := deadlineOnDemand()
	go func() {
		if b, err := os.ReadFile(fifo); err == nil && len(b) > 0 { // opening blocks until the server opens it
			expire()
		}
	}()
	var err error
	within(t, hangGuard, "Connect to a silent server", func() {
		_, err = Connect(ctx, srv, &Options{StartTimeout: hangGuard})
	})
	if err == nil {
		t.Fatal("Connect succeeded for a server that never answers")
	}
	t.Logf("error: %v", err)
	mustContain(t, "error", err.Error(), `mcp provider "mute" did not start: no answer to initialize within`, "stderr: hanging before initialize")
}

// deadlineOnDemand is a context whose deadline passes when expire is
// called: Err is then context.DeadlineExceeded, as for a real deadline.
func deadlineOnDemand() (context.Context, func()) {
	d := &manualDeadline{Context: context.Background(), done: make(chan struct{})}
	var once sync.Once
	return d, func() { once.Do(func() { close(d.done) }) }
}

type manualDeadline struct {
	context.Context
	done chan struct{}
}

func (d *manualDeadline) Done() <-chan struct{} { return d.done }

func (d *manualDeadline) Err() error {
	select {
	case <-d.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

// A server that floods stderr and dies mid-call: the error names the exit
// status and holds the bounded tail, ending with the last line written.
func TestStdioCrashMidCall(t *testing.T) {
	const limit = 4096
	ctx := context.Background()
	p, err := Connect(ctx, selfServer(t, "helper", "helper"), &Options{StderrLimit: limit})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	args := json.RawMessage(`{"stderr_bytes":200000,"marker":"LAST-WORDS: disk on fire","code":3}`)
	_, err = p.CallTool(ctx, "crash", args, nil)
	if err == nil {
		t.Fatal("CallTool succeeded on a crashing server")
	}
	var te *tool.ToolError
	if errors.As(err, &te) {
		t.Fatalf("a crash came back as a tool error: %v", err)
	}
	t.Logf("error (%d bytes) starts: %.200s", len(err.Error()), err)
	mustContain(t, "error", err.Error(), `mcp provider "helper" exited during tools/call "crash"`, "exit status 3", "LAST-WORDS: disk on fire")
	if !errors.Is(err, ErrClosed) {
		t.Errorf("error %v does not wrap ErrClosed", err)
	}
	tail := p.StderrTail()
	if len(tail) > limit+len("…") || strings.Contains(tail, "helper server starting") {
		t.Errorf("stderr tail is %d bytes (limit %d) or holds the first line", len(tail), limit)
	}
	if got := p.stdio.stderr.Total(); got < 200000 {
		t.Errorf("stderr drained %d bytes, want all 200000+", got)
	}
	if len(err.Error()) > limit+500 {
		t.Errorf("error is %d bytes, want it bounded by the tail limit", len(err.Error()))
	}
	if p.Alive() {
		t.Error("Alive() = true after the crash")
	}
}

// Close ends the whole process tree, grandchildren included.
func TestStdioCloseKillsTree(t *testing.T) {
	ctx := context.Background()
	p, err := Connect(ctx, selfServer(t, "helper", "helper"), nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.CallTool(ctx, "spawn", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var sp spawnOut
	if err := json.Unmarshal(out.Structured, &sp); err != nil || sp.PID <= 0 {
		t.Fatalf("spawn = %s, %v", out.Structured, err)
	}
	pid := p.stdio.pid()
	if processGone(sp.PID) {
		t.Fatalf("grandchild %d is not running before Close", sp.PID)
	}
	within(t, hangGuard, "Close", func() { p.Close() })
	if !processGone(pid) {
		t.Errorf("provider pid %d runs after Close", pid)
	}
	waitFor(t, hangGuard, "grandchild ended", func() bool { return processGone(sp.PID) })
}

// Env, a relative program and a relative working folder resolve against the
// install folder (docs/mcp.md).
func TestStdioInstallDirEnvAndDir(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	install := t.TempDir()
	for _, d := range []string{"bin", "work"} {
		if err := os.Mkdir(filepath.Join(install, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(exe, filepath.Join(install, "bin", "helper-mcp")); err != nil {
		t.Skip("cannot symlink the test binary:", err)
	}
	srv := tool.MCPServer{Namespace: "helper", Program: "bin/helper-mcp", Dir: "work",
		Env: map[string]string{serverEnv: "helper", "OW_TEST_VAR": "from servers.json"}}
	p, err := Connect(context.Background(), srv, &Options{InstallDir: install})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	out, err := p.CallTool(context.Background(), "env", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got envOut
	json.Unmarshal(out.Structured, &got)
	wantDir, _ := filepath.EvalSymlinks(filepath.Join(install, "work"))
	gotDir, _ := filepath.EvalSymlinks(got.Dir)
	if got.Value != "from servers.json" || gotDir != wantDir {
		t.Errorf("env = %+v, want value %q in %s", got, "from servers.json", wantDir)
	}
	if os.Getenv("PATH") == "" {
		t.Skip("no PATH to check inheritance with")
	}
}

// Cancelling the call context returns at once and the server's handler sees
// the cancellation. The cancel comes once the handler runs (its first
// progress event says so), not after a guessed delay a loaded machine may outlast.
func TestStdioCancel(t *testing.T) {
	p, err := Connect(context.Background(), selfServer(t, "helper", "helper"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var callErr error
	within(t, hangGuard, "cancelled CallTool", func() {
		// The handler's first progress event says it runs: cancel then.
		_, callErr = p.CallTool(ctx, "wait", nil, func(string, json.RawMessage) error { cancel(); return nil })
	})
	if !errors.Is(callErr, context.Canceled) {
		t.Errorf("CallTool = %v, want context.Canceled", callErr)
	}
	waitFor(t, hangGuard, "server saw the cancellation", func() bool {
		return strings.Contains(p.StderrTail(), "wait: handler saw cancellation")
	})
	if !p.Alive() {
		t.Error("provider died after a cancelled call")
	}
}
