package cli_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// importEnv is the environment of `servers import` runs: the home and
// config folders in temporary folders (homeEnv: the app's config dir is
// then xdg/OpenWorker, and the other clients' files are looked for in
// home and xdg, %APPDATA% on Windows), no OPENWORKER_CONFIG_DIR from the
// caller.
func importEnv(home, xdg string, extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OPENWORKER_") {
			env = append(env, kv)
		}
	}
	return append(append(append(env, homeEnv(home, xdg)...), "GORACE=atexit_sleep_ms=0"), extra...)
}

// runImport runs `openworker servers import ARGS...` and returns its exit
// code, stdout and stderr.
func runImport(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"servers", "import"}, args...)...)
	cmd.Env = env
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, out.String(), errOut.String()
	case errors.As(err, &ee):
		return ee.ExitCode(), out.String(), errOut.String()
	}
	t.Fatal(err)
	return 0, "", ""
}

func writeTestFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// savedServers is servers_path of the app's settings.json in dir ("" when
// there is none).
func savedServers(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "settings.json"))
	if errors.Is(err, os.ErrNotExist) {
		return ""
	}
	var s struct {
		ServersPath string `json:"servers_path"`
	}
	if err != nil || json.Unmarshal(b, &s) != nil {
		t.Fatalf("settings.json: %v\n%s", err, b)
	}
	return s.ServersPath
}

