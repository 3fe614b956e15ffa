package servers

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

var fixtures = []string{
	configPath("claude-desktop", "claude_desktop_config.json"),
	configPath("cursor", ".cursor", "mcp.json"),
	configPath("vscode", ".vscode", "mcp.json"),
	configPath("cline", "cline_mcp_settings.json"),
	configPath("roo", ".roo", "mcp.json"),
	configPath("windsurf", ".codeium", "windsurf", "mcp_config.json"),
	configPath("claude-code", ".mcp.json"),
	configPath("amazon-q", ".amazonq", "mcp.json"),
	configPath("generic", "mcp-servers.json"),
	configPath("openworker", "servers.json"),
}

// TestWriteServersFileRoundTrip: every entry of every fixture that could
// be read, written in the product's form and read back, becomes the same
// provider (or the same problem); disabled stays disabled.
func TestWriteServersFileRoundTrip(t *testing.T) {
	for _, src := range fixtures {
		t.Run(src, func(t *testing.T) {
			var a answers
			cfg := readFixture(t, src, &ConfigOptions{Inputs: a.ask})
			var entries []ConfigEntry
			for _, e := range cfg.Entries {
				if e.raw != nil {
					entries = append(entries, e)
				}
			}
			out := filepath.Join(t.TempDir(), "servers.json")
			if err := WriteServersFile(out, entries); err != nil {
				t.Fatal(err)
			}
			// Windows has no mode bits: Go reports 0666 for any writable file.
			if st, err := os.Stat(out); err != nil || (runtime.GOOS != "windows" && st.Mode().Perm() != 0o600) {
				t.Errorf("written file mode = %v, %v; want 0600", st.Mode(), err)
			}
			back, err := ReadConfig(out, &ConfigOptions{Inputs: a.ask})
			if err != nil {
				t.Fatal(err)
			}
			if back.Format != FormatOpenWorker || len(back.Entries) != len(entries) || len(back.AllNotices()) != countDisabled(entries) {
				data, _ := os.ReadFile(out)
				t.Fatalf("read back %s: %d entries, notices %q; want %d entries, a notice per disabled one\n%s", back.Format, len(back.Entries), back.AllNotices(), len(entries), data)
			}
			for i, e := range entries {
				b := back.Entries[i]
				if b.Name != e.Server.Namespace || b.Disabled != e.Disabled || (b.Err == nil) != (e.Err == nil) {
					t.Errorf("%s: read back as %q disabled=%v err=%v; want %q disabled=%v err=%v", e.Name, b.Name, b.Disabled, b.Err, e.Server.Namespace, e.Disabled, e.Err)
					continue
				}
				want, got := e.Server, b.Server
				want.Source, want.Name, got.Source = "", "", ""
				// Vars name the variables as each format writes them
				// (${env:X} becomes ${X}): the same fields have them.
				if d := cmp.Diff(slices.Sorted(maps.Keys(want.Vars)), slices.Sorted(maps.Keys(got.Vars)), cmpopts.EquateEmpty()); d != "" {
					t.Errorf("%s: fields with variables (-before +after):\n%s", e.Name, d)
				}
				want.Vars, got.Vars = nil, nil
				if d := cmp.Diff(want, got, cmpopts.EquateEmpty(), cmpopts.SortSlices(func(a, b string) bool { return a < b })); d != "" {
					t.Errorf("%s (-before +after):\n%s", e.Name, d)
				}
			}
		})
	}
}

func countDisabled(entries []ConfigEntry) int {
	n := 0
	for _, e := range entries {
		if e.Disabled {
			n++
		}
	}
	return n
}

