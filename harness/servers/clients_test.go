package servers

import (
	"path/filepath"
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
	}
	for _, tt := range tests {
		var got string
		for _, c := range ClientConfigs(tt.goos, tt.home, env(tt.env)) {
			if c.Client == tt.client {
				got = c.Path
			}
		}
		want := tt.want
		if tt.goos != "windows" {
			want = filepath.FromSlash(want)
		}
		if got != want {
			t.Errorf("%s %s: got %q, want %q", tt.goos, tt.client, got, want)
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
