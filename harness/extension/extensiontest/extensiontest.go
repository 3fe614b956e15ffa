// Package extensiontest packs .mcpb files for tests with the pinned
// official packer (@anthropic-ai/mcpb, npmtest.MCPB): real archives of
// real MCP servers.
package extensiontest

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/internal/npmtest"
)

// File is one file of a folder to pack.
type File struct {
	Data string
	Mode fs.FileMode // 0 is 0o644
}

// Pack writes files into a fresh folder, packs it with `mcpb pack` and
// returns the .mcpb's path (in t.TempDir()). With sign, the file is then
// signed with `mcpb sign --self-signed`. It skips as npmtest.MCPB does.
func Pack(t testing.TB, name string, files map[string]File, sign bool) string {
	t.Helper()
	node, args := npmtest.MCPB(t)
	src := filepath.Join(t.TempDir(), name)
	for rel, f := range files {
		p := filepath.Join(src, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := f.Mode
		if mode == 0 {
			mode = 0o644
		}
		if err := os.WriteFile(p, []byte(f.Data), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil { // past the umask
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), name+".mcpb")
	run := func(a ...string) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, node, append(slices.Clone(args), a...)...)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("mcpb %s: %v\n%s", strings.Join(a, " "), err, b)
		}
	}
	run("pack", src, out)
	if sign {
		run("sign", out, "--self-signed")
	}
	return out
}

// MemoryManifest is the manifest.json of the server-memory extension
// Memory packs, at version: a node server whose user_config has a
// required directory (data_dir, where the memory file goes) and a
// sensitive string (api_token, passed as API_TOKEN, which server-memory
// ignores).
func MemoryManifest(version string) string {
	m := map[string]any{
		"manifest_version": "0.3", "name": "memory", "display_name": "Memory (test)", "version": version,
		"description": "A knowledge graph memory, for tests.", "author": map[string]any{"name": "OpenWorker tests"},
		"server": map[string]any{"type": "node", "entry_point": "server/index.mjs", "mcp_config": map[string]any{
			"command": "node", "args": []string{"${__dirname}/server/index.mjs"},
			"env": map[string]string{"MEMORY_FILE_PATH": "${user_config.data_dir}/memory.jsonl", "API_TOKEN": "${user_config.api_token}"},
		}},
		"tools": []map[string]string{{"name": "create_entities", "description": "Create entities"}, {"name": "read_graph", "description": "Read the graph"}},
		"user_config": map[string]any{
			"data_dir":  map[string]any{"type": "directory", "title": "Data folder", "description": "Where the memory file is kept", "required": true},
			"api_token": map[string]any{"type": "string", "title": "API token", "description": "A secret", "sensitive": true, "required": true},
		},
		"compatibility": map[string]any{"platforms": []string{"darwin", "win32", "linux"}, "runtimes": map[string]string{"node": ">=18.0.0"}},
	}
	b, _ := json.MarshalIndent(m, "", "  ")
	return string(b)
}

// Memory packs @modelcontextprotocol/server-memory (the pinned one in
// harness/mcp/testdata/npm) as a node extension at version: its entry
// point imports the installed server, so the bundle stays small.
func Memory(t testing.TB, version string, sign bool) string {
	t.Helper()
	_, entry := npmtest.Server(t, "server-memory")
	js := "// server-memory, as installed for the tests\nawait import(" + jsString("file://"+filepath.ToSlash(entry)) + ");\n"
	return Pack(t, "memory", map[string]File{
		"manifest.json":    {Data: MemoryManifest(version)},
		"server/index.mjs": {Data: js},
	}, sign)
}

func jsString(s string) string { b, _ := json.Marshal(s); return string(b) }