// TestServersImport drives `openworker servers import` as a person would:
// the listing of the client files found under HOME, a preview that writes
// nothing, --write into the app's servers.json (and Settings pointed at
// it), --to another file, and the refusals that keep a file from being
// lost.
func TestServersImport(t *testing.T) {
	home, xdg := t.TempDir(), t.TempDir()
	bin := t.TempDir() // a uvx, so that the preview finds the program
	writeTestFile(t, filepath.Join(bin, "uvx"), "#!/bin/sh\n")
	if err := os.Chmod(filepath.Join(bin, "uvx"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, filepath.Join(bin, "uvx.cmd"), "@echo off\r\n") // Windows finds it by PATHEXT
	env := importEnv(home, xdg, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	appDir := filepath.Join(xdg, "OpenWorker")
	dest := filepath.Join(appDir, "servers.json")

	code, out, _ := runImport(t, env)
	if code != 0 || !strings.Contains(out, "no MCP config file of another client (Claude Desktop, Cursor, VS Code") {
		t.Fatalf("listing with no client file = %d\n%s", code, out)
	}
	claude := filepath.Join(xdg, "Claude", "claude_desktop_config.json")
	writeTestFile(t, claude, `{
  "preferences": {},
  "mcpServers": {
    "awslabs.core-mcp-server": {"command": "uvx", "args": ["awslabs.core-mcp-server@latest"], "env": {"DB_PASSWORD": "pa$$word"}, "autoApprove": ["x"]},
    "no-command": {"args": ["x"]}
  }
}
`)
	vscode := filepath.Join(xdg, "Code", "User", "mcp.json")
	writeTestFile(t, vscode, `{
  // a comment
  "inputs": [{"type": "promptString", "id": "tok", "description": "Token", "password": true}],
  "servers": {"gh": {"type": "http", "url": "https://mcp.example.com/gh", "headers": {"Authorization": "Bearer ${input:tok}"}},},
}`)
	code, out, _ = runImport(t, env)
	if code != 0 || !strings.Contains(out, "Claude Desktop") || !strings.Contains(out, claude) || !strings.Contains(out, vscode) {
		t.Fatalf("listing = %d\n%s", code, out)
	}

	// A preview: what each entry becomes, nothing written.
	code, out, errOut := runImport(t, env, claude)
	if code != 0 || !strings.Contains(errOut, "nothing written; run again with --write to add 1 server(s) to "+dest) {
		t.Fatalf("preview = %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"add     awslabs.core-mcp-server  awslabs_core-mcp-server  stdio      on this computer  uvx awslabs.core-mcp-server@latest",
		"skip    no-command",
		`"autoApprove" of server "awslabs.core-mcp-server" is ignored`,
		claude + `:5:5: server "no-command" has neither "command" nor "url"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("preview printed:\n%s\nwant %q", out, want)
		}
	}
	if strings.Contains(out, "pa$$word") {
		t.Error("the preview shows an env value")
	}
	if _, err := os.Stat(dest); err == nil || savedServers(t, appDir) != "" {
		t.Fatal("the preview wrote the servers file or the settings")
	}

	// --write: the app's servers.json, and the app uses it.
	code, _, errOut = runImport(t, env, claude, "--write")
	if code != 0 || !strings.Contains(errOut, "added 1 server(s) to the new file "+dest) || !strings.Contains(errOut, "the app now uses "+dest) {
		t.Fatalf("--write = %d\n%s", code, errOut)
	}
	if got := savedServers(t, appDir); got != dest {
		t.Errorf("settings name %q; want %s", got, dest)
	}
	if b, _ := os.ReadFile(dest); !strings.Contains(string(b), `"DB_PASSWORD": "pa$$$$word"`) {
		t.Errorf("written file:\n%s\nwant the literal pa$$word written as pa$$$$word", b)
	}
	first, _ := os.ReadFile(dest)
	code, _, errOut = runImport(t, env, vscode, "--write")
	if code != 0 || !strings.Contains(errOut, "(the file before is "+dest+".bak)") || strings.Contains(errOut, "the app now uses") {
		t.Fatalf("second --write = %d\n%s", code, errOut)
	}
	if bak, _ := os.ReadFile(dest + ".bak"); string(bak) != string(first) {
		t.Errorf(".bak = %q; want the file before", bak)
	}
	if b, _ := os.ReadFile(dest); !strings.Contains(string(b), `"awslabs_core-mcp-server"`) || !strings.Contains(string(b), `"Bearer ${input:tok}"`) || !strings.Contains(string(b), `"gh"`) {
		t.Errorf("after the second import:\n%s\nwant both entries, the input a reference", b)
	}
	code, _, errOut = runImport(t, env, vscode, "--write")
	if code != 0 || !strings.Contains(errOut, "nothing to add to "+dest) {
		t.Errorf("the same import again = %d\n%s", code, errOut)
	}

	// --to: another file; the settings stay.
	other := filepath.Join(t.TempDir(), "team", "servers.json")
	code, _, errOut = runImport(t, env, claude, "--to", other, "--write")
	if code != 0 || !strings.Contains(errOut, "added 1 server(s) to the new file "+other) || savedServers(t, appDir) != dest {
		t.Fatalf("--to = %d\n%s\nsettings name %q", code, errOut, savedServers(t, appDir))
	}
	// OPENWORKER_CONFIG_DIR moves the app's folder, as it does for the app.
	moved := t.TempDir()
	code, _, errOut = runImport(t, importEnv(home, xdg, "OPENWORKER_CONFIG_DIR="+moved), claude, "--write")
	if code != 0 || !strings.Contains(errOut, filepath.Join(moved, "servers.json")) || savedServers(t, moved) != filepath.Join(moved, "servers.json") {
		t.Fatalf("OPENWORKER_CONFIG_DIR = %d\n%s", code, errOut)
	}

	// Refusals, exit 2, nothing written.
	refuse := func(what, want string, args ...string) {
		t.Helper()
		before, _ := os.ReadFile(dest)
		code, out, errOut := runImport(t, env, args...)
		if code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("%s = %d\n%s\n%s\nwant exit 2 and %q", what, code, out, errOut, want)
		}
		if now, _ := os.ReadFile(dest); string(now) != string(before) {
			t.Errorf("%s wrote %s", what, dest)
		}
	}
	refuse("--to another client's file", claude+" is a claude-desktop file", vscode, "--to", claude, "--write")
	// The app uses Claude Desktop's file, and its own servers.json exists.
	settings, _ := os.ReadFile(filepath.Join(appDir, "settings.json"))
	writeTestFile(t, filepath.Join(appDir, "settings.json"), strings.Replace(string(settings), jsonText(t, dest), jsonText(t, claude), 1))
	refuse("both files", "the app uses "+claude+", and "+dest+" exists too", vscode, "--write")
	writeTestFile(t, filepath.Join(appDir, "settings.json"), string(settings))
	// An entry of the servers file in use that cannot be kept.
	good, _ := os.ReadFile(dest)
	writeTestFile(t, dest, `{"servers": {"broken": {"transport": "stdio"}}}`)
	refuse("a broken entry in use", dest+`:1: the entry "broken" of the servers file in use cannot be kept`, claude, "--write")
	writeTestFile(t, dest, string(good))
	refuse("a FILE that does not exist", filepath.Join(home, "missing.json")+" does not exist", filepath.Join(home, "missing.json"))
}
