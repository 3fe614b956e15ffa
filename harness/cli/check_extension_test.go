//go:build unix

package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/cli"
	"github.com/openworker/desktop/harness/extension"
	"github.com/openworker/desktop/harness/extension/extensiontest"
	"github.com/openworker/desktop/harness/extension/manifest"
	"github.com/openworker/desktop/harness/tool"
)

// installMemory installs server-memory packed by the official mcpb CLI in
// a fresh extensions folder and returns the folder.
func installMemory(t *testing.T, secrets *extension.MemorySecrets) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "extensions")
	s := &extension.Store{Dir: dir, Secrets: secrets}
	in, err := s.Inspect(extensiontest.Memory(t, "1.0.0", false), extension.InspectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	host, err := manifest.ThisHost()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Install(in, map[string]any{"data_dir": t.TempDir(), "api_token": "tok-check-1"}, host); err != nil {
		t.Fatal(err)
	}
	return dir
}

// writeKeeper writes a bundles folder with coworker keeper selecting tools.
func writeKeeper(t *testing.T, tools ...string) string {
	t.Helper()
	bundles := filepath.Join(t.TempDir(), "coworkers")
	writeBundleAt(t, bundles, "keeper", tools...)
	return bundles
}

func runCheck(t *testing.T, secrets *extension.MemorySecrets, args ...string) (int, string, string) {
	t.Helper()
	return runWithSecrets(secrets, "", false, append([]string{"check"}, args...)...)
}

// runWithSecrets runs one CLI invocation with secrets as the extension
// keychain, stdin as its input and terminal as whether it has one; it
// returns the exit code, stdout and stderr.
func runWithSecrets(secrets *extension.MemorySecrets, stdin string, terminal bool, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := cli.Run(context.Background(), tool.NewRegistry(), args,
		cli.WithIO(strings.NewReader(stdin), &out, &errb, func(string) string { return "" }, func() bool { return terminal }),
		cli.WithExtensionSecrets(secrets))
	return code, out.String(), errb.String()
}

// TestCheckShowsExtensionProvider: `check` says which coworker's tools
// come from an installed extension, in text and --json (its name,
// version, namespace, manifest and the coworkers that use it), the way
// it says which program a servers-file provider runs.
func TestCheckShowsExtensionProvider(t *testing.T) {
	secrets := &extension.MemorySecrets{}
	dir := installMemory(t, secrets)
	bundles := writeKeeper(t, "memory.create_entities")
	manifestFile := filepath.Join(dir, "memory", "1.0.0", "manifest.json")

	code, out, errs := runCheck(t, secrets, "--coworkers", bundles, "--extensions", dir)
	if code != 0 {
		t.Fatalf("check = %d\n%s\n%s", code, out, errs)
	}
	t.Logf("check printed:\n%s", out)
	want := `mcp:memory is extension memory 1.0.0 ("Memory (test)", ` + manifestFile + `)`
	if !strings.Contains(out, "ok      keeper") || !strings.Contains(out, want) {
		t.Fatalf("check printed:\n%s\nwant %q", out, want)
	}

	code, out, errs = runCheck(t, secrets, "--coworkers", bundles, "--extensions", dir, "--json")
	if code != 0 {
		t.Fatalf("check --json = %d\n%s\n%s", code, out, errs)
	}
	var rep struct {
		OK         []struct{ ID string } `json:"ok"`
		Extensions []extension.Provider
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rep.OK) != 1 || len(rep.Extensions) != 1 {
		t.Fatalf("check --json:\n%s", out)
	}
	e := rep.Extensions[0]
	if e.Name != "memory" || e.DisplayName != "Memory (test)" || e.Version != "1.0.0" || e.Namespace != "memory" ||
		e.Label != "extension memory 1.0.0" || e.Source != manifestFile || len(e.UsedBy) != 1 || e.UsedBy[0] != "keeper" || e.Broken != "" {
		t.Fatalf("extension = %+v", e)
	}

	// A coworker that selects none of its tools does not use it.
	other := writeKeeper(t, "memory_x.anything")
	_, out, _ = runCheck(t, secrets, "--coworkers", other, "--extensions", dir, "--json")
	if !strings.Contains(out, `"used_by": []`) {
		t.Fatalf("check --json of a coworker not using the extension:\n%s", out)
	}
}

// TestCheckExtensionRuntimeMissing: with Node.js on no folder of the PATH,
// the coworker that uses the node extension is broken and its fix names
// the extension and what to install (the runtime, its range and where to
// get it).
func TestCheckExtensionRuntimeMissing(t *testing.T) {
	secrets := &extension.MemorySecrets{}
	dir := installMemory(t, secrets)
	bundles := writeKeeper(t, "memory.create_entities")
	t.Setenv("PATH", t.TempDir()) // no node, python or uv

	code, out, errs := runCheck(t, secrets, "--coworkers", bundles, "--extensions", dir)
	if code != 2 {
		t.Fatalf("check = %d, want 2\n%s\n%s", code, out, errs)
	}
	t.Logf("check printed:\n%s%s", out, errs)
	want := `fix: extension "Memory (test)" 1.0.0 (namespace memory) cannot run on this computer: this extension needs Node.js >=18.0.0, which was not found (install it from https://nodejs.org/); then run check again`
	if !strings.Contains(out, "broken  keeper") || !strings.Contains(out, want) {
		t.Fatalf("check printed:\n%s\nwant %q", out, want)
	}

	_, out, _ = runCheck(t, secrets, "--coworkers", bundles, "--extensions", dir, "--json")
	var rep struct {
		Broken []struct {
			ID, Provider, Fix string
		} `json:"broken"`
		Extensions []extension.Provider
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rep.Broken) != 1 || rep.Broken[0].Provider != "memory" || !strings.Contains(rep.Broken[0].Fix, "install it from https://nodejs.org/") {
		t.Fatalf("check --json:\n%s", out)
	}
	if len(rep.Extensions) != 1 || len(rep.Extensions[0].Problems) != 1 || len(rep.Extensions[0].UsedBy) != 0 {
		t.Fatalf("extensions = %+v", rep.Extensions)
	}
}

// TestCheckExtensionNamespaceTaken: an extension whose namespace the
// servers file already has is a broken provider labelled as the
// extension, and check's error says so.
func TestCheckExtensionNamespaceTaken(t *testing.T) {
	secrets := &extension.MemorySecrets{}
	dir := installMemory(t, secrets)
	bundles := writeKeeper(t, "memory.create_entities")
	servers := filepath.Join(t.TempDir(), "servers.json")
	if err := os.WriteFile(servers, []byte(`{"mcpServers": {"memory": {"command": "node", "args": ["-e", "process.exit(3)"]}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCheck(t, secrets, "--coworkers", bundles, "--extensions", dir, "--servers", servers)
	if code != 2 {
		t.Fatalf("check = %d\n%s\n%s", code, out, errs)
	}
	t.Logf("check printed:\n%s%s", out, errs)
	if !strings.Contains(out, "broken  extension memory 1.0.0\n") || !strings.Contains(errs, "extension memory 1.0.0 is broken") {
		t.Fatalf("check printed:\n%s\n%s", out, errs)
	}
	if strings.Contains(out, "mcp:memory is extension") || strings.Contains(out, `fix: extension "Memory (test)"`) {
		t.Fatalf("the servers file's memory is said to be the extension:\n%s", out)
	}
}
