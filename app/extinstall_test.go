//go:build unix

package app

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/extension"
	"github.com/openworker/desktop/harness/extension/extensiontest"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// lockedBuffer is a log sink safe for the app's goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// noFileHolds fails when a file under dir contains secret.
func noFileHolds(t *testing.T, dir, secret string) {
	t.Helper()
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, []byte(secret)) {
			t.Errorf("%s holds the sensitive value", p)
		}
		return nil
	})
}

// TestExtensionInstallInTheApp: the installer's bindings on a real packed
// server-memory extension. The preview shows the manifest, the runtime
// found, the form's fields and a digest; the install keeps the sensitive
// value in the keychain only (no file under the config folder, not the
// log); a new chat of a coworker that selects the extension's tool then
// resolves without restarting the app, its call asks as usual and runs;
// the list shows it; removing it takes it away from new chats and its
// keychain value goes.
func TestExtensionInstallInTheApp(t *testing.T) {
	data := t.TempDir()
	secrets := &extension.MemorySecrets{}
	logs := &lockedBuffer{}
	args, _ := json.Marshal(map[string]any{"entities": []map[string]any{{"name": "Ada", "entityType": "person", "observations": []string{"wrote notes"}}}})
	e := newTestEnv(t, envOpts{extSecrets: secrets, logger: slog.New(slog.NewJSONHandler(logs, nil)), replies: []modeltest.Reply{
		{ToolCalls: []model.ToolCall{{ID: "c1", Name: "memory__create_entities", Arguments: string(args)}}},
		{Text: "Noted."},
	}})
	writeBundle(t, e.bundles, "keeper", "memory.create_entities")
	if _, err := e.app.Chats.OpenChat("keeper"); err == nil {
		t.Fatal("keeper resolved before the extension was installed")
	}
	file := extensiontest.Memory(t, "1.0.0", false)
	p, err := e.app.Extensions.PreviewExtension(file)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "memory" || p.DisplayName != "Memory (test)" || p.Version != "1.0.0" || p.Namespace != "memory" || p.Installed != "" ||
		p.Author.Name != "OpenWorker tests" || p.ServerType != "node" || p.Signature.Status != "unsigned" || len(p.Blocking) != 0 ||
		len(p.Tools) != 2 || p.Tools[1].Name != "read_graph" || p.Files != 2 || p.Bytes == 0 || len(p.Digest) != 64 {
		t.Fatalf("preview = %+v", p)
	}
	if p.Runtime.Name != "node" || p.Runtime.Found == "" || p.Runtime.Range != ">=18.0.0" || !strings.Contains(p.Runtime.URL, "nodejs.org") {
		t.Fatalf("runtime = %+v (node is on the search PATH)", p.Runtime)
	}
	if p.Runs != "node ${__dirname}/server/index.mjs" || p.Environment != "API_TOKEN=${user_config.api_token} MEMORY_FILE_PATH=${user_config.data_dir}/memory.jsonl" {
		t.Fatalf("runs = %q, environment = %q: want the manifest's, before substitution", p.Runs, p.Environment)
	}
	// In the file's order (MemoryManifest marshals its keys sorted).
	if len(p.Fields) != 2 || p.Fields[1].Key != "data_dir" || p.Fields[1].Type != "directory" || !p.Fields[1].Required ||
		p.Fields[0].Key != "api_token" || !p.Fields[0].Sensitive || p.Fields[0].Type != "string" {
		t.Fatalf("fields = %+v", p.Fields)
	}
	const token = "tok-installer-7f3a"
	got, err := e.app.Extensions.InstallExtension(file, p.Digest, map[string]any{"data_dir": data, "api_token": token}, false)
	if err != nil {
		t.Fatal(err)
	}
	if got != (ExtensionInstalled{Name: "memory", DisplayName: "Memory (test)", Version: "1.0.0", Namespace: "memory"}) {
		t.Fatalf("installed = %+v", got)
	}
	if v, _ := secrets.Get("memory", "api_token"); v != token {
		t.Fatalf("keychain api_token = %q", v)
	}
	noFileHolds(t, e.cfgDir, token)
	if strings.Contains(logs.String(), token) {
		t.Fatal("the log holds the sensitive value")
	}
	list, err := e.app.Extensions.Extensions()
	if err != nil || len(list) != 1 || list[0].Name != "memory" || list[0].Namespace != "memory" || list[0].Version != "1.0.0" ||
		list[0].Signature != "unsigned" || len(list[0].Sensitive) != 1 || list[0].Sensitive[0] != "api_token" || list[0].Error != "" {
		t.Fatalf("Extensions() = %+v, %v", list, err)
	}

	chat, err := e.app.Chats.OpenChat("keeper") // the same app: no restart
	if err != nil {
		t.Fatal(err)
	}
	done := sendAsync(e.app, chat.SessionID, "remember Ada")
	allowNext(t, e) // installing granted nothing
	if res := waitResult(t, done); res.Status != harness.TurnCompleted {
		t.Fatalf("turn = %+v", res)
	}
	if b, err := os.ReadFile(filepath.Join(data, "memory.jsonl")); err != nil || !strings.Contains(string(b), "Ada") {
		t.Fatalf("memory file = %q, %v", b, err)
	}
	if err := e.app.Chats.CloseChat(chat.SessionID); err != nil {
		t.Fatal(err)
	}

	left, err := e.app.Extensions.RemoveExtension("memory")
	if err != nil || len(left) != 0 {
		t.Fatalf("RemoveExtension = %+v, %v", left, err)
	}
	if secrets.Len() != 0 {
		t.Fatal("the keychain value stayed after the remove")
	}
	if _, err := os.Stat(filepath.Join(e.cfgDir, "extensions", "memory")); !os.IsNotExist(err) {
		t.Fatalf("the extension folder stayed: %v", err)
	}
	if _, err := e.app.Chats.OpenChat("keeper"); err == nil || !strings.Contains(err.Error(), "memory") {
		t.Fatalf("after the remove a new chat of keeper opened (err %v)", err)
	}
	if strings.Contains(logs.String(), token) {
		t.Fatal("the log holds the sensitive value")
	}
}

