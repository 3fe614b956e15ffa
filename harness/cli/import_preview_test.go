//go:build unix

package cli_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestServersImportPreviewDetails: the preview marks a program that is
// not on this computer, prints a long command whole, names the env and
// header names (never values), and says where an input's answer would be
// kept without promising an OS keychain that is not there.
func TestServersImportPreviewDetails(t *testing.T) {
	home, xdg := t.TempDir(), t.TempDir()
	env := importEnv(home, xdg, "DBUS_SESSION_BUS_ADDRESS=unix:path="+filepath.Join(t.TempDir(), "no-bus"))
	long := strings.Repeat("--flag-that-is-long ", 8) + "--the-last-argument-tells-servers-apart"
	claude := filepath.Join(xdg, "Claude", "claude_desktop_config.json")
	writeTestFile(t, claude, `{"mcpServers": {
  "ghost": {"command": "no-such-program-zz9", "args": ["`+strings.ReplaceAll(long, " ", `", "`)+`"], "env": {"MODE": "fast", "GH": "ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gH3jK5"}},
  "web": {"url": "https://mcp.example.com/mcp", "headers": {"X-Team": "blue"}}
}}`)
	code, out, errOut := runImport(t, env, claude)
	if code != 0 {
		t.Fatalf("preview = %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"add, not found  ghost",
		"no-such-program-zz9 " + long, // whole, not cut in the middle
		"ghost: its program no-such-program-zz9 is not on this computer (not found on the PATH searched: ",
		"ghost sets GH, MODE (values not shown)",
		"web sets X-Team (values not shown)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("preview lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "ghp_aB3dE5") || strings.Contains(out, "blue") || strings.Contains(out, "…") {
		t.Errorf("the preview shows a value or a cut:\n%s", out)
	}

	vscode := filepath.Join(xdg, "Code", "User", "mcp.json")
	writeTestFile(t, vscode, `{"inputs": [{"type": "promptString", "id": "tok", "description": "Token", "password": true}],
  "servers": {"gh": {"type": "http", "url": "https://mcp.example.com/gh", "headers": {"Authorization": "Bearer ${input:tok}"}}}}`)
	code, out, errOut = runImport(t, env, vscode)
	if code != 0 || !strings.Contains(out, "gh asks for tok when first used (kept in the encrypted file ") || strings.Contains(out, "(kept in the OS keychain)") {
		t.Fatalf("preview without a keychain = %d\n%s\n%s", code, out, errOut)
	}
}
