package servers

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestClientConfigs(t *testing.T) {
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	tests := []struct {
		goos, home string
		env        map[string]string
		client     string
		want       string
	}{
		{"darwin", "/Users/ann", nil, "Claude Desktop", "/Users/ann/Library/Application Support/Claude/claude_desktop_config.json"},
		{"darwin", "/Users/ann", nil, "VS Code", "/Users/ann/Library/Application Support/Code/User/mcp.json"},
		{"darwin", "/Users/ann", nil, "Cursor", "/Users/ann/.cursor/mcp.json"},
		{"windows", `C:\Users\ann`, map[string]string{"APPDATA": `C:\Users\ann\AppData\Roaming`}, "Claude Desktop", `C:\Users\ann\AppData\Roaming\Claude\claude_desktop_config.json`},
		{"windows", `C:\Users\ann`, nil, "VS Code", `C:\Users\ann\AppData\Roaming\Code\User\mcp.json`},
		{"windows", `C:\Users\ann`, nil, "Cursor", `C:\Users\ann\.cursor\mcp.json`},
		{"linux", "/home/ann", nil, "Claude Desktop", "/home/ann/.config/Claude/claude_desktop_config.json"},
		{"linux", "/home/ann", map[string]string{"XDG_CONFIG_HOME": "/xdg"}, "VS Code", "/xdg/Code/User/mcp.json"},
		{"linux", "/home/ann", nil, "Cline", "/home/ann/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json"},
		{"linux", "/home/ann", nil, "Windsurf", "/home/ann/.codeium/windsurf/mcp_config.json"},
		{"windows", `C:\Users\ann`, nil, "Amazon Q", `C:\Users\ann\.aws\amazonq\mcp.json`},
		{"darwin", "/Users/ann", nil, "Amazon Q", "/Users/ann/.aws/amazonq/mcp.json"},
		// Claude Desktop from its MSIX package (the current Windows installer).
		{"windows", `C:\Users\ann`, map[string]string{"LOCALAPPDATA": `D:\Local`}, "Claude Desktop", `D:\Local\Packages\Claude_*\LocalCache\Roaming\Claude\claude_desktop_config.json`},
		{"windows", `C:\Users\ann`, nil, "Claude Desktop", `C:\Users\ann\AppData\Local\Packages\Claude_*\LocalCache\Roaming\Claude\claude_desktop_config.json`},
	}
	for _, tt := range tests {
		var got []string
		for _, c := range ClientConfigs(tt.goos, tt.home, env(tt.env)) {
			if c.Client == tt.client {
				got = append(got, c.Path)
			}
		}
		want := tt.want
		if tt.goos != "windows" {
			want = filepath.FromSlash(want)
		}
		if !slices.Contains(got, want) {
			t.Errorf("%s %s: got %q, want %q among them", tt.goos, tt.client, got, want)
		}
	}
}

// Each default location is read as its client's format from the path
// alone, so a file found there and the same file picked by hand (the app's
// import, `servers import FILE`) are read alike.
func TestClientConfigsDetectedByPath(t *testing.T) {
	for _, c := range ClientConfigs("linux", "/home/ann", nil) {
		if got, _ := detectByPath(c.Path); string(got) != c.Format {
			t.Errorf("%s: %s is detected as %q, want %q", c.Client, c.Path, got, c.Format)
		}
	}
}

// A "*" in a location (the MSIX package id) is expanded to each folder
// that has the file; missing files, folders in the file's place and a
// file reached twice are left out.
func TestExistingExpandsThePackageFolder(t *testing.T) {
	local := t.TempDir()
	file := func(pkg string) string {
		return filepath.Join(local, "Packages", pkg, "LocalCache", "Roaming", "Claude", "claude_desktop_config.json")
	}
	for _, pkg := range []string{"Claude_pzs8sxrjxfjjc", "Claude_other"} {
		os.MkdirAll(filepath.Dir(file(pkg)), 0o755)
		os.WriteFile(file(pkg), []byte(`{"mcpServers": {}}`), 0o644)
	}
	os.MkdirAll(file("Claude_dir"), 0o755)
	os.MkdirAll(filepath.Join(local, "Packages", "Claude_empty"), 0o755)
	list := []ClientConfig{
		{"Claude Desktop", "claude-desktop", file("Claude_*")},
		{"Claude Desktop", "claude-desktop", file("Claude_other")},
		{"Cursor", "cursor", filepath.Join(local, "missing", "mcp.json")},
	}
	var got []string
	for _, c := range existing(list) {
		got = append(got, c.Path)
		if f, _ := detectByPath(c.Path); f != FormatClaudeDesktop {
			t.Errorf("%s is read as %q", c.Path, f)
		}
	}
	want := []string{file("Claude_other"), file("Claude_pzs8sxrjxfjjc")}
	if !slices.Equal(got, want) {
		t.Errorf("existing = %q; want %q", got, want)
	}
}
