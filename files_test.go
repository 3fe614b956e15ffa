package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// The built-in files provider (docs/files.md) as the real binary serves
// it: `openworker mcp serve files --root DIR` over stdio, and through
// `openworker run --workspace DIR`, where the harness offers the
// workspace as its MCP root.

func TestFilesServedByTheBinary(t *testing.T) {
	base := t.TempDir()
	root, outside := filepath.Join(base, "root"), filepath.Join(base, "outside.txt")
	os.MkdirAll(filepath.Join(root, "docs"), 0o755)
	os.WriteFile(filepath.Join(root, "docs", "plan.md"), []byte("# Plan\n- one\n"), 0o644)
	os.WriteFile(outside, []byte("outside\n"), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.Command(binary, "mcp", "serve", "files", "--root", root)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 8 {
		t.Fatalf("tools/list = %v, %v; want the 8 files tools", tools, err)
	}
	callTool := func(name string, args map[string]any) *sdk.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res
	}
	if res := callTool("file_read", map[string]any{"path": "docs/plan.md"}); res.IsError || !strings.Contains(resultText(res), "# Plan\n- one\n") {
		t.Errorf("file_read = %s", resultText(res))
	}
	if res := callTool("file_edit", map[string]any{"path": "docs/plan.md", "old_text": "- one\n", "new_text": "- one\n- two\n"}); res.IsError || !strings.Contains(resultText(res), "+- two") {
		t.Errorf("file_edit = %s", resultText(res))
	}
	for _, p := range []string{"../outside.txt", outside, `..\outside.txt`} {
		res := callTool("file_write", map[string]any{"path": p, "content": "pwned", "overwrite": true})
		if !res.IsError || !strings.Contains(resultText(res), "outside") {
			t.Errorf("file_write(%q) = %s, want a refusal", p, resultText(res))
		}
	}
	if b, _ := os.ReadFile(outside); string(b) != "outside\n" {
		t.Errorf("the file outside the root is now %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "docs", "plan.md")); string(b) != "# Plan\n- one\n- two\n" {
		t.Errorf("plan.md = %q", b)
	}
	if r := runBin(t, "mcp", "serve", "files", "--root", filepath.Join(base, "missing")); r.code != 2 || !strings.Contains(r.stderr, "give an existing folder") {
		t.Errorf("--root of a missing folder: exit %d, %s", r.code, r.stderr)
	}
}

func resultText(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// The Files Assistant template in a chat: the harness offers the
// workspace as the provider's root; the model lists, reads and writes
// there, and a path out of it is a tool error the turn goes on from.
func TestFilesAssistantOnTheWorkspace(t *testing.T) {
	base := t.TempDir()
	ws, outside := filepath.Join(base, "workspace"), filepath.Join(base, "outside.txt")
	os.MkdirAll(ws, 0o755)
	os.WriteFile(filepath.Join(ws, "notes.md"), []byte("Buy milk.\n"), 0o644)
	os.WriteFile(outside, []byte("outside\n"), 0o644)
	srv := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "files__files_list", Arguments: `{}`}}},
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c2", Name: "files__file_read", Arguments: `{"path": "notes.md"}`}}},
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c3", Name: "files__file_write", Arguments: `{"path": "summary/today.md", "content": "You need milk.\n"}`}}},
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c4", Name: "files__file_read", Arguments: `{"path": "../outside.txt"}`}}},
		modeltest.Reply{Text: "Your notes say to buy milk."},
	)
	db := filepath.Join(base, "journal.db")
	r := runBin(t, "run", "--coworkers", "examples/coworkers", "--coworker", "files-assistant", "--workspace", ws,
		"--base-url", srv.URL, "--model", "test", "--approve", "bypass", "--db", db, "What do my notes say?")
	if r.code != 0 || !strings.Contains(r.stdout, "Your notes say to buy milk.") {
		t.Fatalf("run exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d model requests, want 5", len(reqs))
	}
	result := func(i int) modeltest.RecordedToolResult {
		rs := reqs[i].ToolResults() // every result so far: the last is the new one
		if len(rs) != i {
			t.Fatalf("request %d has %d tool results, want %d", i, len(rs), i)
		}
		return rs[i-1]
	}
	if got := result(1).Text; !strings.Contains(got, `"path":"notes.md"`) || !strings.Contains(got, ws) {
		t.Errorf("files_list of the workspace = %s", got)
	}
	if got := result(2).Text; !strings.Contains(got, "Buy milk.") {
		t.Errorf("file_read = %s", got)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "summary", "today.md")); err != nil || string(b) != "You need milk.\n" {
		t.Errorf("the write did not land in the workspace: %q, %v", b, err)
	}
	if got := result(4).Text; !strings.Contains(got, "leads outside the folder") || strings.Contains(got, "outside\n") {
		t.Errorf("reading out of the workspace = %s, want a refusal", got)
	}
	if b, _ := os.ReadFile(outside); string(b) != "outside\n" {
		t.Errorf("the file outside the workspace is now %q", b)
	}
	// Each call ran under the placement check reports: sandboxed where
	// this system can enforce the default preset (docs/files.md#sandbox).
	check := runBin(t, "check", "--coworkers", "examples/coworkers")
	want := "runs with your full access"
	if strings.Contains(check.stdout, "mcp:files sandboxed: ") {
		want = "sandboxed: reads system files"
	}
	show := runBin(t, "journal", "show", "--db", db, "--json")
	var d struct {
		Invocations []struct{ Tool, Status, Placement string }
	}
	if err := json.Unmarshal([]byte(show.stdout), &d); err != nil || len(d.Invocations) != 4 {
		t.Fatalf("journal show: %v\n%s", err, show.stdout)
	}
	for _, inv := range d.Invocations {
		if !strings.Contains(inv.Placement, want) {
			t.Errorf("invocation %+v, want its placement to say %q", inv, want)
		}
	}
	t.Logf("the files provider ran %s", d.Invocations[0].Placement)
}

// TestFilesTakesTheDefaultRoot: of the built-in providers only files is
// registered with DefaultRoot, so in the app it is still offered the
// app's default workspace as its root, which other servers are not
// (docs/mcp.md#roots, docs/files.md#roots).
func TestFilesTakesTheDefaultRoot(t *testing.T) {
	reg := tool.NewRegistry()
	if err := register(reg); err != nil {
		t.Fatal(err)
	}
	for ns, want := range map[string]bool{"files": true, "device": false} {
		srv, ok := reg.Server(ns)
		if !ok || srv.DefaultRoot != want {
			t.Errorf("built-in %s: registered %v, DefaultRoot %v; want %v", ns, ok, srv.DefaultRoot, want)
		}
	}
}
