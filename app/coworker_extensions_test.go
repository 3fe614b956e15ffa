//go:build unix

package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/extension"
	"github.com/openworker/desktop/harness/extension/extensiontest"
	"github.com/openworker/desktop/harness/extension/manifest"
	"github.com/openworker/desktop/harness/mcp/launch"
)

// installMemoryIn installs server-memory, packed by the official mcpb CLI,
// in the app's extensions folder under cfgDir (as `openworker extension
// install` does) and returns its installed folder.
func installMemoryIn(t *testing.T, cfgDir string, secrets *extension.MemorySecrets) string {
	t.Helper()
	return installIn(t, cfgDir, secrets, extensiontest.Memory(t, "1.0.0", false), map[string]any{"data_dir": t.TempDir(), "api_token": "tok-cw-1"})
}

// installIn installs the extension file in the app's extensions folder
// under cfgDir with values and returns its installed folder.
func installIn(t *testing.T, cfgDir string, secrets *extension.MemorySecrets, file string, values map[string]any) string {
	t.Helper()
	s := &extension.Store{Dir: filepath.Join(cfgDir, "extensions"), Secrets: secrets}
	in, err := s.Inspect(file, extension.InspectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	host, err := manifest.ThisHost()
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Install(in, values, host)
	if err != nil {
		t.Fatal(err)
	}
	return r.Dir
}

func coworkerNamed(t *testing.T, l CoworkerList, id string) CoworkerInfo {
	t.Helper()
	for _, c := range l.Coworkers {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("%s is not among the coworkers: %+v", id, l)
	return CoworkerInfo{}
}

func brokenNamed(t *testing.T, l CoworkerList, id string) BrokenBundle {
	t.Helper()
	for _, b := range l.Broken {
		if b.ID == id {
			return b
		}
	}
	t.Fatalf("%s is not among the broken bundles: %+v", id, l)
	return BrokenBundle{}
}

// TestCoworkerListShowsExtensionUse: a coworker that selects a tool of an
// installed extension lists that extension (name, display name, version,
// namespace); one that selects none (the test env's helper) lists none.
func TestCoworkerListShowsExtensionUse(t *testing.T) {
	cfgDir, secrets := t.TempDir(), &extension.MemorySecrets{}
	installMemoryIn(t, cfgDir, secrets)
	e := newTestEnv(t, envOpts{cfg: config{ConfigDir: cfgDir}, extSecrets: secrets})
	writeBundle(t, e.bundles, "keeper", "memory.create_entities", "memory.read_graph")
	l, err := e.app.Coworkers.Coworkers()
	if err != nil {
		t.Fatal(err)
	}
	keeper := coworkerNamed(t, l, "keeper")
	want := ExtensionUse{Name: "memory", DisplayName: "Memory (test)", Version: "1.0.0", Namespace: "memory"}
	if len(keeper.Extensions) != 1 || keeper.Extensions[0] != want {
		t.Fatalf("keeper extensions = %+v, want [%+v]", keeper.Extensions, want)
	}
	if helper := coworkerNamed(t, l, "helper"); helper.Extensions == nil || len(helper.Extensions) != 0 { // test.echo, a native tool
		t.Fatalf("helper extensions = %#v, want empty", helper.Extensions)
	}
}

// TestCoworkerExtensionRuntimeMissing: with no Node.js on the PATH the app
// starts programs on, the coworker that uses the node extension is broken
// and its fix names the extension and what to install.
func TestCoworkerExtensionRuntimeMissing(t *testing.T) {
	cfgDir, secrets := t.TempDir(), &extension.MemorySecrets{}
	installMemoryIn(t, cfgDir, secrets)
	empty := t.TempDir()
	sp := func(context.Context) launch.SearchPath {
		return launch.SearchPath{Path: empty, Source: launch.FromProcess}
	}
	e := newTestEnv(t, envOpts{cfg: config{ConfigDir: cfgDir}, extSecrets: secrets, searchPath: sp})
	writeBundle(t, e.bundles, "keeper", "memory.create_entities")
	l, err := e.app.Coworkers.Coworkers()
	if err != nil {
		t.Fatal(err)
	}
	b := brokenNamed(t, l, "keeper")
	want := `extension "Memory (test)" 1.0.0 (namespace memory) cannot run on this computer: this extension needs Node.js >=18.0.0, which was not found (install it from https://nodejs.org/); then restart OpenWorker`
	if b.Fix != want || !strings.Contains(b.Message, `program "node" cannot be found`) {
		t.Fatalf("keeper = %+v\nwant fix %q", b, want)
	}
}

// TestCoworkerExtensionDamaged: an installed extension whose manifest is
// gone is a broken provider; the coworker that uses it is broken with a
// fix that names the extension and says to reinstall it.
func TestCoworkerExtensionDamaged(t *testing.T) {
	cfgDir, secrets := t.TempDir(), &extension.MemorySecrets{}
	dir := installMemoryIn(t, cfgDir, secrets)
	if err := os.Remove(filepath.Join(dir, "manifest.json")); err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t, envOpts{cfg: config{ConfigDir: cfgDir}, extSecrets: secrets})
	writeBundle(t, e.bundles, "keeper", "memory.create_entities")
	l, err := e.app.Coworkers.Coworkers()
	if err != nil {
		t.Fatal(err)
	}
	b := brokenNamed(t, l, "keeper")
	if !strings.HasPrefix(b.Fix, `extension "Memory (test)" 1.0.0 (namespace memory) cannot be used: extension memory: `) || !strings.Contains(b.Fix, "install it again (from ") {
		t.Fatalf("keeper = %+v", b)
	}
	if !strings.Contains(b.Message, `its MCP provider "memory" is disabled: the installed extension cannot be used: extension memory: `) || strings.Contains(b.Message, "servers file") {
		t.Fatalf("keeper's message = %q, want it to name the extension, not the servers file", b.Message)
	}
}

// TestCoworkerExtensionInstalledAfterStart: an extension installed while
// the app runs, in a namespace the servers file already serves, is not
// said to be used by the coworker whose tools come from the servers
// file's provider (the registry, not the namespace alone, says whose the
// tools are).
func TestCoworkerExtensionInstalledAfterStart(t *testing.T) {
	node, entry := everythingServer(t)
	servers := filepath.Join(t.TempDir(), "servers.json")
	cfg, _ := json.Marshal(map[string]any{"servers": map[string]any{"memory": map[string]any{
		"transport": "stdio", "command": node, "args": []string{entry, "stdio"}}}})
	if err := os.WriteFile(servers, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	cfgDir, secrets := t.TempDir(), &extension.MemorySecrets{}
	e := newTestEnv(t, envOpts{cfg: config{ConfigDir: cfgDir, Servers: servers}, extSecrets: secrets})
	installMemoryIn(t, cfgDir, secrets)
	writeBundle(t, e.bundles, "echoer", "memory.echo") // server-everything's echo, from servers.json
	l, err := e.app.Coworkers.Coworkers()
	if err != nil {
		t.Fatal(err)
	}
	if c := coworkerNamed(t, l, "echoer"); len(c.Extensions) != 0 {
		t.Fatalf("echoer extensions = %+v, want none: its memory is the servers file's", c.Extensions)
	}
}
