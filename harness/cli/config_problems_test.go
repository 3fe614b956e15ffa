package cli_test

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runBinary runs the binary with extra environment variables and returns
// its stdout, stderr and exit code.
// runGuard bounds one run of the binary (a hang guard): it starts a
// process, which starts its providers' processes, and on a loaded machine
// that takes a while.
const runGuard = 120 * time.Second

// runBinary runs the binary with args, killing it after runGuard, and
// returns its stdout, stderr and exit code.
func runBinary(t *testing.T, env []string, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runGuard)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = append(append(binEnv(t), "ANTHROPIC_API_KEY=", "ANTHROPIC_BASE_URL="), env...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

func wantAll(t *testing.T, what, text string, frags ...string) {
	t.Helper()
	for _, f := range frags {
		if !strings.Contains(text, f) {
			t.Errorf("%s:\n%s\nwant it to contain %q", what, text, f)
		}
	}
}

// noModel is a model endpoint on 127.0.0.1 that is never reached: these
// runs fail before the first model request.
const noModel = "http://127.0.0.1:1/v1"

// TestRunAndCheckShowRegistrationClashes: servers named like the binary's
// own namespaces (the built-in device provider, the native notification
// tools) are broken entries at file:line:col with the fix, in `run` (on
// stderr, before going on) as in `check`; a bundle that selects a tool of
// such an entry gets that cause, not only "lists no tool"; no Go type is
// shown; a bundle of native tools still runs its checks.
func TestRunAndCheckShowRegistrationClashes(t *testing.T) {
	dir := t.TempDir()
	bundles := filepath.Join(dir, "coworkers")
	writeBundleAt(t, bundles, "crash", "device.echo")
	writeBundleAt(t, bundles, "notify", "notification.show")
	entry, _ := json.Marshal(map[string]any{"command": binary, "args": []string{"mcp", "serve", "device"}})
	servers := filepath.Join(dir, "devclash.json")
	write(t, servers, "{\"mcpServers\": {\n  \"device\": "+string(entry)+",\n  \"notification\": "+string(entry)+"\n}}\n")
	device := servers + `:2:3: server "device" cannot have the namespace "device": OpenWorker's built-in MCP provider "device" (program `
	fix := "rename the server in " + servers + ", and select its tools as NEW_NAME.TOOL: the namespace device is OpenWorker's built-in MCP provider"
	notification := servers + `:3:3: server "notification" cannot have the namespace "notification": OpenWorker's built-in native tools notification.confirm, notification.show have it; rename the server in ` + servers

	_, stderr, code := runBinary(t, nil, "run", "--coworkers", bundles, "--coworker", "crash", "--servers", servers, "--base-url", noModel, "--db", filepath.Join(dir, "j.db"), "hi")
	if code != 2 {
		t.Errorf("run = exit %d; want 2 (the bundle uses a broken entry)\n%s", code, stderr)
	}
	wantAll(t, "run's stderr", stderr, "openworker: servers: "+device, fix, `servers entry "device" is disabled; bundles that do not use it still run`,
		"openworker: servers: "+notification,
		`MCP provider "device" lists no tool "echo"`, `the servers file's entry "device", which may hold that tool, could not take the namespace: `+device)
	stdout, stderr, code := runBinary(t, nil, "check", "--coworkers", bundles, "--servers", servers)
	if code != 2 {
		t.Errorf("check = exit %d; want 2", code)
	}
	wantAll(t, "check's stdout", stdout, "broken  servers entry \"device\"\n          "+device, fix, "broken  servers entry \"notification\"\n          "+notification, "ok      notify")
	wantAll(t, "check's stderr", stderr, `2 entries of the servers file are broken, the first "device" (`+servers+":2:3)")
	for _, out := range []string{stdout, stderr} {
		if strings.Contains(out, "(*notification") || strings.Contains(out, "*notification.") {
			t.Errorf("a Go type is shown:\n%s", out)
		}
	}
}

// TestRunExitCodes: a provider that does not start is a runtime failure
// (exit 1); a bundle broken by a bad servers entry is bad input (exit 2);
// `check` names a URL provider that does not answer with a URL fix.
func TestRunExitCodes(t *testing.T) {
	dir := t.TempDir()
	bundles := filepath.Join(dir, "coworkers")
	writeBundleAt(t, bundles, "crash", "down.anything")
	writeBundleAt(t, bundles, "bad", "nocmd.anything")
	writeBundleAt(t, bundles, "remote", "gone.anything")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/mcp" // nothing listens there once closed
	l.Close()
	down, _ := json.Marshal(map[string]any{"transport": "stdio", "command": binary, "args": []string{"mcp", "serve", "no-such-server"}})
	servers := filepath.Join(dir, "servers.json")
	write(t, servers, `{"servers": {"down": `+string(down)+`, "nocmd": {"transport": "stdio"}, "gone": {"transport": "streamable_http", "url": "`+closed+`"}}}`)
	run := func(id string) (string, int) {
		_, stderr, code := runBinary(t, nil, "run", "--coworkers", bundles, "--coworker", id, "--servers", servers, "--base-url", noModel, "--db", filepath.Join(dir, "j.db"), "hi")
		return stderr, code
	}
	if stderr, code := run("crash"); code != 1 || !strings.Contains(stderr, `mcp provider "down" (from `+servers+`:1) exited during start`) {
		t.Errorf("run with a provider that does not start = exit %d; want 1\n%s", code, stderr)
	}
	if stderr, code := run("bad"); code != 2 || !strings.Contains(stderr, `its MCP provider "nocmd" is disabled: its entry in the servers file is broken`) {
		t.Errorf("run with a broken entry = exit %d; want 2\n%s", code, stderr)
	}
	stdout, _, code := runBinary(t, nil, "check", "--coworkers", bundles, "--servers", servers)
	if code != 2 {
		t.Errorf("check = exit %d; want 2", code)
	}
	wantAll(t, "check", stdout, `fix: MCP provider "gone" did not answer: check that the server at its URL is running and reachable from this computer, and its URL and headers at `+servers+":1",
		`fix: MCP provider "down" did not start or list its tools: check its command`)
}

// TestRunHidesASubstitutedFolder: a "cwd" substituted from the
// environment that does not exist is named by its variable, never its
// value (docs/servers.md#substitution).
func TestRunHidesASubstitutedFolder(t *testing.T) {
	dir := t.TempDir()
	bundles := filepath.Join(dir, "coworkers")
	writeBundleAt(t, bundles, "cw", "cwdtest.system_info_get")
	entry, _ := json.Marshal(map[string]any{"command": binary, "args": []string{"mcp", "serve", "device"}, "cwd": "${CWD_SECRET}"})
	servers := filepath.Join(dir, "proj", ".mcp.json")
	if err := os.MkdirAll(filepath.Dir(servers), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, servers, `{"mcpServers": {"cwdtest": `+string(entry)+`}}`)
	env := []string{"CWD_SECRET=/nonexistent/CWDSECRET9"}
	_, stderr, code := runBinary(t, env, "run", "--coworkers", bundles, "--coworker", "cw", "--servers", servers, "--base-url", noModel, "--db", filepath.Join(dir, "j.db"), "hi")
	if code != 1 || strings.Contains(stderr, "CWDSECRET9") || !strings.Contains(stderr, `the working folder (from ${CWD_SECRET}) does not exist or is not a folder; fix its "cwd" at `+servers+":1") {
		t.Errorf("run = exit %d; want 1, the variable named and the value hidden\n%s", code, stderr)
	}
	stdout, stderr, _ := runBinary(t, env, "check", "--coworkers", bundles, "--servers", servers)
	if strings.Contains(stdout+stderr, "CWDSECRET9") || !strings.Contains(stdout, "(from ${CWD_SECRET})") {
		t.Errorf("check shows the value or not the variable:\n%s\n%s", stdout, stderr)
	}
}

// TestCheckServersFileLabels: a file over the size bound is named once,
// without :0:0; an entry named "" is a servers entry, not the file; a
// Claude Desktop file without "mcpServers" names no servers (a notice),
// and check passes.
func TestCheckServersFileLabels(t *testing.T) {
	dir := t.TempDir()
	bundles := filepath.Join(dir, "coworkers")
	writeBundleAt(t, bundles, "notify", "notification.show")
	big := filepath.Join(dir, "big.json")
	write(t, big, `{"servers": {}, "pad": "`+strings.Repeat("x", 1<<20)+`"}`)
	stdout, stderr, code := runBinary(t, nil, "check", "--coworkers", bundles, "--servers", big)
	if code != 2 || !strings.Contains(stderr, "the servers file cannot be read ("+big+")\n") || strings.Contains(stdout+stderr, ":0:0") {
		t.Errorf("check of a big file = exit %d\n%s\n%s", code, stdout, stderr)
	}
	wantAll(t, "check of a big file", stdout, "broken  servers file "+big+"\n          "+big+": file is ")
	if strings.Contains(stdout, "servers file: ") {
		t.Errorf("the file is named twice:\n%s", stdout)
	}

	names := filepath.Join(dir, "names.json")
	write(t, names, "{\"mcpServers\": {\n  \"\": {\"command\": \"x\"}\n}}")
	stdout, stderr, code = runBinary(t, nil, "check", "--coworkers", bundles, "--servers", names)
	if code != 2 || !strings.Contains(stdout, "broken  servers entry \"\"\n          "+names+":2:3: ") || strings.Contains(stdout, "servers file") {
		t.Errorf("check of an entry named \"\" = exit %d\n%s\n%s", code, stdout, stderr)
	}

	claude := filepath.Join(dir, "claude_desktop_config.json")
	write(t, claude, "{\n  \"preferences\": {\"menuBarEnabled\": false}\n}\n")
	stdout, stderr, code = runBinary(t, nil, "check", "--coworkers", bundles, "--servers", claude)
	if code != 0 {
		t.Errorf("check of a Claude Desktop file without servers = exit %d\n%s\n%s", code, stdout, stderr)
	}
	wantAll(t, "check", stdout, "notice  "+claude+`:1: this Claude Desktop file names no MCP servers (it has no "mcpServers" object)`, "ok      notify")
}
