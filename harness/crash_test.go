package harness_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/cli"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// crashDirEnv tells TestCrashChild (run in a child process) where to put its
// journal and marker file.
const crashDirEnv = "OPENWORKER_TEST_CRASH_DIR"

// TestCrashChild is the child of TestCrashWhileExecuting: it runs a session
// whose write tool appends a line to a marker file and then blocks until
// the process is killed.
func TestCrashChild(t *testing.T) {
	dir := os.Getenv(crashDirEnv)
	if dir == "" {
		t.Skip("runs only as the child of TestCrashWhileExecuting")
	}
	marker := filepath.Join(dir, "marker.txt")
	appendTool := &testTool{name: "test.append", risk: tool.NonIdempotentWrite, fn: func(ctx context.Context, _ *tool.Call, _ json.RawMessage) (tool.Output, error) {
		f, err := os.OpenFile(marker, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return tool.Output{}, err
		}
		f.WriteString("applied\n")
		f.Sync()
		f.Close()
		select {} // blocks until SIGKILL
	}}
	reg := tool.NewRegistry()
	if err := reg.Register(appendTool); err != nil {
		t.Fatal(err)
	}
	srv := modeltest.NewOpenAI(t, modeltest.Reply{ToolCalls: []model.ToolCall{call("c1", "test__append", `{}`)}}, modeltest.Reply{Text: "never"})
	provider, err := model.New(model.Config{Provider: "openai", BaseURL: srv.URL, Model: "test", APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	rt, err := harness.Open(context.Background(), reg, harness.Options{
		Coworkers: filepath.Join(dir, "coworkers"), DBPath: filepath.Join(dir, "journal.db"),
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := rt.NewSession(context.Background(), "tester", harness.SessionOptions{Model: provider, Approve: "bypass"})
	if err != nil {
		t.Fatal(err)
	}
	s.Send(context.Background(), "append a line", nil)
	t.Fatal("the turn returned; the tool should have blocked until the process was killed")
}

// docs/journal.md: a process killed while a tool executes leaves the invocation
// "executing"; reopening the journal makes it "unknown", it is never re-run,
// the tool ran exactly once, and the hash chain still verifies. The user's
// answer is recorded once through `openworker journal reconcile`.
func TestCrashWhileExecuting(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL is Unix; the Windows journal lease is tested in harness/journal")
	}
	dir := t.TempDir()
	writeBundle(t, filepath.Join(dir, "coworkers"), "tester", []string{"test.append"}, "")
	marker := filepath.Join(dir, "marker.txt")
	db := filepath.Join(dir, "journal.db")

	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashDirEnv+"="+dir, "GORACE=atexit_sleep_ms=0")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// A hang guard: the child is this test binary (with -race, maybe) and
	// starts a runtime and its journal, which takes a loaded machine a while.
	deadline := time.Now().Add(120 * time.Second)
	for countLines(t, marker) == 0 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the child never ran the tool; its output:\n%s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	// Reopen through a runtime, as the app does at start.
	reg := tool.NewRegistry()
	rt, err := harness.Open(context.Background(), reg, harness.Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	j := rt.Journal()
	if j.Recovered() != 1 {
		t.Errorf("Recovered() = %d, want 1 executing invocation made unknown", j.Recovered())
	}
	pending, err := j.Unreconciled(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != 1 || pending[0].Status != journal.InvUnknown || pending[0].Tool != "test.append" {
		t.Fatalf("unreconciled = %+v, want the one test.append invocation, unknown", pending)
	}
	inv := pending[0].ID
	if n := countLines(t, marker); n != 1 {
		t.Fatalf("marker has %d lines, want exactly 1: the tool ran once and was not replayed", n)
	}
	rep, err := j.Verify(context.Background())
	if err != nil || !rep.OK {
		t.Fatalf("Verify = %+v, %v; want ok", rep, err)
	}
	if err := rt.Close(); err != nil {
		t.Fatal(err)
	}

	run := func(args ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := cli.Run(context.Background(), tool.NewRegistry(), args,
			cli.WithIO(strings.NewReader(""), &stdout, &stderr, func(string) string { return "" }, func() bool { return false }))
		return code, stdout.String() + stderr.String()
	}
	if code, out := run("journal", "reconcile", inv, "--outcome", "applied", "--db", db); code != 0 || !strings.Contains(out, "reconciled: applied") {
		t.Fatalf("reconcile exit %d: %s", code, out)
	}
	if code, out := run("journal", "reconcile", inv, "--outcome", "not-applied", "--db", db); code != 2 || !strings.Contains(out, "already reconciled as applied") {
		t.Fatalf("second reconcile exit %d: %s; want 2, already reconciled", code, out)
	}
	if code, out := run("journal", "verify", "--db", db); code != 0 || !strings.Contains(out, "ok:") {
		t.Fatalf("verify exit %d: %s", code, out)
	}
	j2, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer j2.Close()
	got, err := j2.Invocation(context.Background(), inv)
	if err != nil || got.Reconciled != "applied" || got.Effect != journal.EffectApplied || got.Status != journal.InvUnknown {
		t.Fatalf("invocation after reconcile = %+v, %v", got, err)
	}
	if n := countLines(t, marker); n != 1 {
		t.Fatalf("marker has %d lines after reopening, want 1", n)
	}
}
