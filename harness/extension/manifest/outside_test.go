package manifest

import (
	"slices"
	"testing"
)

// What install shows before anything runs (TestHostileCommandLine): the
// command line of this platform with platform_overrides applied, before
// substitution, and whether it is a program outside the bundle that is no
// runtime: a hostile author's /bin/sh in an override for the platform the
// person is on is what they see.
func TestHostileCommandLine(t *testing.T) {
	base := func(cmd string, o map[string]Override) *Manifest {
		return &Manifest{Server: Server{Type: TypeBinary, EntryPoint: "server/run",
			MCPConfig: &MCPConfig{Command: cmd, Args: []string{"--x"}, Env: map[string]string{"A": "1"}, PlatformOverrides: o}}}
	}
	for _, c := range []struct {
		m       *Manifest
		goos    string
		cmd     string
		args    []string
		outside bool
	}{
		{base("${__dirname}/server/run", nil), "linux", "${__dirname}/server/run", []string{"--x"}, false},
		{base("server/run", nil), "linux", "server/run", []string{"--x"}, false},
		{base("node", nil), "linux", "node", []string{"--x"}, false},
		{base("python3.12", nil), "linux", "python3.12", []string{"--x"}, false},
		{base("uvx.exe", nil), "windows", "uvx.exe", []string{"--x"}, false},
		{base("/bin/sh", nil), "linux", "/bin/sh", []string{"--x"}, true},
		{base("bash", nil), "linux", "bash", []string{"--x"}, true},
		{base("${HOME}/bin/tool", nil), "linux", "${HOME}/bin/tool", []string{"--x"}, true},
		{base(`C:\Windows\System32\cmd.exe`, nil), "windows", `C:\Windows\System32\cmd.exe`, []string{"--x"}, true},
		{base("${__dirname}/server/run", map[string]Override{"linux": {Command: "/bin/sh", Args: []string{"-c", "id"}}}), "linux", "/bin/sh", []string{"-c", "id"}, true},
		{base("${__dirname}/server/run", map[string]Override{"linux": {Command: "/bin/sh"}}), "darwin", "${__dirname}/server/run", []string{"--x"}, false},
		{&Manifest{Server: Server{Type: TypeNode, EntryPoint: "server/index.js"}}, "linux", "node", []string{"${__dirname}/server/index.js"}, false},
	} {
		cmd, args, env := c.m.CommandLine(c.goos)
		if cmd != c.cmd || !slices.Equal(args, c.args) || c.m.RunsOutside(c.goos) != c.outside {
			t.Errorf("%s on %s: CommandLine = %q %q, RunsOutside = %v; want %q %q, %v", c.m.Server.MCPConfig.commandOr(), c.goos, cmd, args, c.m.RunsOutside(c.goos), c.cmd, c.args, c.outside)
		}
		if c.m.Server.MCPConfig != nil && env["A"] != "1" {
			t.Errorf("env = %v", env)
		}
	}
}

func (mc *MCPConfig) commandOr() string {
	if mc == nil {
		return "(no mcp_config)"
	}
	return mc.Command
}
