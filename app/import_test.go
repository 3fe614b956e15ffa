package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/servers"
	"github.com/zalando/go-keyring"
)

// importFixtures are the config files of other clients the import tests
// read, under dir as the clients keep them (XDG layout).
type importFixtures struct {
	claude, vscode, cursor string
}

// writeImportFixtures writes, under xdg (XDG_CONFIG_HOME) and home:
//   - Claude Desktop's file: an extra top-level key, a dotted name whose
//     server is this test binary as a real stdio provider (with "$$" in a
//     password and autoApprove), a remote server with credentials in its
//     URL and headers, and an entry without a command;
//   - VS Code's user mcp.json: comments, a trailing comma, an input used
//     by a stdio server (again this binary) and by a remote one's header;
//   - Cursor's file, malformed.
func writeImportFixtures(t *testing.T, xdg, home string) importFixtures {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f := importFixtures{
		claude: filepath.Join(xdg, "Claude", "claude_desktop_config.json"),
		vscode: filepath.Join(xdg, "Code", "User", "mcp.json"),
		cursor: filepath.Join(home, ".cursor", "mcp.json"),
	}
	dev, _ := json.Marshal(map[string]any{"command": exe, "env": map[string]string{serveDeviceEnv: "1", "DB_PASSWORD": "pa$$word"},
		"autoApprove": []string{"battery_status_get"}})
	vsdev, _ := json.Marshal(map[string]any{"type": "stdio", "command": exe, "env": map[string]string{serveDeviceEnv: "1", "API_TOKEN": "${input:api-token}"}})
	files := map[string]string{
		f.claude: `{
  "globalShortcut": "Ctrl+Space",
  "mcpServers": {
    "core.dev": ` + string(dev) + `,
    "remote": {"url": "https://user:hunter22@mcp.example.com/mcp?key=s3cr3tkey", "headers": {"Authorization": "Bearer tok-abcdef"}},
    "no-command": {"args": ["x"]}
  }
}
`,
		f.vscode: `{
  // VS Code's user servers
  "inputs": [{"type": "promptString", "id": "api-token", "description": "Device API token", "password": true}],
  "servers": {
    "vsdev": ` + string(vsdev) + `,
    /* a remote one */
    "github": {"type": "http", "url": "https://mcp.example.com/github/", "headers": {"Authorization": "Bearer ${input:api-token}"}},
  },
}
`,
		f.cursor: "{\"mcpServers\": {\n  \"x\": {\"command\" 1}}}",
	}
	for path, body := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func planItem(t *testing.T, p *servers.ImportPlan, name string) servers.ImportItem {
	t.Helper()
	for _, it := range p.Items {
		if it.Name == name {
			return it
		}
	}
	t.Fatalf("no item %q in the plan: %+v", name, p.Items)
	return servers.ImportItem{}
}

func savedServersPath(t *testing.T, e *testEnv) string {
	t.Helper()
	s, err := LoadSettings(filepath.Join(e.cfgDir, "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	return s.ServersPath
}

// pickFile is a Dialogs that answers every file question with path.
type pickFile struct{ path, title, start string }

func (p *pickFile) ChooseDirectory(string, string) (string, error) { return "", nil }
func (p *pickFile) ChooseFile(title, start string) (string, error) {
	p.title, p.start = title, start
	return p.path, nil
}

// TestFindServerConfigs: the files of Claude Desktop, VS Code and Cursor at
// their default places under HOME and XDG_CONFIG_HOME are found, each with
// its number of servers or, for the malformed one, its file and line; the
// one in use is marked; the picker starts in the home folder.
func TestFindServerConfigs(t *testing.T) {
	home, xdg := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", xdg)
	t.Setenv("USERPROFILE", home) // Windows' HOME
	t.Setenv("APPDATA", xdg)      // Windows' config dir
	f := writeImportFixtures(t, xdg, home)
	e := newTestEnv(t, envOpts{cfg: config{Servers: f.vscode}})
	found, err := e.app.Servers.FindServerConfigs()
	if err != nil {
		t.Fatal(err)
	}
	want := []FoundServerConfig{
		{Client: "Claude Desktop", Path: f.claude, Format: "claude-desktop", Servers: 3},
		{Client: "Cursor", Path: f.cursor, Format: "cursor"},
		{Client: "VS Code", Path: f.vscode, Format: "vscode", Servers: 2, InUse: true},
	}
	if len(found) != len(want) {
		t.Fatalf("found %+v; want %d files", found, len(want))
	}
	for i, w := range want {
		g := found[i]
		if w.Client == "Cursor" {
			if !strings.Contains(g.Error, f.cursor+":2:") {
				t.Errorf("Cursor's malformed file: error %q; want its file and line", g.Error)
			}
			g.Error = ""
		}
		if g != w {
			t.Errorf("found[%d] = %+v; want %+v", i, g, w)
		}
	}

	pick := &pickFile{path: f.claude}
	e.app.dialogs = pick
	if got, err := e.app.Servers.ChooseImportFile(); err != nil || got != f.claude || pick.start != home {
		t.Errorf("ChooseImportFile = %q, %v (started in %q); want the picked file, from %s", got, err, pick.start, home)
	}

	os.RemoveAll(home)
	os.RemoveAll(xdg)
	if found, err := e.app.Servers.FindServerConfigs(); err != nil || len(found) != 0 {
		t.Errorf("with no client files: %+v, %v", found, err)
	}
}

// TestImportIntoTheApp: a preview shows what each entry of Claude
// Desktop's file becomes, with no secret, and writes nothing; a change of
// the file after the preview is refused and writes nothing; the import
// confirmed writes the app's servers.json, points Settings at it, and a
// new chat uses the imported provider (a real stdio server) at once. Then
// VS Code's file is added to it (the old file kept as .bak), and its input
// is asked in Settings afterwards.
func TestImportIntoTheApp(t *testing.T) {
	keyring.MockInit()
	home, xdg := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", xdg)
	f := writeImportFixtures(t, xdg, home)
	e := newTestEnv(t, envOpts{cfg: config{Approve: "bypass"}, replies: []modeltest.Reply{
		{ToolCalls: []model.ToolCall{{ID: "c1", Name: "core_dev__battery_status_get", Arguments: `{}`}}},
		{Text: "battery read"},
	}})
	writeBundle(t, e.bundles, "dev", "core_dev.battery_status_get")
	writeBundle(t, e.bundles, "vsdev", "vsdev.battery_status_get")
	dest := filepath.Join(e.cfgDir, "servers.json")
	if _, err := e.app.Chats.OpenChat("dev"); err == nil {
		t.Fatal("dev opened before its provider was imported")
	}

	plan, err := e.app.Servers.PreviewImport(f.claude)
	if err != nil {
		t.Fatal(err)
	}
	if plan.From != f.claude || plan.Format != servers.FormatClaudeDesktop || plan.Dest != dest || plan.Kept != 0 || plan.Added() != 2 {
		t.Fatalf("plan = from %s (%s) to %s, kept %d, adds %d", plan.From, plan.Format, plan.Dest, plan.Kept, plan.Added())
	}
	exe, _ := os.Executable()
	dev := planItem(t, plan, "core.dev")
	if dev.Action != servers.ImportAdd || dev.Namespace != "core_dev" || dev.Transport != "stdio" || dev.Placement != "on this computer" ||
		dev.Target != exe || strings.Join(dev.EnvKeys, ",") != "DB_PASSWORD,"+serveDeviceEnv {
		t.Errorf("core.dev = %+v", dev)
	}
	if n := strings.Join(dev.Notices, "\n"); !strings.Contains(n, `gets the namespace "core_dev"`) || !strings.Contains(n, "approvals are asked in OpenWorker") {
		t.Errorf("core.dev notices = %q; want the derived namespace and autoApprove ignored", n)
	}
	remote := planItem(t, plan, "remote")
	if remote.Action != servers.ImportAdd || remote.Transport != "streamable_http" || remote.Placement != "mcp.example.com" ||
		remote.Target != "https://mcp.example.com/mcp" || strings.Join(remote.EnvKeys, ",") != "Authorization" {
		t.Errorf("remote = %+v", remote)
	}
	if bad := planItem(t, plan, "no-command"); bad.Action != servers.ImportSkip || !strings.Contains(bad.Why, f.claude+":6:") {
		t.Errorf("no-command = %+v; want skipped with its file and line", bad)
	}
	if len(plan.Notices) != 1 || !strings.Contains(plan.Notices[0], `"globalShortcut" is ignored`) {
		t.Errorf("plan notices = %q", plan.Notices)
	}
	if got := len(plan.Secrets()); got != 2 || dev.Secrets[0].Field != "env.DB_PASSWORD" || remote.Secrets[0].Field != "headers.Authorization" || plan.NoKeychain != "" {
		t.Errorf("secrets to move = %+v, %+v (no keychain %q); want DB_PASSWORD and Authorization", dev.Secrets, remote.Secrets, plan.NoKeychain)
	}
	if js := mustJSON(t, plan); strings.Contains(js, "pa$$word") || strings.Contains(js, "hunter22") || strings.Contains(js, "s3cr3tkey") || strings.Contains(js, "tok-abcdef") {
		t.Errorf("the preview shows a secret: %s", js)
	}
	if _, err := os.Stat(dest); err == nil {
		t.Fatal("the preview wrote the servers file")
	}

	// The file changes between the preview and the confirmation.
	before, _ := os.ReadFile(f.claude)
	os.WriteFile(f.claude, []byte(strings.Replace(string(before), `"no-command"`, `"other": {"command": "other-server"}, "no-command"`, 1)), 0o600)
	if _, err := e.app.Servers.ApplyImport(f.claude, plan.Digest, nil); err == nil || !strings.Contains(err.Error(), "changed since the preview") {
		t.Fatalf("ApplyImport after a change = %v; want a refusal", err)
	}
	if _, err := os.Stat(dest); err == nil || savedServersPath(t, e) != "" {
		t.Fatal("a refused import wrote the servers file or the settings")
	}
	os.WriteFile(f.claude, before, 0o600)

	v, err := e.app.Servers.ApplyImport(f.claude, plan.Digest, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.Settings.ServersPath != dest || v.ServersLoaded != dest || savedServersPath(t, e) != dest {
		t.Errorf("after the import: settings use %q (loaded %q, saved %q); want %s", v.Settings.ServersPath, v.ServersLoaded, savedServersPath(t, e), dest)
	}
	if _, err := os.Stat(dest + ".bak"); err == nil {
		t.Error("a .bak of a servers file that did not exist")
	}
	// The literal secrets moved to the keychain: servers.json names inputs,
	// and reading it with the keychain gives the servers their values.
	if raw, _ := os.ReadFile(dest); strings.Contains(string(raw), "pa$$") || strings.Contains(string(raw), "tok-abcdef") ||
		!strings.Contains(string(raw), "${input:core_dev-DB_PASSWORD}") || !strings.Contains(string(raw), "Bearer ${input:remote-header-Authorization}") {
		t.Errorf("servers.json after the import:\n%s", raw)
	}
	written, err := servers.ReadConfig(dest, &servers.ConfigOptions{Inputs: servers.KeychainInputs(nil, nil)})
	if err != nil || written.Format != servers.FormatOpenWorker || len(written.Entries) != 2 {
		t.Fatalf("written file: %+v, %v", written, err)
	}
	if got := written.Entries[0].Server.Env["DB_PASSWORD"]; got != "pa$$word" {
		t.Errorf("DB_PASSWORD = %q from the keychain; want pa$$word, as Claude Desktop passes it", got)
	}
	if got := written.Entries[1].Server.Headers["Authorization"]; got != "Bearer tok-abcdef" {
		t.Errorf("Authorization = %q from the keychain", got)
	}
	chat, err := e.app.Chats.OpenChat("dev")
	if err != nil {
		t.Fatalf("a new chat after the import: %v", err)
	}
	if res, err := e.app.Chats.Send(chat.SessionID, "battery?"); err != nil || res.Status != "completed" || res.Calls != 1 {
		t.Fatalf("turn with the imported provider = %+v, %v", res, err)
	}

	// VS Code's file: the two entries in use are kept, its two added.
	plan, err = e.app.Servers.PreviewImport(f.vscode)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Dest != dest || plan.Kept != 2 || plan.Added() != 2 {
		t.Fatalf("VS Code plan: dest %s, kept %d, adds %d", plan.Dest, plan.Kept, plan.Added())
	}
	vs := planItem(t, plan, "vsdev")
	if strings.Join(vs.Inputs, ",") != "api-token" || vs.Action != servers.ImportAdd || vs.Target != exe || strings.Join(vs.EnvKeys, ",") != "API_TOKEN,"+serveDeviceEnv {
		t.Errorf("vsdev = %+v; want added, asking api-token", vs)
	}
	if gh := planItem(t, plan, "github"); gh.Placement != "mcp.example.com" || strings.Join(gh.Inputs, ",") != "api-token" {
		t.Errorf("github = %+v", gh)
	}
	inUse, _ := os.ReadFile(dest)
	gen := e.app.engine.runtime().Generation()
	if v, err = e.app.Servers.ApplyImport(f.vscode, plan.Digest, nil); err != nil {
		t.Fatal(err)
	}
	// The import applies the file (one registry generation), then its
	// live reload does (another, then the coworkers are listed anew): the
	// unanswered input is asked in Settings, not announced as a problem.
	e.rec.waitFor(t, EventCoworkersChanged, func(any) bool { return e.app.engine.runtime().Generation() >= gen+2 })
	for _, n := range e.rec.all(EventNotice) {
		if strings.Contains(n.(Notice).Message, "api-token") {
			t.Errorf("notice after the import: %+v", n)
		}
	}
	if bak, _ := os.ReadFile(dest + ".bak"); string(bak) != string(inUse) {
		t.Errorf(".bak = %q; want the file before the import", bak)
	}
	// The secrets moved by the first import are inputs answered already.
	if len(v.ServerInputs) != 3 || v.ServerInputs[2].ID != "api-token" || v.ServerInputs[2].Answered || !v.ServerInputs[0].Answered || !v.ServerInputs[1].Answered {
		t.Errorf("ServerInputs = %+v; want the two moved secrets answered, api-token not", v.ServerInputs)
	}
	if _, err := e.app.Chats.OpenChat("vsdev"); err == nil || !strings.Contains(err.Error(), `input "api-token"`) {
		t.Errorf("vsdev before its input is answered: %v", err)
	}
	if _, err := e.app.Servers.SetServerInput("api-token", "t0ken"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.app.Chats.OpenChat("vsdev"); err != nil {
		t.Errorf("vsdev after its input is answered: %v", err)
	}
	if _, err := e.app.Chats.OpenChat("dev"); err != nil {
		t.Errorf("dev after the second import: %v", err)
	}

	// A server named like the app's own tools could never load: skipped.
	own := filepath.Join(home, "own.json")
	os.WriteFile(own, []byte(`{"mcpServers": {"test": {"command": "other-echo"}}}`), 0o600)
	if plan, err := e.app.Servers.PreviewImport(own); err != nil || plan.Added() != 0 ||
		!strings.Contains(planItem(t, plan, "test").Why, "built-in tools such as test.echo") {
		t.Errorf("a server in the namespace of a native tool: %+v, %v", plan, err)
	}

	// The same file again adds nothing and writes nothing.
	plan, err = e.app.Servers.PreviewImport(f.vscode)
	if err != nil || plan.Added() != 0 {
		t.Fatalf("second preview: %+v, %v", plan, err)
	}
	now, _ := os.ReadFile(dest)
	if _, err := e.app.Servers.ApplyImport(f.vscode, plan.Digest, nil); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(dest); string(again) != string(now) {
		t.Error("an import that adds nothing rewrote the file")
	}
}

// TestImportFromAnotherClientsFileInUse: when Settings use Claude
// Desktop's file as it is, an entry of it that cannot be written again
// stops the import (fix it first); then an import writes the app's own
// servers.json with that file's entries and the new ones, and Settings
// switch to it. When that servers.json exists already, the import is
// refused (one would be written over the other) and nothing is written.
func TestImportFromAnotherClientsFileInUse(t *testing.T) {
	keyring.MockInit()
	home, xdg := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", xdg)
	f := writeImportFixtures(t, xdg, home)
	e := newTestEnv(t, envOpts{cfg: config{Servers: f.claude}})
	dest := filepath.Join(e.cfgDir, "servers.json")
	if _, err := e.app.Servers.PreviewImport(f.vscode); err == nil || !strings.Contains(err.Error(), f.claude+":6: the entry \"no-command\"") {
		t.Fatalf("PreviewImport with a broken entry in use = %v; want it named", err)
	}
	claude, _ := os.ReadFile(f.claude)
	os.WriteFile(f.claude, []byte(strings.Replace(string(claude), `,
    "no-command": {"args": ["x"]}`, "", 1)), 0o600)

	plan, err := e.app.Servers.PreviewImport(f.vscode)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Dest != dest || plan.Kept != 2 || plan.Added() != 2 {
		t.Fatalf("plan: dest %s, kept %d, adds %d; want the app's servers.json, 2 kept, 2 added", plan.Dest, plan.Kept, plan.Added())
	}
	v, err := e.app.Servers.ApplyImport(f.vscode, plan.Digest, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.Settings.ServersPath != dest || savedServersPath(t, e) != dest {
		t.Errorf("settings use %q (saved %q); want %s", v.Settings.ServersPath, savedServersPath(t, e), dest)
	}
	if cfg, err := servers.ReadConfig(dest, nil); err != nil || len(cfg.Entries) != 4 {
		t.Fatalf("written: %+v, %v; want the 2 entries in use and the 2 imported", cfg, err)
	}
	if now, _ := os.ReadFile(f.claude); strings.Contains(string(now), "vsdev") {
		t.Error("Claude Desktop's file was written")
	}

	// Back to Claude Desktop's file, with the app's servers.json there.
	s := v.Settings
	s.ServersPath = f.claude
	if _, err := e.app.Preferences.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	written, _ := os.ReadFile(dest)
	if _, err := e.app.Servers.PreviewImport(f.vscode); err == nil || !strings.Contains(err.Error(), "choose "+dest+" in Settings first") {
		t.Fatalf("PreviewImport with both files = %v; want a refusal", err)
	}
	if _, err := e.app.Servers.ApplyImport(f.vscode, plan.Digest, nil); err == nil {
		t.Fatal("ApplyImport with both files wrote")
	}
	if now, _ := os.ReadFile(dest); string(now) != string(written) || savedServersPath(t, e) != f.claude {
		t.Error("a refused import changed the servers file or the settings")
	}
}
