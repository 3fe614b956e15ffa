package servers

import (
	"path/filepath"
)

// ClientConfig is the default location of another MCP client's config file
// on one operating system (docs/servers.md, "Import").
type ClientConfig struct {
	Client string // display name: "Claude Desktop", "Cursor", "VS Code", …
	Format string // the ConfigFormat the file is read as
	Path   string // absolute
}

// ClientConfigs lists where the MCP clients people come from keep their
// user-wide server lists on goos ("darwin", "windows" or anything else,
// read as Linux), for a user whose home folder is home. getenv reads
// APPDATA on Windows and XDG_CONFIG_HOME elsewhere; it may be nil. The
// files need not exist: the caller keeps those that do.
//
// The locations are the clients' documented defaults: Claude Desktop's
// claude_desktop_config.json, Cursor's ~/.cursor/mcp.json, VS Code's user
// mcp.json (stable and Insiders), Windsurf's ~/.codeium/windsurf/mcp_config.json,
// the Cline and Roo Code extension settings inside VS Code's folder, and
// Amazon Q's ~/.aws/amazonq/mcp.json.
func ClientConfigs(goos, home string, getenv func(string) string) []ClientConfig {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	j := filepath.Join
	if goos == "windows" {
		j = func(p ...string) string { return winJoin(p...) }
	}
	// appData is the per-user settings root: ~/Library/Application Support,
	// %APPDATA% or $XDG_CONFIG_HOME (~/.config).
	var appData string
	switch goos {
	case "darwin":
		appData = j(home, "Library", "Application Support")
	case "windows":
		appData = getenv("APPDATA")
		if appData == "" {
			appData = j(home, "AppData", "Roaming")
		}
	default:
		appData = getenv("XDG_CONFIG_HOME")
		if appData == "" {
			appData = j(home, ".config")
		}
	}
	code := j(appData, "Code", "User")
	return []ClientConfig{
		{"Claude Desktop", "claude-desktop", j(appData, "Claude", "claude_desktop_config.json")},
		{"Cursor", "cursor", j(home, ".cursor", "mcp.json")},
		{"VS Code", "vscode", j(code, "mcp.json")},
		{"VS Code Insiders", "vscode", j(appData, "Code - Insiders", "User", "mcp.json")},
		{"Windsurf", "windsurf", j(home, ".codeium", "windsurf", "mcp_config.json")},
		{"Cline", "cline", j(code, "globalStorage", "saoudrizwan.claude-dev", "settings", "cline_mcp_settings.json")},
		{"Roo Code", "roo", j(code, "globalStorage", "rooveterinaryinc.roo-cline", "settings", "mcp_settings.json")},
		{"Amazon Q", "amazon-q", j(home, ".aws", "amazonq", "mcp.json")},
	}
}

// winJoin joins Windows path elements with '\' whatever the host system,
// so that the Windows list can be computed (and tested) anywhere.
func winJoin(p ...string) string {
	out := ""
	for _, e := range p {
		if e == "" {
			continue
		}
		switch {
		case out == "":
			out = e
		case out[len(out)-1] == '\\' || out[len(out)-1] == '/':
			out += e
		default:
			out += `\` + e
		}
	}
	return out
}
