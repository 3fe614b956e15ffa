//go:build unix

package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/extension"
	"github.com/openworker/desktop/harness/extension/extensiontest"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// TestExtensionInstallRunRemove: server-memory packed by the official
// mcpb CLI is installed with `extension install` (its settings from
// --set, confirmed with --yes), resolves in `check`, answers a turn of a
// coworker that selects memory.create_entities, keeps its sensitive
// setting out of every file, and is removed.
func TestExtensionInstallRunRemove(t *testing.T) {
	file := extensiontest.Memory(t, "1.0.0", true)
	secrets := &extension.MemorySecrets{}
	dir := filepath.Join(t.TempDir(), "extensions")
	data := t.TempDir()
	const token = "tok-cli-secret-77"
	cliRun := func(stdin string, args ...string) (int, string, string) {
		return runWithSecrets(secrets, stdin, false, args...)
	}

	// Without a terminal, a missing required setting and a missing --yes
	// are each refused with the flag to use; nothing is written.
	if code, _, errs := cliRun("", "extension", "install", file, "--extensions", dir, "--set", "data_dir="+data); code != 2 || !strings.Contains(errs, "--set api_token=VALUE") {
		t.Fatalf("install without api_token = %d %s", code, errs)
	}
	if code, _, errs := cliRun("", "extension", "install", file, "--extensions", dir, "--set", "data_dir="+data, "--set", "api_token="+token); code != 2 || !strings.Contains(errs, "--yes") {
		t.Fatalf("install without --yes = %d %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "memory")); err == nil {
		t.Fatal("a refused install wrote its folder")
	}
	code, out, errs := cliRun("", "extension", "install", file, "--extensions", dir, "--set", "data_dir="+data, "--set", "api_token="+token, "--yes")
	if code != 0 {
		t.Fatalf("install = %d\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{"Memory (test) 1.0.0 by OpenWorker tests", "namespace: memory", "signature: self-signed by CN=MCPB Self-Signed Certificate",
		"server: node, needs Node.js >=18.0.0 (found v", "tool memory.create_entities: Create entities", "installed memory 1.0.0 as namespace memory"} {
		if !strings.Contains(out, want) {
			t.Errorf("install printed:\n%s\nwant %q", out, want)
		}
	}

	bundles := filepath.Join(t.TempDir(), "coworkers")
	writeBundleAt(t, bundles, "keeper", "memory.create_entities")
	if code, out, errs := cliRun("", "check", "--coworkers", bundles, "--extensions", dir); code != 0 || !strings.Contains(out, "memory.create_entities") || !strings.Contains(out, "mcp:memory") {
		t.Fatalf("check = %d\n%s\n%s", code, out, errs)
	}

	args, _ := json.Marshal(map[string]any{"entities": []map[string]any{{"name": "Ada", "entityType": "person", "observations": []string{"likes engines"}}}})
	m := modeltest.NewOpenAI(t, modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "memory__create_entities", Arguments: string(args)}}}, modeltest.Reply{Text: "Noted."})
	db := filepath.Join(t.TempDir(), "journal.db")
	code, out, errs = cliRun("", "run", "--coworkers", bundles, "--coworker", "keeper", "--extensions", dir, "--db", db,
		"--base-url", m.URL, "--model", "test", "--approve", "bypass", "Remember Ada.")
	if code != 0 || !strings.Contains(out, "Noted.") || !strings.Contains(errs, "✓ memory.create_entities succeeded") {
		t.Fatalf("run = %d\n%s\n%s", code, out, errs)
	}
	if b, err := os.ReadFile(filepath.Join(data, "memory.jsonl")); err != nil || !strings.Contains(string(b), "Ada") {
		t.Fatalf("the memory file in data_dir: %q, %v", b, err)
	}
	for _, root := range []string{dir, filepath.Dir(db)} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(token)) {
					t.Errorf("%s holds the sensitive setting", p)
				}
			}
			return nil
		})
	}

	if code, out, _ := cliRun("", "extension", "list", "--extensions", dir); code != 0 || !strings.Contains(out, "memory  1.0.0") {
		t.Fatalf("list = %d %s", code, out)
	}
	if code, out, _ := cliRun("", "extension", "remove", "memory", "--extensions", dir); code != 0 || !strings.Contains(out, "removed memory 1.0.0") {
		t.Fatalf("remove = %d %s", code, out)
	}
	if secrets.Len() != 0 {
		t.Error("remove left the sensitive setting in the keychain")
	}
}
