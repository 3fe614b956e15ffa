package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"
)

// TestServerInputsAnsweredInSettings: a VS Code file's ${input:ID} is not
// answered yet, so its entry is disabled with an error saying where to
// answer it (the others load); Settings lists the input, SetServerInput
// keeps the answer in the OS keychain and the provider works for new chats.
func TestServerInputsAnsweredInSettings(t *testing.T) {
	keyring.MockInit()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	servers := filepath.Join(dir, ".vscode", "mcp.json")
	os.MkdirAll(filepath.Dir(servers), 0o755)
	entry, _ := json.Marshal(map[string]any{"type": "stdio", "command": exe, "env": map[string]string{serveDeviceEnv: "1", "TOKEN": "${input:tok}"}})
	os.WriteFile(servers, []byte(`{
  // comments are fine
  "inputs": [{"type": "promptString", "id": "tok", "description": "Device token", "password": true}],
  "servers": {"device": `+string(entry)+`, "other": {"type": "stdio", "command": "x", "unknownKey": 1}}
}`), 0o644)
	e := newTestEnv(t, envOpts{cfg: config{Servers: servers, Approve: "bypass"}})
	writeBundle(t, e.bundles, "dev", "device.battery_status_get")
	if _, err := e.app.Chats.OpenChat("dev"); err == nil || !strings.Contains(err.Error(), `input "tok" (Device token)`) || !strings.Contains(err.Error(), "answer it once in the app (Settings)") {
		t.Fatalf("OpenChat before the answer = %v", err)
	}
	// The unanswered input is a warning banner keyed "servers", not an error.
	info, _ := e.app.Window.Info()
	var shown []Notice
	for _, n := range info.Notices {
		if n.Key == NoticeKeyServers {
			shown = append(shown, n)
		}
	}
	if len(shown) != 1 || shown[0].Level != NoticeWarn || !strings.Contains(shown[0].Message, `input "tok" (Device token): it is not answered yet`) {
		t.Errorf("servers notices at start = %+v; want one warning about the input", shown)
	}
	v, _ := e.app.Preferences.GetSettings()
	if len(v.ServerInputs) != 1 || v.ServerInputs[0] != (ServerInput{ID: "tok", Description: "Device token", Password: true}) {
		t.Errorf("ServerInputs = %+v", v.ServerInputs)
	}
	if len(v.ServersNotices) != 1 || !strings.Contains(v.ServersNotices[0], `unknown key "unknownKey" of server "other" is ignored`) {
		t.Errorf("ServersNotices = %q", v.ServersNotices)
	}
	if _, err := e.app.Servers.SetServerInput("nope", "x"); err == nil {
		t.Error("SetServerInput of an input the file does not have")
	}
	v, err = e.app.Servers.SetServerInput("tok", "s3cret-token")
	if err != nil {
		t.Fatal(err)
	}
	if len(v.ServerInputs) != 1 || !v.ServerInputs[0].Answered || v.ServersError != "" {
		t.Errorf("after the answer: inputs %+v, error %q", v.ServerInputs, v.ServersError)
	}
	if strings.Contains(mustJSON(t, v), "s3cret-token") {
		t.Error("the settings view holds the answer")
	}
	// The file now loads without a problem: the banner is removed.
	if got := e.rec.all(EventNotice); len(got) != 1 || got[0] != (Notice{Level: NoticeInfo, Key: NoticeKeyServers}) {
		t.Errorf("notices after the answer = %+v; want only the removal of the servers banner", got)
	}
	if _, err := e.app.Chats.OpenChat("dev"); err != nil {
		t.Errorf("OpenChat after the answer = %v", err)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestServersEntryClashingWithTheAppsTools: an entry whose namespace is
// already the app's (here the native "test" tools) is that entry's error,
// at its name with the fix, as run and check report it; the app's own
// tools and the other entries keep working.
func TestServersEntryClashingWithTheAppsTools(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	servers := filepath.Join(t.TempDir(), "claude_desktop_config.json")
	dev, _ := json.Marshal(map[string]any{"command": exe, "env": map[string]string{serveDeviceEnv: "1"}})
	os.WriteFile(servers, []byte("{\"mcpServers\": {\n  \"test\": {\"command\": \"x\"},\n  \"device\": "+string(dev)+"}}"), 0o644)
	e := newTestEnv(t, envOpts{cfg: config{Servers: servers, Approve: "bypass"}})
	writeBundle(t, e.bundles, "dev", "device.battery_status_get")
	v, _ := e.app.Preferences.GetSettings()
	if !strings.Contains(v.ServersError, servers+":2:3") || !strings.Contains(v.ServersError, "rename the server") || v.ServersUnreadable {
		t.Errorf("ServersError = %q (unreadable %v); want the entry's file:line:col and the fix", v.ServersError, v.ServersUnreadable)
	}
	if _, err := e.app.Chats.OpenChat("dev"); err != nil {
		t.Errorf("the other entry's provider: %v", err)
	}
	if _, err := e.app.Chats.OpenChat("helper"); err != nil {
		t.Errorf("the app's own tools: %v", err)
	}
}
