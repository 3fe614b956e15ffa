package servers

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/openworker/desktop/harness/internal/jsonfile"
	"github.com/openworker/desktop/harness/tool"
)

// configEnv is the environment the fixtures under testdata/configs see.
var configEnv = map[string]string{"ACER_TOKEN": "s3cret", "GH_TOKEN": "ghp_123", "DOCS_TOKEN": "d0cs", "HOME": "/home/me",
	"ROO_TOKEN": "r00", "FIGMA_TOKEN": "f1g", "API_KEY": "k3y", "Q_PROFILE": "dev"}

func configPath(parts ...string) string {
	return filepath.Join(append([]string{"testdata", "configs"}, parts...)...)
}

// want is what one entry of a fixture must become.
type want struct {
	name     string
	server   tool.MCPServer // Namespace, Transport and values; Source, Secrets and Vars are checked apart
	secrets  []string
	disabled bool
	err      string // "LINE:COL: fragment" of Err, or ""
	notices  []string
}

// answers answers every input with "ans-ID" and counts the questions.
type answers struct{ asked map[string]int }

func (a *answers) ask(_ context.Context, id, description string, password bool) (string, error) {
	if a.asked == nil {
		a.asked = map[string]int{}
	}
	a.asked[id+"|"+description+"|"+fmt.Sprint(password)]++
	return "ans-" + id, nil
}

func checkEntries(t *testing.T, cfg *Config, wants []want) {
	t.Helper()
	if len(cfg.Entries) != len(wants) {
		t.Fatalf("%d entries, want %d", len(cfg.Entries), len(wants))
	}
	for i, w := range wants {
		e := cfg.Entries[i]
		if e.Name != w.name {
			t.Errorf("entry %d is %q, want %q", i, e.Name, w.name)
			continue
		}
		if e.Disabled != w.disabled {
			t.Errorf("%s: disabled = %v, want %v", w.name, e.Disabled, w.disabled)
		}
		if w.err != "" {
			var je *jsonfile.Error
			if !errors.As(e.Err, &je) {
				t.Errorf("%s: Err = %v, want a positioned error %q", w.name, e.Err, w.err)
			} else if got := fmt.Sprintf("%d:%d: %s; %s", je.Line, je.Col, je.Msg, je.Fix); !strings.HasPrefix(w.err, fmt.Sprintf("%d:%d: ", je.Line, je.Col)) || !strings.Contains(got, w.err[strings.Index(w.err, " ")+1:]) {
				t.Errorf("%s: Err = %s, want %s", w.name, got, w.err)
			} else if je.File != cfg.Path {
				t.Errorf("%s: Err names %s, want %s", w.name, je.File, cfg.Path)
			}
		} else if e.Err != nil {
			t.Errorf("%s: Err = %v", w.name, e.Err)
		} else {
			got := e.Server
			if got.Source != fmt.Sprintf("%s:%d", cfg.Path, e.Line) {
				t.Errorf("%s: Source = %q", w.name, got.Source)
			}
			if d := cmp.Diff(w.secrets, got.Secrets, cmpopts.EquateEmpty(), cmpopts.SortSlices(func(a, b string) bool { return a < b })); d != "" {
				t.Errorf("%s: secrets (-want +got):\n%s", w.name, d)
			}
			got.Source, got.Secrets, got.Vars = "", nil, nil // Vars: TestConfigVarsNameTheFields
			if d := cmp.Diff(w.server, got, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("%s (-want +got):\n%s", w.name, d)
			}
		}
		all := strings.Join(e.Notices, "\n")
		for _, n := range w.notices {
			if !strings.Contains(all, n) {
				t.Errorf("%s: notices\n%s\nwant one containing %q", w.name, all, n)
			}
		}
		if len(e.Notices) != len(w.notices) {
			t.Errorf("%s: %d notices, want %d:\n%s", w.name, len(e.Notices), len(w.notices), all)
		}
		for _, n := range e.Notices {
			if !strings.HasPrefix(n, cfg.Path+":") {
				t.Errorf("%s: notice %q does not start with the file", w.name, n)
			}
		}
	}
}

