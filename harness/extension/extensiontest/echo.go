package extensiontest

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// EchoServer is the binary's path inside the Echo bundle (its
// server.entry_point; "server/echoserver.exe" on Windows).
const EchoServer = "server/echoserver"

// EchoManifest is the manifest.json of the binary extension Echo packs,
// at version: server.type "binary" whose command is
// ${__dirname}/server/echoserver (".exe" in platform_overrides.win32),
// started with --dir ${__dirname} and --repeat ${user_config.repeat}, and
// with $ECHO_PREFIX, $ECHO_TOKEN and $ECHO_WORKDIR from user_config:
// prefix (a required string), token (a required sensitive string), repeat
// (a number from 1 to 3, default 1) and workdir (a folder, default
// ${HOME}). Its tools are echo and settings (see cmd/echoserver).
func EchoManifest(version string) string {
	cfg := func(command string) map[string]any {
		return map[string]any{
			"command": command,
			"args":    []string{"--dir", "${__dirname}", "--repeat", "${user_config.repeat}"},
			"env":     map[string]string{"ECHO_PREFIX": "${user_config.prefix}", "ECHO_TOKEN": "${user_config.token}", "ECHO_WORKDIR": "${user_config.workdir}"},
		}
	}
	mc := cfg("${__dirname}/" + EchoServer)
	mc["platform_overrides"] = map[string]any{"win32": cfg("${__dirname}/" + EchoServer + ".exe")}
	m := map[string]any{
		"manifest_version": "0.3", "name": "echo", "display_name": "Echo (test)", "version": version,
		"description": "A Go MCP server that echoes, for tests.", "author": map[string]any{"name": "OpenWorker tests"},
		"server": map[string]any{"type": "binary", "entry_point": EchoServer, "mcp_config": mc},
		"tools":  []map[string]string{{"name": "echo", "description": "Echo a text"}, {"name": "settings", "description": "Show the settings"}},
		"user_config": map[string]any{
			"prefix":  map[string]any{"type": "string", "title": "Prefix", "description": "Put before every echo", "required": true},
			"token":   map[string]any{"type": "string", "title": "Token", "description": "A secret", "sensitive": true, "required": true},
			"repeat":  map[string]any{"type": "number", "title": "Repeat", "description": "How many times", "min": 1, "max": 3, "default": 1},
			"workdir": map[string]any{"type": "directory", "title": "Work folder", "description": "A folder", "default": "${HOME}"},
		},
		"compatibility": map[string]any{"platforms": []string{"darwin", "win32", "linux"}},
	}
	b, _ := json.MarshalIndent(m, "", "  ")
	return string(b)
}

// EchoBinary builds cmd/echoserver with `go build` for this platform into
// t.TempDir() and returns the executable's path. It fails the test when
// go is not on PATH or the build fails.
func EchoBinary(t testing.TB) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is not on PATH: the binary extension test builds its server with it: %v", err)
	}
	out := filepath.Join(t.TempDir(), "echoserver")
	if filepath.Separator == '\\' {
		out += ".exe"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goTool, "build", "-trimpath", "-ldflags=-s -w", "-o", out, "github.com/openworker/desktop/harness/extension/extensiontest/cmd/echoserver")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build echoserver: %v\n%s", err, b)
	}
	return out
}

// Echo builds cmd/echoserver (EchoBinary) and packs it with the official
// mcpb CLI as the binary extension "echo" at version (EchoManifest), the
// binary at mode mode (0o755 as an author packs it; 0o644 for a bundle
// whose executable bit was lost). With sign, the file is signed with
// `mcpb sign --self-signed`. It skips as Pack does.
func Echo(t testing.TB, version string, mode os.FileMode, sign bool) string {
	t.Helper()
	bin, err := os.ReadFile(EchoBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	name := EchoServer
	if filepath.Separator == '\\' {
		name += ".exe"
	}
	return Pack(t, "echo", map[string]File{
		"manifest.json": {Data: EchoManifest(version)},
		name:            {Data: string(bin), Mode: mode},
	}, sign)
}
