package harness_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/internal/npmtest"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// TestFolderIsTheWorkspace: a manifest's folder (docs/bundles.md#folder)
// replaces the session's workspace: a native tool gets it in
// tool.Call.Workspace, and server-filesystem, started without folders,
// gets it as its one root (docs/mcp.md#roots) and reads only inside it.
func TestFolderIsTheWorkspace(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("server-filesystem paths are tested on unix")
	}
	node, entry := npmtest.Server(t, "server-filesystem")
	folder, err := filepath.EvalSymlinks(t.TempDir()) // the server resolves symlinks (macOS /var)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(folder, "notes.txt"), []byte("the meeting is at 10:00\n"), 0o644)
	hostWS := t.TempDir()
	os.WriteFile(filepath.Join(hostWS, "other.txt"), []byte("not this coworker's\n"), 0o644)

	var mu sync.Mutex
	var seen []string
	where := &testTool{name: "test.where", risk: tool.ReadOnly, fn: func(ctx context.Context, c *tool.Call, _ json.RawMessage) (tool.Output, error) {
		mu.Lock()
		seen = append(seen, c.Workspace)
		mu.Unlock()
		return tool.Output{Structured: json.RawMessage(`{}`)}, nil
	}}
	args := func(path string) string { b, _ := json.Marshal(map[string]string{"path": path}); return string(b) }
	e := newEnv(t, envOpts{
		tools:    []tool.Tool{where},
		servers:  []tool.MCPServer{{Namespace: "files", Program: node, Args: []string{entry}}},
		selected: []string{"test.where", "files.list_allowed_directories", "files.read_text_file"},
		policy:   "folder: " + mustJSON(folder) + "\n",
		replies: []modeltest.Reply{
			{ToolCalls: []model.ToolCall{
				call("c1", "test__where", `{}`),
				call("c2", "files__list_allowed_directories", `{}`),
				call("c3", "files__read_text_file", args(filepath.Join(folder, "notes.txt"))),
				call("c4", "files__read_text_file", args(filepath.Join(hostWS, "other.txt"))),
			}},
			{Text: "At 10:00."},
		},
	})
	e.so.Workspace = hostWS // the host's; the coworker's folder wins
	_, res, err := e.send("When is the meeting?")
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	if len(seen) != 1 || seen[0] != folder {
		t.Errorf("tool.Call.Workspace = %q, want the coworker's folder %q", seen, folder)
	}
	tr := e.model.Requests()[1].ToolResults()
	if len(tr) != 4 {
		t.Fatalf("tool results = %+v", tr)
	}
	if !strings.Contains(tr[1].Text, folder) || strings.Contains(tr[1].Text, hostWS) {
		t.Errorf("allowed directories = %q; want only the folder %s", tr[1].Text, folder)
	}
	if !strings.Contains(tr[2].Text, "the meeting is at 10:00") {
		t.Errorf("read inside the folder = %q", tr[2].Text)
	}
	if !strings.Contains(tr[3].Text, "outside allowed directories") || strings.Contains(tr[3].Text, "not this coworker's") {
		t.Errorf("read in the host's workspace = %q; want the server's refusal", tr[3].Text)
	}
}

// TestFolderMissing: a coworker whose folder does not exist does not
// open, and Check reports it broken with the fix, before any provider
// starts; once the folder is made, the next Check finds it (the outcome
// was not cached).
func TestFolderMissing(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "gone")
	e := newEnv(t, envOpts{tools: []tool.Tool{&testTool{name: "test.echo"}}, selected: []string{"test.echo"}, policy: "folder: " + mustJSON(missing) + "\n"})
	_, err := e.rt.NewSession(context.Background(), "tester", e.so)
	var re *harness.ResolveError
	manifest := filepath.Join(e.bundles, "tester", "coworker", "manifest.md")
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "its folder "+missing+" (folder: in manifest.md) does not exist; create the folder, or change or remove folder: in "+manifest) {
		t.Fatalf("NewSession = %v; want the missing folder named", err)
	}
	rep, err := e.rt.Check(context.Background(), e.bundles, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Broken) != 1 || rep.Broken[0].File != manifest || rep.Broken[0].Fix != "create the folder, or change or remove folder: in "+manifest {
		t.Fatalf("Check broken = %+v", rep.Broken)
	}
	if err := os.Mkdir(missing, 0o755); err != nil {
		t.Fatal(err)
	}
	if rep, err := e.rt.Check(context.Background(), e.bundles, nil); err != nil || len(rep.OK) != 1 {
		t.Fatalf("Check after creating the folder = %+v, %v", rep, err)
	}
}