func readFixture(t *testing.T, path string, opts *ConfigOptions) *Config {
	t.Helper()
	fakeEnv(t, configEnv)
	fakeHome(t, "/home/me")
	cfg, err := ReadConfig(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func abs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

const approvals = "approvals are asked in OpenWorker"

// Claude Desktop: extra top-level keys are notices, values are literal
// (pa$$word stays pa$$word, $HOME and ${HOME} stay as written), a dotted
// name gets a derived namespace.
func TestConfigClaudeDesktop(t *testing.T) {
	p := configPath("claude-desktop", "claude_desktop_config.json")
	cfg := readFixture(t, p, nil)
	if cfg.Format != FormatClaudeDesktop {
		t.Errorf("format = %s", cfg.Format)
	}
	for i, key := range []string{"$schema", "globalShortcut", "preferences"} {
		if i >= len(cfg.Notices) || !strings.Contains(cfg.Notices[i], fmt.Sprintf("%s:%d: top-level key %q is ignored", p, i+2, key)) {
			t.Errorf("file notices = %q; want %q at line %d ignored", cfg.Notices, key, i+2)
		}
	}
	checkEntries(t, cfg, []want{
		{name: "filesystem", server: tool.MCPServer{Namespace: "filesystem", Transport: "stdio", Program: "npx",
			Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/home/me/Documents"}}},
		{name: "awslabs.core-mcp-server", server: tool.MCPServer{Namespace: "awslabs_core-mcp-server", Name: "awslabs.core-mcp-server", Transport: "stdio",
			Program: "uvx", Args: []string{"awslabs.core-mcp-server@latest"},
			Env: map[string]string{"FASTMCP_LOG_LEVEL": "ERROR", "DB_PASSWORD": "pa$$word", "NOTE": "$HOME and ${HOME}"}},
			secrets: []string{"pa$$word"}, // DB_PASSWORD names a credential
			notices: []string{`server "awslabs.core-mcp-server" gets the namespace "awslabs_core-mcp-server"`, `:14: unknown key "_comment" of server "awslabs.core-mcp-server" is ignored`}},
		{name: "no-command", err: `16:5: server "no-command" has neither "command" nor "url"; add "command"`},
	})
}

// Cursor: JSONC with trailing commas; ${env:NAME}, ${workspaceFolder} and
// ${userHome} are substituted, everything else is literal; a URL without
// "type" is streamable HTTP unless it ends in /sse; plain http:// to
// another host and envFile are errors of their entries only.
func TestConfigCursor(t *testing.T) {
	p := configPath("cursor", ".cursor", "mcp.json")
	cfg := readFixture(t, p, nil)
	project := abs(t, configPath("cursor"))
	if cfg.Format != FormatCursor || len(cfg.Notices) != 0 {
		t.Errorf("format = %s, notices %q", cfg.Format, cfg.Notices)
	}
	checkEntries(t, cfg, []want{
		{name: "github", server: tool.MCPServer{Namespace: "github", Transport: "stdio", Program: "docker",
			Args: []string{"run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"},
			Env:  map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_123", "LITERAL": "pa$$word"}, Dir: project}, secrets: []string{"ghp_123"}},
		{name: "docs", server: tool.MCPServer{Namespace: "docs", Transport: "streamable_http", URL: "https://docs.example.com/mcp",
			Headers: map[string]string{"Authorization": "Bearer d0cs"}}, secrets: []string{"d0cs", "Bearer d0cs"}},
		{name: "legacy", server: tool.MCPServer{Namespace: "legacy", Transport: "sse", URL: "https://old.example.com/sse"},
			notices: []string{`its URL ends in /sse: it is reached over SSE`}},
		{name: "workspace", server: tool.MCPServer{Namespace: "workspace", Transport: "stdio", Program: "node",
			Args: []string{project + "/server.js", "/home/me/x"}, Dir: project}},
		{name: "plain-http", err: `12:27: "mcp.example.com" is not this computer; plain http:// is allowed only for a loopback address`},
		{name: "env-file", err: `13:37: "envFile" is not read by OpenWorker; move its variables into "env"`},
	})
}

// VS Code: "servers" with "type", "inputs" asked once through the
// callback (with description and password), ${env:VAR}, $5 literal, a
// workspace-relative cwd; unsupported variables, pickString inputs,
// sandboxes and undefined inputs are errors of their entries only.
func TestConfigVSCode(t *testing.T) {
	p := configPath("vscode", ".vscode", "mcp.json")
	var a answers
	cfg := readFixture(t, p, &ConfigOptions{Inputs: a.ask})
	project := abs(t, configPath("vscode"))
	if cfg.Format != FormatVSCode {
		t.Errorf("format = %s", cfg.Format)
	}
	if d := cmp.Diff(map[string]int{"perplexity-key|Perplexity API Key|true": 1}, a.asked); d != "" {
		t.Errorf("inputs asked (-want +got):\n%s", d)
	}
	checkEntries(t, cfg, []want{
		{name: "perplexity", server: tool.MCPServer{Namespace: "perplexity", Transport: "stdio", Program: "npx", Args: []string{"-y", "server-perplexity-ask"},
			Env: map[string]string{"PERPLEXITY_API_KEY": "ans-perplexity-key", "HOME_DIR": "/home/me", "PRICE": "$5"}, Dir: project},
			secrets: []string{"ans-perplexity-key", "/home/me"}, notices: []string{`:13: "dev" of server "perplexity" is ignored`}},
		{name: "github", server: tool.MCPServer{Namespace: "github", Transport: "streamable_http", URL: "https://api.githubcopilot.com/mcp/",
			Headers: map[string]string{"X-Key": "ans-perplexity-key"}}, secrets: []string{"ans-perplexity-key"}},
		{name: "memory", server: tool.MCPServer{Namespace: "memory", Transport: "stdio", Program: "npx",
			Args: []string{"-y", "@modelcontextprotocol/server-memory"}, Dir: project + "/data"}},
		{name: "pick", err: `17:65: input "region" (line 5) is of type "pickString"; OpenWorker asks only "promptString" inputs`},
		{name: "configvar", err: `18:61: ${config:editor.fontSize} is not a variable OpenWorker can substitute`},
		{name: "sandboxed", err: `19:52: server "sandboxed" asks for VS Code's sandbox, whose settings OpenWorker does not read; remove "sandboxEnabled"`},
		{name: "undefined-input", err: `20:71: ${input:nope} names no entry of the top-level "inputs"; add {"type": "promptString", "id": "nope"`},
	})
	if in := cfg.Inputs(); len(in) != 1 || in[0] != (ConfigInput{ID: "perplexity-key", Description: "Perplexity API Key", Password: true}) {
		t.Errorf("Inputs() = %+v", in)
	}

	// Without a way to ask, the entries that need an input fail with an
	// error that says so; the others load.
	cfg = readFixture(t, p, nil)
	for _, e := range cfg.Entries[:2] {
		if e.Err == nil || !strings.Contains(e.Err.Error(), `input "perplexity-key" (Perplexity API Key) needs an answer, and nothing here can ask for it`) {
			t.Errorf("%s without Inputs: %v", e.Name, e.Err)
		}
	}
	if cfg.Entries[2].Err != nil {
		t.Errorf("memory without Inputs: %v", cfg.Entries[2].Err)
	}
}

// Cline: timeout in seconds, capped at 75 s with a notice; a URL without
// "type" is SSE (Cline's default); the legacy transportType; autoApprove
// is a notice; a disabled entry is neither expanded nor an error.
func TestConfigCline(t *testing.T) {
	cfg := readFixture(t, configPath("cline", "cline_mcp_settings.json"), nil)
	checkEntries(t, cfg, []want{
		{name: "sleep", server: tool.MCPServer{Namespace: "sleep", Transport: "stdio", Program: "node", Args: []string{"/path/to/sleep-server/build/index.js"}, Timeout: 75 * time.Second},
			notices: []string{`:7: "autoApprove" of server "sleep" is ignored: ` + approvals, `:8: "timeout" 300 seconds of server "sleep" is over OpenWorker's bound of 1m15s per call`}},
		{name: "remote", server: tool.MCPServer{Namespace: "remote", Transport: "sse", URL: "https://cline.example.com/events",
			Headers: map[string]string{"Authorization": "Bearer abc123"}, Timeout: 30 * time.Second}, secrets: []string{"Bearer abc123", "abc123"}},
		{name: "streaming", server: tool.MCPServer{Namespace: "streaming", Transport: "streamable_http", URL: "https://cline.example.com/mcp"}},
		{name: "legacy", server: tool.MCPServer{Namespace: "legacy", Transport: "stdio", Program: "old-server"}},
		{name: "off", disabled: true, server: tool.MCPServer{Namespace: "off", Transport: "stdio"},
			notices: []string{`:13: server "off" is disabled ("disabled": true): it is not started`}},
	})
	servers, broken := cfg.Servers()
	if len(servers) != 4 || len(broken) != 0 || cfg.Err() != nil {
		t.Errorf("Servers() = %d providers, %v broken, Err %v; want 4, none, nil (the disabled one is in neither)", len(servers), broken, cfg.Err())
	}
}

// Roo Code: ${env:VAR} and ${workspaceFolder}; alwaysAllow and watchPaths
// are notices; a URL without "type" is an error, as in Roo.
func TestConfigRoo(t *testing.T) {
	cfg := readFixture(t, configPath("roo", ".roo", "mcp.json"), nil)
	checkEntries(t, cfg, []want{
		{name: "files", server: tool.MCPServer{Namespace: "files", Transport: "stdio", Program: "npx",
			Args: []string{"-y", "@modelcontextprotocol/server-filesystem", abs(t, configPath("roo"))},
			Env:  map[string]string{"TOKEN": "r00"}, Timeout: 15 * time.Second, Dir: abs(t, configPath("roo"))}, secrets: []string{"r00"},
			notices: []string{`"alwaysAllow" of server "files" is ignored: ` + approvals, `"watchPaths" of server "files" is ignored`}},
		{name: "remote", server: tool.MCPServer{Namespace: "remote", Transport: "streamable_http", URL: "https://roo.example.com/mcp"}},
		{name: "untyped-url", err: `12:21: server "untyped-url" has a "url" but no "type", which Roo Code requires; add "type": "streamable-http"`},
	})
}

// Windsurf: serverUrl, ${env:VAR}; ${file:...} is an error of its entry.
func TestConfigWindsurf(t *testing.T) {
	cfg := readFixture(t, configPath("windsurf", ".codeium", "windsurf", "mcp_config.json"), nil)
	checkEntries(t, cfg, []want{
		{name: "github", server: tool.MCPServer{Namespace: "github", Transport: "stdio", Program: "npx", Args: []string{"-y", "@modelcontextprotocol/server-github"},
			Env: map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_123"}}, secrets: []string{"ghp_123"},
			notices: []string{`"disabledTools" of server "github" is ignored: a coworker's tools.json decides`}},
		{name: "figma", server: tool.MCPServer{Namespace: "figma", Transport: "streamable_http", URL: "https://figma.example.com/mcp",
			Headers: map[string]string{"Authorization": "Bearer f1g"}}, secrets: []string{"f1g", "Bearer f1g"}},
		{name: "off", disabled: true, server: tool.MCPServer{Namespace: "off", Transport: "stdio"}, notices: []string{`server "off" is disabled`}},
		{name: "from-file", err: `11:48: ${file:/etc/token} is not supported by OpenWorker`},
	})
}

// Claude Code: ${VAR} and ${VAR:-default} (not $VAR, not ${env:X});
// timeout in milliseconds, under 1000 ignored; headersHelper and an unset
// variable are errors of their entries only.
func TestConfigClaudeCode(t *testing.T) {
	cfg := readFixture(t, configPath("claude-code", ".mcp.json"), nil)
	checkEntries(t, cfg, []want{
		{name: "api", server: tool.MCPServer{Namespace: "api", Transport: "streamable_http", URL: "https://api.example.com/mcp",
			Headers: map[string]string{"Authorization": "Bearer k3y"}, Timeout: 20 * time.Second}, secrets: []string{"k3y", "Bearer k3y"}},
		{name: "local", server: tool.MCPServer{Namespace: "local", Transport: "stdio", Program: "/opt/tools/server",
			Args: []string{"--name", "$USER", "${env:X}"}, Env: map[string]string{"LITERAL": "pa$$word"}, Dir: abs(t, configPath("claude-code"))}},
		{name: "events", server: tool.MCPServer{Namespace: "events", Transport: "sse", URL: "https://events.example.com/sse"}},
		{name: "short", server: tool.MCPServer{Namespace: "short", Transport: "stdio", Program: "x", Dir: abs(t, configPath("claude-code"))},
			notices: []string{`"timeout" 500 of server "short" is ignored: the Claude Code format counts it in milliseconds, and OpenWorker ignores values under 1s (1000 ms), as Claude Code does`}},
		{name: "helper", err: `12:68: "headersHelper" runs a command to make the headers`},
		{name: "unset", err: `13:44: "mcpServers.unset.env.K": environment variable NOT_SET_ANYWHERE is not set`},
	})
}

// Amazon Q: timeout in milliseconds; a dotted name is derived, and a
// second name deriving to the same namespace is an error of that entry; a
// name with nothing to derive from is an error; oauthScopes is a notice.
func TestConfigAmazonQ(t *testing.T) {
	cfg := readFixture(t, configPath("amazon-q", ".amazonq", "mcp.json"), nil)
	checkEntries(t, cfg, []want{
		{name: "awslabs.aws-documentation-mcp-server", server: tool.MCPServer{Namespace: "awslabs_aws-documentation-mcp-server",
			Name: "awslabs.aws-documentation-mcp-server", Transport: "stdio", Program: "uvx", Args: []string{"awslabs.aws-documentation-mcp-server@latest"},
			Env: map[string]string{"FASTMCP_LOG_LEVEL": "ERROR", "AWS_PROFILE": "dev"}, Timeout: 75 * time.Second, Dir: abs(t, configPath("amazon-q"))}, secrets: []string{"dev"},
			notices: []string{`gets the namespace "awslabs_aws-documentation-mcp-server"`, `"timeout" 120000 milliseconds`}},
		{name: "awslabs_aws-documentation-mcp-server", err: `10:5: has the namespace "awslabs_aws-documentation-mcp-server", which the server at line 3 has already; rename one of them`},
		{name: "find-a-domain", server: tool.MCPServer{Namespace: "find-a-domain", Transport: "streamable_http", URL: "https://api.findadomain.dev/mcp"},
			notices: []string{`"oauthScopes" of server "find-a-domain" is ignored: this format's OAuth settings are not read`}},
		{name: "....", err: `12:5: server "...." has no ASCII letter (a-z, A-Z), digit, '_' or '-' to make a namespace of; rename the server with ASCII letters`},
	})
	_, broken := cfg.Servers()
	if len(broken) != 2 || broken[1].Namespace != "" || broken[1].Name != "...." || broken[1].WholeFile() || broken[1].Label() != `servers entry "...."` {
		t.Errorf("broken = %+v; want both bad entries, the nameless one an entry under its name", broken)
	}
}

// Any other mcpServers file: literal values, timeout in milliseconds,
// alwaysAllow a notice, an unknown type an error of its entry.
func TestConfigGenericMCPServers(t *testing.T) {
	cfg := readFixture(t, configPath("generic", "mcp-servers.json"), nil)
	if cfg.Format != FormatMCPServers || len(cfg.Notices) != 1 || !strings.Contains(cfg.Notices[0], `:2: top-level key "_comment" is ignored`) {
		t.Errorf("format %s, notices %q", cfg.Format, cfg.Notices)
	}
	checkEntries(t, cfg, []want{
		{name: "tools", server: tool.MCPServer{Namespace: "tools", Transport: "stdio", Program: "tool",
			Env: map[string]string{"V": "${ACER_TOKEN}", "P": "pa$$word"}, Timeout: 30 * time.Second},
			notices: []string{`"alwaysAllow" of server "tools" is ignored: ` + approvals}},
		{name: "remote", server: tool.MCPServer{Namespace: "remote", Transport: "streamable_http", URL: "https://remote.example.com/mcp",
			Headers: map[string]string{"X-Key": "k-1234"}}, secrets: []string{"k-1234"}},
		{name: "ws", err: `6:20: unknown type "ws"; OpenWorker reaches a server over "stdio", "http"`},
	})
}

// The product's own form: comments, "inputs", ${VAR:-default}, $$, timeout
// in seconds (capped), sse, remote https, autoApprove and unknown keys as
// notices, and bad entries as errors of their own.
func TestConfigOpenWorker(t *testing.T) {
	p := configPath("openworker", "servers.json")
	var a answers
	cfg := readFixture(t, p, &ConfigOptions{Inputs: a.ask})
	if cfg.Format != FormatOpenWorker || len(cfg.Notices) != 1 || !strings.Contains(cfg.Notices[0], `:3: top-level key "$schema" is ignored`) {
		t.Errorf("format %s, notices %q", cfg.Format, cfg.Notices)
	}
	checkEntries(t, cfg, []want{
		{name: "acer", server: tool.MCPServer{Namespace: "acer", Transport: "stdio", Program: "bin/acer-mcp", Args: []string{"--price", "$5"},
			Env: map[string]string{"TOKEN": "s3cret", "LEVEL": "info"}, Timeout: 75 * time.Second}, secrets: []string{"s3cret"},
			notices: []string{`:12: "autoApprove" of server "acer" is ignored: ` + approvals, `:11: "timeout" 90 seconds of server "acer" is over`}},
		{name: "lights", server: tool.MCPServer{Namespace: "lights", Transport: "streamable_http", URL: "https://lights.example.com/mcp",
			Headers: map[string]string{"Authorization": "Bearer ans-lights-key"}, Timeout: 2500 * time.Millisecond},
			secrets: []string{"ans-lights-key", "Bearer ans-lights-key"}},
		{name: "old", server: tool.MCPServer{Namespace: "old", Transport: "sse", URL: "http://127.0.0.1:9/sse"}},
		{name: "off", disabled: true, server: tool.MCPServer{Namespace: "off", Transport: "stdio"}, notices: []string{`server "off" is disabled`}},
		{name: "broken", err: `17:5: server "broken" has no "command"`, notices: []string{`:17: unknown key "comand" of server "broken" is ignored`}},
		{name: "lan", err: `18:52: "192.168.1.10" is not this computer`},
	})
	if len(a.asked) != 1 {
		t.Errorf("asked %v; want lights-key once", a.asked)
	}
}

// TestConfigFormatDetection: the file name decides when its content
// agrees, else the content; --format overrides both.
func TestConfigFormatDetection(t *testing.T) {
	dir := t.TempDir()
	fakeHome(t, filepath.Join(dir, "home"))
	write := func(rel, body string) string {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	eco := `{"mcpServers": {"a": {"command": "x"}}}`
	for rel, want := range map[string]ConfigFormat{
		"Claude/claude_desktop_config.json": FormatClaudeDesktop,
		"p/.cursor/mcp.json":                FormatCursor,
		"globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json": FormatCline,
		"globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json":   FormatRoo,
		"p/.roo/mcp.json":                        FormatRoo,
		"home/.codeium/windsurf/mcp_config.json": FormatWindsurf,
		"p/.mcp.json":                            FormatClaudeCode,
		"p/.amazonq/mcp.json":                    FormatAmazonQ,
		"home/.aws/amazonq/mcp.json":             FormatAmazonQ,
		"other/anything.json":                    FormatMCPServers,
		"p/.vscode/mcp.json":                     FormatMCPServers, // the name says VS Code, the content does not
	} {
		cfg, err := ReadConfig(write(rel, eco), nil)
		if err != nil || cfg.Format != want {
			t.Errorf("%s: %v, %v; want %s", rel, cfg, err, want)
		}
	}
	vs := `{"servers": {"a": {"type": "stdio", "command": "x"}}}`
	for rel, want := range map[string]ConfigFormat{
		"p/.vscode/mcp.json":                          FormatVSCode,
		"Code/User/mcp.json":                          FormatVSCode,
		"Code - Insiders/User/profiles/1a2b/mcp.json": FormatVSCode,
		"x/servers.json":                              FormatVSCode,
	} {
		cfg, err := ReadConfig(write(rel, vs), nil)
		if err != nil || cfg.Format != want {
			t.Errorf("%s: %v, %v; want %s", rel, cfg, err, want)
		}
	}
	ow := write("y/servers.json", `{"servers": {"a": {"transport": "stdio", "command": "x"}}}`)
	if cfg, err := ReadConfig(ow, nil); err != nil || cfg.Format != FormatOpenWorker {
		t.Errorf("product form: %v, %v", cfg, err)
	}
	if cfg, err := ReadConfig(write("z/empty.json", `{"servers": {}}`), nil); err != nil || cfg.Format != FormatOpenWorker {
		t.Errorf("empty servers: %v, %v", cfg, err)
	}
	// --format cline reads a generic file with Cline's rules: a URL
	// without type is SSE there.
	p := write("q/anything.json", `{"mcpServers": {"a": {"url": "https://x.example.com/events"}}}`)
	cfg, err := ReadConfig(p, &ConfigOptions{Format: FormatCline})
	if err != nil || cfg.Format != FormatCline || cfg.Entries[0].Server.Transport != tool.TransportSSE {
		t.Errorf("--format cline: %+v, %v", cfg, err)
	}
	if _, err := ParseConfigFormat("zed"); err == nil || !strings.Contains(err.Error(), "claude-desktop") {
		t.Errorf("ParseConfigFormat(zed) = %v", err)
	}
	// A user-level .mcp.json (in the home folder) has no project folder.
	home := write("home/.mcp.json", `{"mcpServers": {"a": {"command": "x", "args": ["${workspaceFolder}"]}}}`)
	if cfg, err := ReadConfig(home, &ConfigOptions{Format: FormatCursor}); err != nil || cfg.Entries[0].Err == nil ||
		!strings.Contains(cfg.Entries[0].Err.Error(), "${workspaceFolder} has no meaning here") {
		t.Errorf("user-level ${workspaceFolder}: %+v, %v", cfg, err)
	}
}

// TestConfigJSONCPositions: a comment holding multi-byte characters before
// a bad value on the same line still yields the column an editor shows.
func TestConfigJSONCPositions(t *testing.T) {
	p := filepath.Join(t.TempDir(), "mcp.json")
	os.WriteFile(p, []byte("{\"mcpServers\": {\n  /* é ü */ \"x\": {\"command\": 7},\n}}"), 0o600)
	cfg, err := ReadConfig(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	e, ok := jsonfile.AsError(cfg.Entries[0].Err)
	if !ok || e.Line != 2 || e.Col != 30 || !strings.Contains(e.Msg, `must be a string, not a number`) {
		t.Errorf("Err = %v; want 2:30", cfg.Entries[0].Err)
	}
	os.WriteFile(p, []byte("{\"mcpServers\": {\n  // note\n  \"x\": {\"command\": \"a\" \"args\": []}}}"), 0o600)
	if _, err := ReadConfig(p, nil); err == nil || !strings.Contains(err.Error(), p+":3:") {
		t.Errorf("malformed JSONC = %v; want the file and line 3", err)
	}
}

func TestDeriveNamespace(t *testing.T) {
	for in, want := range map[string]string{
		"github":                  "github",
		"awslabs.core-mcp-server": "awslabs_core-mcp-server",
		"My Server (beta)":        "My_Server_beta",
		"@scope/pkg":              "scope_pkg",
		"über-tool":               "ber-tool",
		"a..b":                    "a_b",
	} {
		got, derived, err := DeriveNamespace(in)
		if err != nil || got != want || derived != (in != want) {
			t.Errorf("DeriveNamespace(%q) = %q, %v, %v; want %q", in, got, derived, err, want)
		}
	}
	for _, in := range []string{"", "...", "é", "openworker", "open.worker"} {
		if in == "open.worker" { // derives to open_worker: fine
			continue
		}
		if _, _, err := DeriveNamespace(in); err == nil {
			t.Errorf("DeriveNamespace(%q) has no error", in)
		}
	}
}

// TestParseConfigReadsData: ParseConfig reads text it is given as
// ReadConfig reads a file: the path names the format and the messages.
func TestParseConfigReadsData(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".mcp.json")
	cfg, err := ParseConfig(path, []byte(`{"mcpServers": {"web": {"type": "http", "url": "http://example.com/mcp"}}}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Format != FormatClaudeCode || len(cfg.Entries) != 1 || cfg.Entries[0].Err == nil ||
		!strings.HasPrefix(cfg.Entries[0].Err.Error(), path+":1:") {
		t.Errorf("ParseConfig = %s, %+v", cfg.Format, cfg.Entries)
	}
	if _, err := ParseConfig(path, make([]byte, MaxServersFileBytes+1), nil); err == nil {
		t.Error("ParseConfig took more than MaxServersFileBytes")
	}
}
