//go:build unix

package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/extension"
	"github.com/openworker/desktop/harness/extension/extensiontest"
	"github.com/openworker/desktop/harness/extension/manifest"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// TestInstalledExtensionIsAProvider: an extension installed in the app's
// config folder (as `openworker extension install` does) is an MCP
// provider of the app: a coworker that selects memory.create_entities
// resolves, its call asks for approval as usual and runs with the
// extension's settings (docs/extensions.md#running).
func TestInstalledExtensionIsAProvider(t *testing.T) {
	cfgDir, data := t.TempDir(), t.TempDir()
	secrets := &extension.MemorySecrets{}
	s := &extension.Store{Dir: filepath.Join(cfgDir, "extensions"), Secrets: secrets}
	in, err := s.Inspect(extensiontest.Memory(t, "1.0.0", false), extension.InspectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	host, err := manifest.ThisHost()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Install(in, map[string]any{"data_dir": data, "api_token": "tok-app-1"}, host); err != nil {
		t.Fatal(err)
	}
	args, _ := json.Marshal(map[string]any{"entities": []map[string]any{{"name": "Grace", "entityType": "person", "observations": []string{"wrote COBOL"}}}})
	e := newTestEnv(t, envOpts{cfg: config{ConfigDir: cfgDir}, extSecrets: secrets, replies: []modeltest.Reply{
		{ToolCalls: []model.ToolCall{{ID: "c1", Name: "memory__create_entities", Arguments: string(args)}}},
		{Text: "Noted."},
	}})
	writeBundle(t, e.bundles, "keeper", "memory.create_entities")
	chat, err := e.app.OpenChat("keeper")
	if err != nil {
		t.Fatal(err)
	}
	done := sendAsync(e.app, chat.SessionID, "remember Grace")
	allowNext(t, e) // installing granted nothing: the call asks
	if res := waitResult(t, done); res.Status != harness.TurnCompleted {
		t.Fatalf("turn = %+v", res)
	}
	if b, err := os.ReadFile(filepath.Join(data, "memory.jsonl")); err != nil || !strings.Contains(string(b), "Grace") {
		t.Fatalf("memory file = %q, %v", b, err)
	}
}
