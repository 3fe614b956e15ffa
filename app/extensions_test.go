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
	installIn(t, cfgDir, secrets, extensiontest.Memory(t, "1.0.0", false), map[string]any{"data_dir": data, "api_token": "tok-app-1"})
	args, _ := json.Marshal(map[string]any{"entities": []map[string]any{{"name": "Grace", "entityType": "person", "observations": []string{"wrote COBOL"}}}})
	e := newTestEnv(t, envOpts{cfg: config{ConfigDir: cfgDir}, extSecrets: secrets, replies: []modeltest.Reply{
		{ToolCalls: []model.ToolCall{{ID: "c1", Name: "memory__create_entities", Arguments: string(args)}}},
		{Text: "Noted."},
	}})
	writeBundle(t, e.bundles, "keeper", "memory.create_entities")
	chat, err := e.app.Chats.OpenChat("keeper")
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

// TestExtensionsSurviveABrokenServersFile: a servers file that cannot be
// read at all (not JSON) keeps its own providers as they were (none yet
// here, and it is reported as unreadable), but the installed extensions
// are providers all the same: a binary extension (a Go MCP server packed
// by mcpb) answers a coworker that selects echo.echo
// (docs/extensions.md#running).
func TestExtensionsSurviveABrokenServersFile(t *testing.T) {
	cfgDir := t.TempDir()
	secrets := &extension.MemorySecrets{}
	installIn(t, cfgDir, secrets, extensiontest.Echo(t, "1.0.0", 0o755, false), map[string]any{"prefix": "app", "token": "tok-app-echo"})
	servers := filepath.Join(t.TempDir(), "servers.json")
	if err := os.WriteFile(servers, []byte(`{"servers": {`), 0o600); err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t, envOpts{cfg: config{ConfigDir: cfgDir, Servers: servers}, extSecrets: secrets, replies: []modeltest.Reply{
		{ToolCalls: []model.ToolCall{{ID: "c1", Name: "echo__echo", Arguments: `{"text":"still here"}`}}},
		{Text: "Echoed."},
	}})
	if v, _ := e.app.Preferences.GetSettings(); v.ServersError == "" || !v.ServersUnreadable || !strings.Contains(v.ServersError, servers) {
		t.Fatalf("settings: servers error %q (unreadable %v); want the file's problem", v.ServersError, v.ServersUnreadable)
	}
	writeBundle(t, e.bundles, "parrot", "echo.echo")
	chat, err := e.app.Chats.OpenChat("parrot")
	if err != nil {
		t.Fatal(err)
	}
	done := sendAsync(e.app, chat.SessionID, "echo")
	allowNext(t, e)
	if res := waitResult(t, done); res.Status != harness.TurnCompleted {
		t.Fatalf("turn = %+v", res)
	}
	res := e.model.Requests()[1].ToolResults()
	if len(res) != 1 || res[0].Text != "app: still here" {
		t.Fatalf("the model saw %+v", res)
	}
}
