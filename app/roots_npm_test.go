//go:build unix

package app

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// The app's default workspace is no MCP root (docs/mcp.md#roots): a
// server imported with its folders in its args keeps them; a coworker's
// working folder, chosen by the person, is offered as the root.

// filesystemEnv is an app whose one MCP server is the real
// server-filesystem given the folder data in its args, as a Claude Desktop
// config names it, with a coworker "files" selecting tool and, when
// folder is not "", that working folder; the model calls tool with args.
func filesystemEnv(t *testing.T, data, folder, tool string, args any) *testEnv {
	t.Helper()
	node, entry := npmServer(t, "server-filesystem")
	servers := filepath.Join(t.TempDir(), "servers.json")
	cfg, _ := json.Marshal(map[string]any{"servers": map[string]any{"files": map[string]any{
		"transport": "stdio", "command": node, "args": []string{entry, data}}}})
	if err := os.WriteFile(servers, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	call, _ := json.Marshal(args)
	return newTestEnv(t, envOpts{cfg: config{Servers: servers}, replies: []modeltest.Reply{
		{ToolCalls: []model.ToolCall{{ID: "c1", Name: "files__" + tool, Arguments: string(call)}}},
		{Text: "done"},
	}, bundles: func(dir string) {
		writeBundle(t, dir, "files", "files."+tool)
		if folder != "" {
			m := filepath.Join(dir, "files", "coworker", "manifest.md")
			b, _ := os.ReadFile(m)
			b = []byte(strings.Replace(string(b), "version: 1.0.0\n", "version: 1.0.0\nfolder: "+folder+"\n", 1))
			if err := os.WriteFile(m, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}})
}

// toolResult runs one turn of coworker "files" in e, allowing its one
// call, and returns the tool result the model saw.
func toolResult(t *testing.T, e *testEnv) modeltest.RecordedToolResult {
	t.Helper()
	chat, err := e.app.Chats.OpenChat("files")
	if err != nil {
		t.Fatal(err)
	}
	done := sendAsync(e.app, chat.SessionID, "list my folder")
	allowNext(t, e)
	if res := waitResult(t, done); res.Status != harness.TurnCompleted {
		t.Fatalf("turn = %+v", res)
	}
	reqs := e.model.Requests()
	if len(reqs) < 2 || len(reqs[1].ToolResults()) != 1 {
		t.Fatalf("model requests = %+v; want the tool result in the second", reqs)
	}
	return reqs[1].ToolResults()[0]
}

// dataFolder is a real folder "Mes Données" holding notes.txt.
func dataFolder(t *testing.T) string {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir()) // the server resolves symlinks (macOS /var)
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(base, "Mes Données")
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "notes.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return data
}

// TestImportedFilesystemServerKeepsItsFolder: server-filesystem imported
// with "Mes Données" in its args, used by a coworker with no working
// folder (the app's hidden default workspace), lists that folder: the app
// declares no roots, so the server keeps the folders of its args, as in
// Claude Desktop.
func TestImportedFilesystemServerKeepsItsFolder(t *testing.T) {
	data := dataFolder(t)
	e := filesystemEnv(t, data, "", "list_directory", map[string]string{"path": data})
	res := toolResult(t, e)
	if res.IsError || !strings.Contains(res.Text, "notes.txt") {
		t.Errorf("list_directory %s = %q (error %v); want notes.txt listed", data, res.Text, res.IsError)
	}
	if strings.Contains(res.Text, "outside allowed directories") {
		t.Errorf("the server was offered the default workspace as its root: %q", res.Text)
	}
}

// TestWorkingFolderIsTheFilesystemRoot: with a working folder chosen for
// the coworker, the server gets it as its root, in place of the folders
// of its args (docs/bundles.md#folder).
func TestWorkingFolderIsTheFilesystemRoot(t *testing.T) {
	data := dataFolder(t)
	chosen := filepath.Join(filepath.Dir(data), "Chosen")
	if err := os.Mkdir(chosen, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(chosen, "plan.txt"), []byte("plan\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := filesystemEnv(t, data, chosen, "list_directory", map[string]string{"path": chosen})
	res := toolResult(t, e)
	if res.IsError || !strings.Contains(res.Text, "plan.txt") {
		t.Errorf("list_directory %s = %q (error %v); want plan.txt listed from the root", chosen, res.Text, res.IsError)
	}
}

// npmServer returns node and the entry of the npm package
// @modelcontextprotocol/<pkg> installed by
// harness/mcp/testdata/npm/install.sh (as everythingServer).
func npmServer(t *testing.T, pkg string) (node, entry string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping the npm " + pkg + " test")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH; install Node.js 18+ to run the " + pkg + " test")
	}
	entry, _ = filepath.Abs(filepath.Join("..", "harness", "mcp", "testdata", "npm", "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js"))
	if _, err := os.Stat(entry); err != nil {
		t.Skip(pkg + " is not installed: run sh harness/mcp/testdata/npm/install.sh")
	}
	return node, entry
}