// TestWriteServersFileKeepsReferences: what is written is the reference,
// never a value from the environment or an input; a literal $ is doubled.
func TestWriteServersFileKeepsReferences(t *testing.T) {
	var a answers
	read := func(src string) []ConfigEntry {
		var out []ConfigEntry
		for _, e := range readFixture(t, src, &ConfigOptions{Inputs: a.ask}).Entries {
			if e.raw != nil {
				out = append(out, e)
			}
		}
		return out
	}
	var entries []ConfigEntry
	for _, src := range []string{fixtures[0], fixtures[2], fixtures[3], fixtures[6]} { // Claude Desktop, VS Code, Cline, Claude Code
		entries = append(entries, read(src)...)
	}
	// Namespaces repeat across these files: keep the first of each.
	seen := map[string]bool{}
	var unique []ConfigEntry
	for _, e := range entries {
		if !seen[e.Server.Namespace] {
			seen[e.Server.Namespace] = true
			unique = append(unique, e)
		}
	}
	data, err := MarshalServersFile(unique)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{
		`"inputs": [`, `"id": "perplexity-key"`, `"description": "Perplexity API Key"`, `"password": true`,
		`"PERPLEXITY_API_KEY": "${input:perplexity-key}"`, // VS Code input: the reference
		`"HOME_DIR": "${HOME}"`,                           // VS Code ${env:HOME} in the product's syntax
		`"PRICE": "$$5"`,                                  // a literal $ doubled
		`"DB_PASSWORD": "pa$$$$word"`,                     // Claude Desktop's pa$$word, literal
		`"NOTE": "$$HOME and $${HOME}"`,                   // not a variable in Claude Desktop, so not one here
		`"awslabs_core-mcp-server": {`,                    // the derived namespace is the key
		`"url": "${API_BASE_URL:-https://api.example.com}/mcp"`,
		`"Authorization": "Bearer ${API_KEY}"`,
		`"timeout": 20`, `"timeout": 75`,
		`"disabled": true`,
		`"KEY": "$${NOT_SET}"`, // Cline's literal ${NOT_SET}
		`"K": "${NOT_SET_ANYWHERE}"`,
		`"transport": "sse"`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("written file lacks %s:\n%s", want, text)
		}
	}
	for _, never := range []string{"ans-perplexity-key", "/home/me\"", "k3y", "s3cret", "\\u003c"} {
		if strings.Contains(text, never) {
			t.Errorf("written file holds %q, a substituted value:\n%s", never, text)
		}
	}

	// An entry that could not be read is refused, naming it; so is a
	// namespace written twice.
	cc := readFixture(t, fixtures[6], nil)
	if _, err := MarshalServersFile(cc.Entries); err == nil || !strings.Contains(err.Error(), `server "helper" (line 12) cannot be written`) {
		t.Errorf("MarshalServersFile(with helper) = %v", err)
	}
	if _, err := MarshalServersFile(append(unique[:1:1], unique[0])); err == nil || !strings.Contains(err.Error(), "both have the namespace") {
		t.Errorf("MarshalServersFile(twice) = %v", err)
	}
}

// TestWriteServersFileFailureKeepsOld: a write that cannot be done leaves
// the file there as it was.
func TestWriteServersFileFailureKeepsOld(t *testing.T) {
	out := filepath.Join(t.TempDir(), "servers.json")
	os.WriteFile(out, []byte(`{"servers": {}}`), 0o600)
	cc := readFixture(t, fixtures[6], nil)
	if err := WriteServersFile(out, cc.Entries); err == nil {
		t.Fatal("WriteServersFile wrote an entry that could not be read")
	}
	if b, _ := os.ReadFile(out); string(b) != `{"servers": {}}` {
		t.Errorf("the old file became %q", b)
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".servers.json.*")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}
}

// TestWorkspaceServerCwd: a stdio server of a project's .vscode/mcp.json
// without "cwd" runs in the project (the folder holding .vscode), as in
// VS Code; its own "cwd" still wins; written as the product's form, it
// keeps running there; a user-level file's server gets no folder.
func TestWorkspaceServerCwd(t *testing.T) {
	proj, own := t.TempDir(), abs(t, t.TempDir()) // own: absolute on every OS
	ownJSON, _ := json.Marshal(own)
	p := writeConfig(t, filepath.Join(proj, ".vscode"), "mcp.json", `{"servers": {
  "plain": {"type": "stdio", "command": "node", "args": ["s.js"]},
  "own": {"type": "stdio", "command": "node", "cwd": `+string(ownJSON)+`}
}}`)
	cfg, err := ReadConfig(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	projAbs := abs(t, proj)
	if e := entryNamed(t, cfg, "plain"); e.Err != nil || e.Server.Dir != projAbs {
		t.Fatalf("plain: Dir = %q, %v; want %q", e.Server.Dir, e.Err, projAbs)
	}
	if e := entryNamed(t, cfg, "own"); e.Err != nil || e.Server.Dir != own {
		t.Fatalf("own: Dir = %q, %v", e.Server.Dir, e.Err)
	}
	out, err := MarshalServersFile([]ConfigEntry{entryNamed(t, cfg, "plain")})
	if err != nil {
		t.Fatal(err)
	}
	back := writeConfig(t, t.TempDir(), "servers.json", string(out))
	cfg2, err := ReadConfig(back, nil)
	if err != nil {
		t.Fatal(err)
	}
	if e := entryNamed(t, cfg2, "plain"); e.Err != nil || e.Server.Dir != projAbs {
		t.Fatalf("written and read back: Dir = %q, %v; file:\n%s", e.Server.Dir, e.Err, out)
	}
	user := writeConfig(t, t.TempDir(), "claude_desktop_config.json", `{"mcpServers": {"u": {"command": "node"}}}`)
	cfg3, err := ReadConfig(user, nil)
	if err != nil {
		t.Fatal(err)
	}
	if e := entryNamed(t, cfg3, "u"); e.Err != nil || e.Server.Dir != "" {
		t.Fatalf("user-level: Dir = %q, %v", e.Server.Dir, e.Err)
	}
}
