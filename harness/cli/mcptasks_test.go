package cli_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/mcp/mcptest"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

func writeTaskServers(t *testing.T, path, url string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"servers": map[string]any{"reports": map[string]any{"transport": "streamable_http", "url": url}}})
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRunMCPTaskCompletes: `openworker run` calls a tool that requires MCP
// tasks; the call completes through tasks/get polling and tasks/result,
// the terminal shows the task's status message, and the journal holds the
// task ID as the call's handle.
func TestRunMCPTaskCompletes(t *testing.T) {
	s := mcptest.NewTaskServer()
	defer s.Close()
	s.Release()
	dir := t.TempDir()
	servers := filepath.Join(dir, "servers.json")
	writeTaskServers(t, servers, s.URL)
	bundles := filepath.Join(dir, "coworkers")
	writeBundleAt(t, bundles, "writer", "reports.report")
	m := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "reports__report", Arguments: `{"text":"Q3"}`}}},
		modeltest.Reply{Text: "The report is written."})
	db := filepath.Join(dir, "journal.db")
	out, errs, code := runBinary(t, nil, "run", "--coworkers", bundles, "--coworker", "writer", "--servers", servers, "--db", db,
		"--base-url", m.URL, "--model", "test", "--approve", "bypass", "Write the report.")
	if code != 0 || !strings.Contains(out, "The report is written.") || !strings.Contains(errs, "✓ reports.report succeeded") {
		t.Fatalf("run = %d\n%s\n%s", code, out, errs)
	}
	if res := m.Requests()[1].ToolResults(); len(res) != 1 || !strings.Contains(res[0].Text, "report done: Q3") {
		t.Errorf("the model saw %+v", res)
	}
	j := openJournalAt(t, db)
	d, err := j.Detail(context.Background(), mustNewestSession(t, j))
	if err != nil || len(d.Invocations) != 1 {
		t.Fatalf("detail %+v %v", d, err)
	}
	if h, _ := j.Handle(context.Background(), d.Invocations[0].ID); !strings.HasPrefix(h, "task-") || s.Status(h) != "completed" {
		t.Errorf("handle %q", h)
	}
}

// TestRunMCPTaskKilledThenPoll: `run` is killed (SIGKILL) while the
// server's task works. The journal keeps the task ID; `journal reconcile
// --poll` asks the server with tasks/get: working (stays unknown), then
// completed (applied, with the result from tasks/result). The tool is
// never called again.
func TestRunMCPTaskKilledThenPoll(t *testing.T) {
	s := mcptest.NewTaskServer()
	defer s.Close()
	dir := t.TempDir()
	servers := filepath.Join(dir, "servers.json")
	writeTaskServers(t, servers, s.URL)
	bundles := filepath.Join(dir, "coworkers")
	writeBundleAt(t, bundles, "writer", "reports.report")
	m := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "reports__report", Arguments: `{"text":"the long report"}`}}},
		modeltest.Reply{Text: "never reached"})
	db := filepath.Join(dir, "journal.db")
	// The task ID is journaled before its first status is shown.
	task := runThenKill(t, s.Started(), "step 1 of 2",
		"run", "--coworkers", bundles, "--coworker", "writer", "--servers", servers, "--db", db,
		"--base-url", m.URL, "--model", "test", "--approve", "bypass", "Write the long report.")

	j := openJournalAt(t, db)
	unknown, err := j.Unreconciled(context.Background())
	if err != nil || len(unknown) != 1 || unknown[0].Provider != "mcp:reports" {
		t.Fatalf("unreconciled = %+v, %v", unknown, err)
	}
	inv := unknown[0].ID
	if h, err := j.Handle(context.Background(), inv); err != nil || h != task {
		t.Fatalf("handle %q, %v; the server's task is %s", h, err, task)
	}
	j.Close()
	if show, errs, code := runBinary(t, nil, "journal", "show", "--db", db); code != 0 || !strings.Contains(show, "task "+task) {
		t.Errorf("journal show = %d\n%s%s\nwant the task %q", code, show, errs, task)
	}
	poll := func() (string, string, int) {
		out, errs, code := runBinary(t, nil, "journal", "reconcile", inv, "--poll", "--servers", servers, "--db", db)
		t.Logf("reconcile --poll: exit %d\n%s%s", code, out, errs)
		return out, errs, code
	}
	out, errs, code := poll()
	if code != 1 || !strings.Contains(errs, "stays unknown") || !strings.Contains(errs, "task "+task+" is working") {
		t.Fatalf("poll while working = %d\n%s\n%s", code, out, errs)
	}
	s.Release()
	out, errs, code = poll()
	if code != 0 || !strings.Contains(out, "invocation "+inv+" reconciled: applied") || !strings.Contains(out, `MCP provider "reports" says task `+task+" is completed") {
		t.Fatalf("poll after the task completed = %d\n%s\n%s", code, out, errs)
	}
	j = openJournalAt(t, db)
	got, err := j.Invocation(context.Background(), inv)
	if err != nil || got.Reconciled != journal.EffectApplied || got.ReconciledBy != "mcp:poll" || !strings.Contains(string(got.Result), "report done: the long report") {
		t.Fatalf("reconciled invocation = %+v, %v", got, err)
	}
	if rep, err := j.Verify(context.Background()); err != nil || !rep.OK {
		t.Errorf("Verify = %+v, %v", rep, err)
	}
	if n := s.Count("tools/call"); n != 1 {
		t.Errorf("tools/call sent %d times; want once", n)
	}
}
