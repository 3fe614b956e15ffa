package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/cli"
	"github.com/openworker/desktop/harness/tool"
	"github.com/zalando/go-keyring"
)

// writeBundleAt writes a v3 bundle id selecting tools into dir.
func writeBundleAt(t *testing.T, dir, id string, tools ...string) {
	t.Helper()
	cw := filepath.Join(dir, id, "coworker")
	if err := os.MkdirAll(cw, 0o755); err != nil {
		t.Fatal(err)
	}
	sel, _ := json.Marshal(map[string]any{"version": 3, "tools": tools})
	os.WriteFile(filepath.Join(cw, "manifest.md"), []byte("---\nid: "+id+"\nname: "+id+"\nversion: 1.0.0\n---\nUse it.\n"), 0o644)
	os.WriteFile(filepath.Join(cw, "tools.json"), sel, 0o644)
}

// TestCheckClientConfig: `check --servers` reads a Claude Desktop file as
// written (extra keys, a dotted name, autoApprove): its notices are shown,
// the bundles of the good provider (a real stdio server) and of native
// tools resolve, the bad entry disables only its provider and is named,
// and check exits 2.
func TestCheckClientConfig(t *testing.T) {
	dir := t.TempDir()
	bundles := filepath.Join(dir, "coworkers")
	writeBundleAt(t, bundles, "sysinfo", "core_dev.system_info_get")
	writeBundleAt(t, bundles, "aws", "awslabs_broken.anything")
	writeBundleAt(t, bundles, "notify", "notification.show")
	servers := filepath.Join(dir, "claude_desktop_config.json")
	dev, _ := json.Marshal(map[string]any{"command": binary, "args": []string{"mcp", "serve", "device"}, "autoApprove": []string{"system_info_get"}})
	os.WriteFile(servers, []byte("{\n  \"preferences\": {},\n  \"mcpServers\": {\n    \"core.dev\": "+string(dev)+",\n    \"awslabs.broken\": {\"args\": []}\n  }\n}\n"), 0o644)
	cmd := exec.Command(binary, "check", "--coworkers", bundles, "--servers", servers)
	cmd.Env = binEnv(t)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("check = %v; want exit 2 for the bad entry\n%s\n%s", err, out, stderr.String())
	}
	for _, want := range []string{
		"notice  " + servers + `:2: top-level key "preferences" is ignored`,
		"notice  " + servers + `:4: server "core.dev" gets the namespace "core_dev"`,
		`"autoApprove" of server "core.dev" is ignored: approvals are asked in OpenWorker`,
		`broken  servers entry "awslabs.broken" (namespace awslabs_broken)`,
		servers + `:5:5: server "awslabs.broken" has neither "command" nor "url"`,
		"ok      notify",
		"ok      sysinfo",
		"core_dev.system_info_get",
		"broken  aws",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("check printed:\n%s\nwant it to contain %q", out, want)
		}
	}
	if !strings.Contains(stderr.String(), "1 of 3 coworker bundles") || !strings.Contains(stderr.String(), `the servers file's entry "awslabs.broken" (namespace awslabs_broken) is broken (`+servers+":5:5)") {
		t.Errorf("stderr = %q", stderr.String())
	}

	// A file that cannot be read at all: the native bundle still resolves.
	os.WriteFile(servers, []byte("{\"mcpServers\": {\n  \"core.dev\": {\"command\" 1}}}"), 0o644)
	cmd = exec.Command(binary, "check", "--coworkers", bundles, "--servers", servers, "--json")
	cmd.Env = binEnv(t)
	out, err = cmd.Output()
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("check of a malformed file = %v; want exit 2", err)
	}
	var rep harness.CheckReport
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.OK) != 1 || rep.OK[0].ID != "notify" || len(rep.BrokenServers) != 1 || rep.BrokenServers[0].Line != 2 {
		t.Errorf("report = %+v", rep)
	}

	// --format must name a known format.
	cmd = exec.Command(binary, "check", "--coworkers", bundles, "--servers", servers, "--format", "zed")
	cmd.Env = binEnv(t)
	if out, err := cmd.CombinedOutput(); !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(out), `unknown config format "zed"`) {
		t.Errorf("--format zed = %v\n%s", err, out)
	}
}

// TestCheckAsksInputsOnce: a VS Code ${input:ID} is asked on the terminal
// the first time, kept in the OS keychain, and not asked again; without a
// terminal and without a kept answer the entry is broken with an error that
// says how to answer it.
func TestCheckAsksInputsOnce(t *testing.T) {
	keyring.MockInit()
	dir := t.TempDir()
	bundles := filepath.Join(dir, "coworkers")
	writeBundleAt(t, bundles, "sysinfo", "dev.system_info_get")
	servers := filepath.Join(dir, ".vscode", "mcp.json")
	os.MkdirAll(filepath.Dir(servers), 0o755)
	entry, _ := json.Marshal(map[string]any{"type": "stdio", "command": binary, "args": []string{"mcp", "serve", "device"},
		"env": map[string]string{"DEVICE_TOKEN": "${input:token}"}})
	os.WriteFile(servers, []byte(`{
  // VS Code's form, with a comment
  "inputs": [{"type": "promptString", "id": "token", "description": "Device token", "password": true}],
  "servers": {"dev": `+string(entry)+`}
}`), 0o644)
	check := func(stdin string, terminal bool) (int, string, string) {
		var out, errOut bytes.Buffer
		code := cli.Run(context.Background(), tool.NewRegistry(), []string{"check", "--coworkers", bundles, "--servers", servers},
			cli.WithIO(strings.NewReader(stdin), &out, &errOut, func(string) string { return "" }, func() bool { return terminal }))
		return code, out.String(), errOut.String()
	}
	code, out, errOut := check("t0ken-value\n", true)
	if code != 0 || !strings.Contains(errOut, `Device token (servers file input "token"): `) || !strings.Contains(out, "ok      sysinfo") {
		t.Fatalf("first check = %d\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(out+errOut, "t0ken-value") {
		t.Errorf("the answer was printed:\n%s\n%s", out, errOut)
	}
	code, out, errOut = check("", false)
	if code != 0 || strings.Contains(errOut, "servers file input") {
		t.Fatalf("second check asked again or failed = %d\n%s\n%s", code, out, errOut)
	}
	keyring.MockInit() // a keychain without the answer
	code, out, _ = check("", false)
	if code != 2 || !strings.Contains(out, `broken  servers entry "dev"`) || !strings.Contains(out, "there is no terminal to ask on") {
		t.Errorf("check without an answer = %d\n%s", code, out)
	}
}