// TestExtensionInstallRefusesAChangedFile: a file that changed between
// the preview and the install (another version in its place) is refused
// with an error saying so, and nothing is installed.
func TestExtensionInstallRefusesAChangedFile(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	file := extensiontest.Memory(t, "1.0.0", false)
	p, err := e.app.Extensions.PreviewExtension(file)
	if err != nil {
		t.Fatal(err)
	}
	other, err := os.ReadFile(extensiontest.Memory(t, "2.0.0", false))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, other, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = e.app.Extensions.InstallExtension(file, p.Digest, map[string]any{"data_dir": t.TempDir(), "api_token": "x"}, false)
	if err == nil || !strings.Contains(err.Error(), "changed since it was shown") || !strings.Contains(err.Error(), "nothing was installed") {
		t.Fatalf("install of a changed file: %v", err)
	}
	if list, _ := e.app.Extensions.Extensions(); len(list) != 0 {
		t.Fatalf("installed anyway: %+v", list)
	}
	if _, err := os.Stat(filepath.Join(e.cfgDir, "extensions")); !os.IsNotExist(err) {
		t.Fatalf("the extensions folder was made: %v", err)
	}
}

// TestExtensionPreviewErrors: a file that is not an archive gives the
// archive's error naming the file; a namespace the servers file has is
// not given to the extension.
func TestExtensionPreviewErrors(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	bad := filepath.Join(t.TempDir(), "weather.mcpb")
	if err := os.WriteFile(bad, []byte("not a zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := e.app.Extensions.PreviewExtension(bad); err == nil || !strings.Contains(err.Error(), "weather.mcpb") {
		t.Fatalf("preview of a non-zip: %v", err)
	}
	if _, err := e.app.Extensions.InstallExtension(bad, "", nil, false); err == nil {
		t.Fatal("a non-zip installed")
	}
}

// TestExtensionDroppedOpensTheInstaller: a .mcpb dropped on the window is
// an ExtensionOpened as from the command line; a folder dropped with it
// still goes to the Coworkers screen: a bundle folder to Add coworker, a
// file to the import of agents.
func TestExtensionDroppedOpensTheInstaller(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	if _, err := e.app.Window.Info(); err != nil { // the UI listens
		t.Fatal(err)
	}
	file := extensiontest.Memory(t, "1.0.0", false)
	folder := t.TempDir()
	if err := os.MkdirAll(filepath.Join(folder, "coworker"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(folder, "coworker", "manifest.md"), []byte("---\nname: x\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	agent := filepath.Join(t.TempDir(), "reviewer.md")
	e.app.Window.filesDropped([]string{file, folder, agent})
	got := e.rec.waitFor(t, EventExtensionOpened, nil).(ExtensionOpened)
	if got.Path != file || got.Error != "" || got.Size == 0 {
		t.Fatalf("opened = %+v", got)
	}
	d := e.rec.waitFor(t, EventBundleDropped, nil).(BundleDropped)
	if len(d.Paths) != 1 || d.Paths[0] != folder {
		t.Fatalf("dropped = %+v", d)
	}
	ag := e.rec.waitFor(t, EventAgentsDropped, nil).(BundleDropped)
	if len(ag.Paths) != 1 || ag.Paths[0] != agent {
		t.Fatalf("agents dropped = %+v", ag)
	}
}

// TestExtensionUpgradeFormShowsTheInstalledValues: on an upgrade the form
// starts from the installed version's values, not the new manifest's
// defaults, so that Install as shown keeps them ("its settings are
// kept"); a sensitive one is never shown, only marked kept.
func TestExtensionUpgradeFormShowsTheInstalledValues(t *testing.T) {
	e := newTestEnv(t, envOpts{extSecrets: &extension.MemorySecrets{}})
	data := t.TempDir()
	p, err := e.app.Extensions.PreviewExtension(extensiontest.Memory(t, "1.0.0", false))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.app.Extensions.InstallExtension(p.Path, p.Digest, map[string]any{"data_dir": data, "api_token": "tok-upgrade-1"}, false); err != nil {
		t.Fatal(err)
	}
	up, err := e.app.Extensions.PreviewExtension(extensiontest.Memory(t, "1.1.0", false))
	if err != nil {
		t.Fatal(err)
	}
	if up.Installed != "1.0.0" {
		t.Fatalf("installed = %q, want 1.0.0", up.Installed)
	}
	for _, f := range up.Fields {
		switch f.Key {
		case "data_dir":
			if f.Default != data || !f.Kept {
				t.Errorf("data_dir: default %v, kept %v; want the installed %q, kept", f.Default, f.Kept, data)
			}
		case "api_token":
			if f.Default != nil || !f.Kept {
				t.Errorf("api_token: default %v, kept %v; want no value shown, kept", f.Default, f.Kept)
			}
		}
	}
}

// TestExtensionPreviewRuntimeOutOfRange: a runtime found on the search
// PATH but outside the manifest's range (python >=3.99) does not fit, so
// the dialog does not say it was found as if that were enough; node for
// server-memory (>=18.0.0) fits.
func TestExtensionPreviewRuntimeOutOfRange(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	m := `{"manifest_version": "0.3", "name": "pyfuture", "version": "1.0.0", "description": "Needs a future Python.", "author": {"name": "QA"},
  "server": {"type": "python", "entry_point": "server/main.py", "mcp_config": {"command": "python3", "args": ["${__dirname}/server/main.py"]}},
  "compatibility": {"runtimes": {"python": ">=3.99"}}}`
	file := extensiontest.Pack(t, "pyfuture", map[string]extensiontest.File{"manifest.json": {Data: m}, "server/main.py": {Data: "print('hi')\n"}}, false)
	p, err := e.app.Extensions.PreviewExtension(file)
	if err != nil {
		t.Fatal(err)
	}
	if p.Runtime.Found == "" {
		t.Skip("no python on the search PATH: the out-of-range case needs one")
	}
	if p.Runtime.Fits || len(p.Warnings) == 0 {
		t.Fatalf("python %s for >=3.99: fits %v, warnings %q; want not fitting, with a warning", p.Runtime.Found, p.Runtime.Fits, p.Warnings)
	}
	mem, err := e.app.Extensions.PreviewExtension(extensiontest.Memory(t, "1.0.0", false))
	if err != nil {
		t.Fatal(err)
	}
	if mem.Runtime.Found == "" || !mem.Runtime.Fits {
		t.Fatalf("node for >=18.0.0: %+v; want found and fitting", mem.Runtime)
	}
}

// pickAll records which chooser each field kind opens.
type pickAll struct{ calls []string }

func (p *pickAll) ChooseDirectory(title, _ string) (string, error) {
	p.calls = append(p.calls, "directory:"+title)
	return "/d", nil
}
func (p *pickAll) ChooseFile(title, _ string) (string, error) {
	p.calls = append(p.calls, "json-first:"+title)
	return "/f.json", nil
}
func (p *pickAll) ChooseAnyFile(title, _ string) (string, error) {
	p.calls = append(p.calls, "any:"+title)
	return "/f.bin", nil
}
func (p *pickAll) ChooseExtension(string, string) (string, error) { return "", nil }
func (p *pickAll) ChooseFiles(title, _ string) ([]string, error) {
	p.calls = append(p.calls, "files:"+title)
	return []string{"/a", "/b"}, nil
}

// TestExtensionFieldPickers: a directory field opens the folder chooser,
// a file field the chooser of any file (not the servers import's JSON
// one), a multiple file field the chooser of several files; an unknown
// kind is an error naming the kinds.
func TestExtensionFieldPickers(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	pick := &pickAll{}
	e.app.dialogs = pick
	for _, c := range []struct {
		kind string
		want []string
	}{{"directory", []string{"/d"}}, {"file", []string{"/f.bin"}}, {"files", []string{"/a", "/b"}}} {
		got, err := e.app.Extensions.ChooseExtensionPath(c.kind, "T")
		if err != nil || !slices.Equal(got, c.want) {
			t.Fatalf("ChooseExtensionPath(%q) = %q, %v; want %q", c.kind, got, err, c.want)
		}
	}
	if want := []string{"directory:T", "any:T", "files:T"}; !slices.Equal(pick.calls, want) {
		t.Fatalf("choosers = %q, want %q", pick.calls, want)
	}
	if _, err := e.app.Extensions.ChooseExtensionPath("folder", "T"); err == nil || !strings.Contains(err.Error(), "use directory, file or files") {
		t.Fatalf("unknown kind: %v", err)
	}
}
