package cli_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/extension"
	"github.com/openworker/desktop/harness/extension/extensiontest"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// TestExtensionSandboxed: `extension install --sandbox default` runs the
// binary extension's server in the default sandbox with the folder of
// its settings writable: a turn calls its tools, the journal records the
// sandbox in the placement, `extension list` says default, and
// `extension sandbox NAME off` takes it out again; a bad choice is a
// usage error naming both.
func TestExtensionSandboxed(t *testing.T) {
	file := extensiontest.Echo(t, "1.1.0", 0o755, false)
	secrets := &extension.MemorySecrets{}
	dir := filepath.Join(t.TempDir(), "extensions")
	cliRun := func(args ...string) (int, string, string) { return runWithSecrets(secrets, "", false, args...) }
	notes := t.TempDir()
	code, out, errs := cliRun("extension", "install", file, "--extensions", dir, "--set", "prefix=hey", "--set", "token=t0k", "--set", "workdir="+notes, "--sandbox", "default", "--yes")
	if code != 0 || !strings.Contains(out, "it runs sandboxed: reads system files") {
		t.Fatalf("install = %d\n%s\n%s", code, out, errs)
	}
	bundles := filepath.Join(t.TempDir(), "coworkers")
	writeBundleAt(t, bundles, "parrot", "echo.echo")
	m := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "echo__echo", Arguments: `{"text":"ping"}`}}},
		modeltest.Reply{Text: "Echoed."})
	db := filepath.Join(t.TempDir(), "journal.db")
	code, out, errs = cliRun("run", "--coworkers", bundles, "--coworker", "parrot", "--extensions", dir, "--db", db,
		"--base-url", m.URL, "--model", "test", "--approve", "bypass", "Echo ping.")
	if code != 0 || !strings.Contains(errs, "✓ echo.echo succeeded") {
		t.Fatalf("run = %d\n%s\n%s", code, out, errs)
	}
	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	sessions, _ := j.Sessions(context.Background(), 10)
	invs, _ := j.Invocations(context.Background(), sessions[0].ID)
	j.Close()
	if len(invs) != 1 || !strings.HasPrefix(invs[0].Placement, tool.PlacementLocal+" (sandboxed: ") || !strings.Contains(invs[0].Placement, notes) || !strings.Contains(invs[0].Placement, "no network") {
		t.Fatalf("journaled = %+v; want the sandbox with the settings folder in the placement", invs)
	}
	code, out, _ = cliRun("extension", "list", "--extensions", dir)
	if code != 0 || !strings.Contains(out, "SANDBOX") || !strings.Contains(out, " default ") {
		t.Errorf("list = %d\n%s", code, out)
	}
	code, out, _ = cliRun("extension", "sandbox", "echo", "off", "--extensions", dir)
	if code != 0 || !strings.Contains(out, "extension echo runs with your full access") {
		t.Errorf("sandbox off = %d\n%s", code, out)
	}
	strict := filepath.Join(t.TempDir(), "coworkers")
	writeBundleAt(t, strict, "strict", "echo.echo")
	manifest := filepath.Join(strict, "strict", "coworker", "manifest.md")
	os.WriteFile(manifest, []byte("---\nid: strict\nname: strict\nversion: 1.0.0\nrequires_sandbox: true\n---\nUse it.\n"), 0o644)
	code, out, _ = cliRun("check", "--coworkers", strict, "--extensions", dir)
	if code != 2 || !strings.Contains(out, "runs with your full access") || !strings.Contains(out, "`openworker extension sandbox echo default`") {
		t.Errorf("check of a coworker that requires a sandbox, extension off = %d\n%s", code, out)
	}
	if code, _, errs = cliRun("extension", "sandbox", "echo", "strict", "--extensions", dir); code != 2 || !strings.Contains(errs, `"strict"`) || !strings.Contains(errs, "write default") {
		t.Errorf("sandbox strict = %d\n%s", code, errs)
	}
	t.Setenv("OPENWORKER_SANDBOX_MAX_ABI", "2")
	if code, _, errs = cliRun("extension", "sandbox", "echo", "default", "--extensions", dir); code != 1 || !strings.Contains(errs, "ABI 2") {
		t.Errorf("sandbox default on ABI 2 = %d\n%s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "echo")); err != nil {
		t.Error(err)
	}
}
