//go:build unix

package cli_test

import (
	"bytes"
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
)

// TestExtensionBinaryInstallRunRemove: a Go MCP server packed as a binary
// extension by the official mcpb CLI and self-signed is installed with
// `extension install` (a wrong --set is refused naming the setting, what
// it takes and an example), answers a turn of a coworker that selects
// echo.echo with its user_config substituted, leaves its call in the
// journal, is downgraded to an unsigned older file only when confirmed
// (said as such), and is removed with its secret.
func TestExtensionBinaryInstallRunRemove(t *testing.T) {
	signed := extensiontest.Echo(t, "1.1.0", 0o755, true)
	older := extensiontest.Echo(t, "1.0.0", 0o755, false)
	secrets := &extension.MemorySecrets{}
	dir := filepath.Join(t.TempDir(), "extensions")
	const token = "tok-cli-echo-3141"
	cliRun := func(stdin string, terminal bool, args ...string) (int, string, string) {
		return runWithSecrets(secrets, stdin, terminal, args...)
	}
	install := []string{"extension", "install", signed, "--extensions", dir, "--set", "prefix=hey", "--set", "token=" + token}

	work := t.TempDir()
	t.Chdir(work)
	os.Mkdir("notes", 0o755)
	os.WriteFile("a-file", nil, 0o644)
	for set, want := range map[string]string{
		"repeat=lots":     `the setting repeat (Repeat): "lots" is not a number; it takes a number from 1 to 3, for example --set repeat=1`,
		"repeat=9":        `the setting repeat (Repeat): 9 is out of range; it takes a number from 1 to 3, for example --set repeat=1`,
		"workdir=missing": "the setting workdir (Work folder): " + filepath.Join(work, "missing") + " does not exist; it takes the path of an existing folder, for example --set workdir=/home/ada/Documents",
		"workdir=a-file":  "the setting workdir (Work folder): " + filepath.Join(work, "a-file") + " is not a folder; it takes the path of an existing folder",
		"prefix":          `--set "prefix": write KEY=VALUE, for example --set prefix=TEXT`,
	} {
		code, _, errs := cliRun("", false, append(install, "--set", set, "--yes")...)
		if code != 2 || !strings.Contains(errs, want) || strings.Contains(errs, "picker") {
			t.Errorf("--set %s = %d %s\nwant %q", set, code, errs, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "echo")); err == nil {
		t.Fatal("a refused install wrote its folder")
	}
	// A relative folder is taken from the current one.
	code, out, errs := cliRun("", false, append(install, "--set", "repeat=2", "--set", "workdir=notes", "--yes")...)
	if code != 0 {
		t.Fatalf("install = %d\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{"Echo (test) 1.1.0 by OpenWorker tests", "namespace: echo\n", "signature: self-signed by CN=MCPB Self-Signed Certificate",
		"server: binary\n", "tool echo.echo: Echo a text", "installed echo 1.1.0 as namespace echo"} {
		if !strings.Contains(out, want) {
			t.Errorf("install printed:\n%s\nwant %q", out, want)
		}
	}

	bundles := filepath.Join(t.TempDir(), "coworkers")
	writeBundleAt(t, bundles, "parrot", "echo.echo", "echo.settings")
	m := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "echo__echo", Arguments: `{"text":"ping"}`}, {ID: "c2", Name: "echo__settings", Arguments: `{}`}}},
		modeltest.Reply{Text: "Echoed."})
	db := filepath.Join(t.TempDir(), "journal.db")
	code, out, errs = cliRun("", false, "run", "--coworkers", bundles, "--coworker", "parrot", "--extensions", dir, "--db", db,
		"--base-url", m.URL, "--model", "test", "--approve", "bypass", "Echo ping.")
	if code != 0 || !strings.Contains(out, "Echoed.") || !strings.Contains(errs, "✓ echo.echo succeeded") {
		t.Fatalf("run = %d\n%s\n%s", code, out, errs)
	}
	reqs := m.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests", len(reqs))
	}
	results := map[string]string{}
	for _, r := range reqs[1].ToolResults() {
		results[r.ToolCallID] = r.Text
	}
	appDir := filepath.Join(dir, "echo", "1.1.0")
	if results["c1"] != "hey: ping ping" || !strings.Contains(results["c2"], "dir="+appDir+" prefix=hey workdir="+filepath.Join(work, "notes")+" token_len=17 ") {
		t.Errorf("the model saw %q", results)
	}
	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	sessions, err := j.Sessions(context.Background(), 10)
	if err != nil || len(sessions) != 1 {
		t.Fatalf("sessions = %v, %v", sessions, err)
	}
	invs, err := j.Invocations(context.Background(), sessions[0].ID)
	j.Close()
	if err != nil || len(invs) != 2 || invs[0].Tool != "echo.echo" || invs[0].Status != journal.InvSucceeded || !strings.Contains(string(invs[0].Result), "hey: ping ping") {
		t.Fatalf("journal invocations = %+v, %v", invs, err)
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

	// The older file: said on the terminal, not installed unless confirmed.
	code, out, errs = cliRun("n\n", true, "extension", "install", older, "--extensions", dir)
	if code == 0 || !strings.Contains(out, "(replaces the newer 1.1.0: a downgrade; its settings are kept)") ||
		!strings.Contains(out, "warning: this is version 1.0.0, older than the installed 1.1.0") || !strings.Contains(errs, "Install echo 1.0.0 over the newer 1.1.0 (a downgrade) as echo? [y/N]") {
		t.Fatalf("downgrade refused = %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = cliRun("", false, "extension", "install", older, "--extensions", dir, "--yes")
	if code != 0 || !strings.Contains(out, "older than the installed 1.1.0") || !strings.Contains(out, "installed echo 1.0.0") {
		t.Fatalf("downgrade with --yes = %d\n%s\n%s", code, out, errs)
	}

	if code, out, _ := cliRun("", false, "extension", "remove", "echo", "--extensions", dir); code != 0 || !strings.Contains(out, "removed echo 1.0.0") {
		t.Fatalf("remove = %d %s", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "echo")); !os.IsNotExist(err) || secrets.Len() != 0 {
		t.Errorf("after remove: folder %v, %d secrets", err, secrets.Len())
	}
}
