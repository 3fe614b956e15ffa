package servers

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/openworker/desktop/harness/tool"
)

// ConfigFormat names a kind of MCP configuration file (docs/servers.md).
type ConfigFormat string

// The formats ReadConfig reads.
const (
	// FormatOpenWorker is the product's own servers.json:
	// {"servers": {NAMESPACE: {"transport": ..., ...}}, "inputs": [...]}.
	FormatOpenWorker ConfigFormat = "openworker"
	// FormatVSCode is VS Code's mcp.json: {"servers": {...}} with "type",
	// and an optional top-level "inputs".
	FormatVSCode        ConfigFormat = "vscode"
	FormatClaudeDesktop ConfigFormat = "claude-desktop"
	FormatCursor        ConfigFormat = "cursor"
	FormatCline         ConfigFormat = "cline"
	FormatRoo           ConfigFormat = "roo"
	FormatWindsurf      ConfigFormat = "windsurf"
	FormatClaudeCode    ConfigFormat = "claude-code"
	FormatAmazonQ       ConfigFormat = "amazon-q"
	// FormatMCPServers is any other {"mcpServers": {...}} file, read like
	// Claude Desktop's (values as written) with the keys most clients
	// share.
	FormatMCPServers ConfigFormat = "mcpServers"
)

// ConfigFormats lists every format, for a --format flag's help.
func ConfigFormats() []ConfigFormat {
	return []ConfigFormat{FormatOpenWorker, FormatVSCode, FormatClaudeDesktop, FormatCursor, FormatCline,
		FormatRoo, FormatWindsurf, FormatClaudeCode, FormatAmazonQ, FormatMCPServers}
}

// ParseConfigFormat checks a format name ("" means: detect it).
func ParseConfigFormat(s string) (ConfigFormat, error) {
	if s == "" {
		return "", nil
	}
	for _, f := range ConfigFormats() {
		if string(f) == s {
			return f, nil
		}
	}
	names := make([]string, 0, 10)
	for _, f := range ConfigFormats() {
		names = append(names, string(f))
	}
	return "", fmt.Errorf("unknown config format %q; use one of %s (or leave it out to detect it)", s, strings.Join(names, ", "))
}

// formatSpec is what one format's entries hold and how they read.
type formatSpec struct {
	label   string // for notices: "VS Code"
	root    string // "servers" or "mcpServers"
	typeKey string // "transport" (openworker) or "type"
	product bool   // the product's own form: "transport" is required and exact
	// urlKeys are the keys that hold the URL, preferred first.
	urlKeys []string
	// noTypeURL is the transport of an entry with a URL and no type; ""
	// makes it an error (Roo requires the type).
	noTypeURL string
	// timeoutUnit is the unit of "timeout"; 0 when the format has none.
	timeoutUnit time.Duration
	vars        syntax
	inputs      bool // a top-level "inputs" array (VS Code, openworker)
	// ignored are keys of the format that OpenWorker reads but does not
	// use, with the reason given in the notice.
	ignored map[string]string
	// refused are keys that would change what the server is, which
	// OpenWorker cannot do: an error for that entry, with the fix.
	refused map[string]string
}

// oauthNotice is why another client's OAuth keys are not read.
const oauthNotice = "this format's OAuth settings are not read: OpenWorker signs in when the server asks for it (docs/mcp.md#sign-in); a client id and scopes go in \"oauth\" of OpenWorker's servers.json"

const approvalsNotice = "approvals are asked in OpenWorker: a configuration file never grants one (docs/consent.md)"

// shared by every format but the product's own.
var commonIgnored = map[string]string{
	"autoApprove":   approvalsNotice,
	"alwaysAllow":   approvalsNotice,
	"disabledTools": "a coworker's tools.json decides which tools it may use (docs/bundles.md)",
	"oauth":         oauthNotice,
	"auth":          oauthNotice,
	"oauthScopes":   oauthNotice,
	"description":   "only the server's own tool descriptions are shown",
}

