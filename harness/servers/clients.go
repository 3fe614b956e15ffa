package servers

import (
	"os"
	"path/filepath"
	"strings"
)

// ClientConfig is the default location of another MCP client's config file
// on one operating system (docs/servers.md, "Import").
type ClientConfig struct {
	Client string // display name: "Claude Desktop", "Cursor", "VS Code", …
	Format string // the ConfigFormat the file is read as
	// Path is absolute. A "*" in it stands for a folder name that varies
	// from one computer to the next (the MSIX package's publisher id):
	// ExistingClientConfigs expands it.
	Path string
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
// Amazon Q's ~/.aws/amazonq/mcp.json. On Windows, Claude Desktop installed
// from its MSIX package (the current installer) keeps its file in the
// package's redirected folder,
// %LOCALAPPDATA%\Packages\Claude_<id>\LocalCache\Roaming\Claude
// (LOCALAPPDATA, else ~\AppData\Local).
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
	out := []ClientConfig{
		{"Claude Desktop", "claude-desktop", j(appData, "Claude", "claude_desktop_config.json")},
		{"Cursor", "cursor", j(home, ".cursor", "mcp.json")},
		{"VS Code", "vscode", j(code, "mcp.json")},
		{"VS Code Insiders", "vscode", j(appData, "Code - Insiders", "User", "mcp.json")},
		{"Windsurf", "windsurf", j(home, ".codeium", "windsurf", "mcp_config.json")},
		{"Cline", "cline", j(code, "globalStorage", "saoudrizwan.claude-dev", "settings", "cline_mcp_settings.json")},
		{"Roo Code", "roo", j(code, "globalStorage", "rooveterinaryinc.roo-cline", "settings", "mcp_settings.json")},
		{"Amazon Q", "amazon-q", j(home, ".aws", "amazonq", "mcp.json")},
	}
	if goos == "windows" {
		local := getenv("LOCALAPPDATA")
		if local == "" {
			local = j(home, "AppData", "Local")
		}
		out = append(out, ClientConfig{"Claude Desktop", "claude-desktop", j(local, "Packages", "Claude_*", "LocalCache", "Roaming", "Claude", "claude_desktop_config.json")})
	}
	return out
}

// ExistingClientConfigs is ClientConfigs for this computer (goos must be
// runtime.GOOS) kept to the files that exist, with each "*" expanded to
// the folders that match; a file reached twice is listed once.
func ExistingClientConfigs(goos, home string, getenv func(string) string) []ClientConfig {
	return existing(ClientConfigs(goos, home, getenv))
}

// existing keeps the files of list that exist, expanding each "*".
func existing(list []ClientConfig) []ClientConfig {
	var out []ClientConfig
	seen := map[string]bool{}
	for _, cc := range list {
		paths := []string{cc.Path}
		if strings.Contains(cc.Path, "*") {
			paths, _ = filepath.Glob(cc.Path)
		}
		for _, p := range paths {
			if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() || seen[p] {
				continue
			}
			seen[p] = true
			out = append(out, ClientConfig{Client: cc.Client, Format: cc.Format, Path: p})
		}
	}
	return out
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