func ignored(extra map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range commonIgnored {
		out[k] = v
	}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

var envFileRefused = `"envFile" is not read by OpenWorker; move its variables into "env" (use ${env:NAME} or ${input:ID} for secrets)`

var specs = map[ConfigFormat]*formatSpec{
	FormatOpenWorker: {label: "OpenWorker servers.json", root: "servers", typeKey: "transport", product: true,
		urlKeys: []string{"url"}, timeoutUnit: time.Second,
		vars:   syntax{dollarEscape: true, shellVars: true, inputs: true, strict: true},
		inputs: true,
		ignored: map[string]string{
			"autoApprove": approvalsNotice,
			"alwaysAllow": approvalsNotice,
		}},
	FormatVSCode: {label: "VS Code", root: "servers", typeKey: "type",
		urlKeys: []string{"url"}, noTypeURL: tool.TransportStreamableHTTP,
		vars:   syntax{envColon: true, inputs: true, paths: vscodePaths, strict: true},
		inputs: true,
		ignored: ignored(map[string]string{
			"dev":     "development mode (watch and debug) is a VS Code feature",
			"gallery": "where VS Code found the server does not change how it runs",
			"version": "where VS Code found the server does not change how it runs",
			"sandbox": `it applies only with "sandboxEnabled": true`,
		}),
		refused: map[string]string{"envFile": envFileRefused}},
	FormatClaudeDesktop: {label: "Claude Desktop", root: "mcpServers", typeKey: "type",
		urlKeys: []string{"url"}, noTypeURL: tool.TransportStreamableHTTP, vars: literal, ignored: ignored(nil)},
	FormatCursor: {label: "Cursor", root: "mcpServers", typeKey: "type",
		urlKeys: []string{"url"}, noTypeURL: tool.TransportStreamableHTTP,
		vars:    syntax{envColon: true, paths: vscodePaths},
		ignored: ignored(nil),
		refused: map[string]string{"envFile": envFileRefused}},
	FormatCline: {label: "Cline", root: "mcpServers", typeKey: "type",
		urlKeys: []string{"url"}, noTypeURL: tool.TransportSSE, timeoutUnit: time.Second, vars: literal,
		ignored: ignored(nil)},
	FormatRoo: {label: "Roo Code", root: "mcpServers", typeKey: "type",
		urlKeys: []string{"url"}, noTypeURL: "", timeoutUnit: time.Second,
		vars: syntax{envColon: true, paths: map[string]partKind{"workspaceFolder": partWorkspace}},
		ignored: ignored(map[string]string{
			"watchPaths": "OpenWorker does not restart a server when files change",
		})},
	FormatWindsurf: {label: "Windsurf", root: "mcpServers", typeKey: "type",
		urlKeys: []string{"serverUrl", "url"}, noTypeURL: tool.TransportStreamableHTTP,
		vars:    syntax{envColon: true, refused: []string{"file:"}},
		ignored: ignored(nil)},
	FormatClaudeCode: {label: "Claude Code", root: "mcpServers", typeKey: "type",
		urlKeys: []string{"url"}, noTypeURL: tool.TransportStreamableHTTP, timeoutUnit: time.Millisecond,
		vars:    syntax{shellVars: true},
		ignored: ignored(nil),
		refused: map[string]string{"headersHelper": `"headersHelper" runs a command to make the headers, which OpenWorker does not do; write static "headers" (with ${VAR} for secrets)`}},
	FormatAmazonQ: {label: "Amazon Q", root: "mcpServers", typeKey: "type",
		urlKeys: []string{"url"}, noTypeURL: tool.TransportStreamableHTTP, timeoutUnit: time.Millisecond,
		vars:    syntax{envColon: true, refused: []string{"file:"}},
		ignored: ignored(nil)},
	FormatMCPServers: {label: "mcpServers", root: "mcpServers", typeKey: "type",
		urlKeys: []string{"url"}, noTypeURL: tool.TransportStreamableHTTP, timeoutUnit: time.Millisecond,
		vars: literal, ignored: ignored(nil)},
}

// entryKeys are the keys every format's entries may hold besides its
// type key and URL keys (each format's extras are in formatSpec).
var entryKeys = []string{"command", "args", "env", "cwd", "headers", "disabled", "timeout"}

// typeValues maps the "type" values of the client formats to transports.
var typeValues = map[string]string{
	"stdio": tool.TransportStdio, "http": tool.TransportStreamableHTTP, "streamable-http": tool.TransportStreamableHTTP,
	"streamable_http": tool.TransportStreamableHTTP, "streamableHttp": tool.TransportStreamableHTTP, "sse": tool.TransportSSE,
}

// clineTransportType is Cline's legacy "transportType" key.
var clineTransportType = map[string]string{"stdio": tool.TransportStdio, "sse": tool.TransportSSE, "http": tool.TransportStreamableHTTP}

// clientFiles are the file names that name their client's format wherever
// the file is (user-level files).
var clientFiles = map[string]ConfigFormat{
	"claude_desktop_config.json": FormatClaudeDesktop,
	"cline_mcp_settings.json":    FormatCline,
}

// projectFolders are the folders of a project that hold a client's
// mcp.json (".vscode/mcp.json"); the project is the folder above.
var projectFolders = map[string]ConfigFormat{
	".cursor":  FormatCursor,
	".roo":     FormatRoo,
	".vscode":  FormatVSCode,
	".amazonq": FormatAmazonQ,
}

// windsurfFolders are the folders Windsurf keeps its mcp_config.json in.
var windsurfFolders = map[string]bool{"windsurf": true, ".windsurf": true, ".codeium": true}

// detectByPath names the format a file's name and folder say, or "", and
// the project folder the file belongs to ("" for a user-level file).
func detectByPath(path string) (ConfigFormat, string) {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	base := strings.ToLower(filepath.Base(abs))
	dir := filepath.Dir(abs)
	parent := strings.ToLower(filepath.Base(dir))
	if f, ok := clientFiles[base]; ok {
		return f, ""
	}
	switch {
	case base == "mcp_settings.json" && strings.Contains(strings.ToLower(abs), "roo"):
		return FormatRoo, ""
	case base == "mcp_config.json" && windsurfFolders[parent]:
		return FormatWindsurf, ""
	case base == ".mcp.json":
		return FormatClaudeCode, projectOf(dir)
	case base == "mcp.json":
		return detectMCPJSON(dir, parent)
	}
	return "", ""
}

// detectMCPJSON names the format of an mcp.json in dir (whose lower-case
// name is parent) and its project: a project's client folder, Amazon Q's
// ~/.aws/amazonq, or VS Code's user folder.
func detectMCPJSON(dir, parent string) (ConfigFormat, string) {
	grand := filepath.Dir(dir)
	if f, ok := projectFolders[parent]; ok {
		return f, projectOf(grand)
	}
	switch {
	case parent == "amazonq" && strings.ToLower(filepath.Base(grand)) == ".aws":
		return FormatAmazonQ, ""
	case vscodeUserDir(dir):
		return FormatVSCode, ""
	}
	return "", ""
}

// projectOf is folder as the project of a client's file in it, or "" when
// it is the home folder (the file is then a user-level one).
func projectOf(folder string) string {
	if home, err := homeDir(); err == nil && samePath(folder, home) {
		return ""
	}
	return folder
}

// vscodeUserDir reports whether dir is VS Code's user folder (".../Code/User",
// "Code - Insiders", VSCodium, or a profile under "User/profiles/ID").
func vscodeUserDir(dir string) bool {
	if strings.EqualFold(filepath.Base(filepath.Dir(dir)), "profiles") {
		dir = filepath.Dir(filepath.Dir(dir))
	}
	if filepath.Base(dir) != "User" {
		return false
	}
	app := strings.ToLower(filepath.Base(filepath.Dir(dir)))
	return strings.HasPrefix(app, "code") || strings.Contains(app, "vscodium")
}

func samePath(a, b string) bool {
	a, b = filepath.Clean(a), filepath.Clean(b)
	if filepath.Separator == '\\' {
		return strings.EqualFold(a, b)
	}
	return a == b
}
