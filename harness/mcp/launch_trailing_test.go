package mcp

import (
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/mcp/launch"
	"github.com/openworker/desktop/harness/tool"
)

// A batch file named with trailing dots or spaces is still a batch file
// on Windows (CVE-2024-43402): it runs through cmd.exe with its arguments
// quoted by launch.CmdLine, never with os/exec's quoting.
func TestPlanLaunchWindowsTrailingDotShim(t *testing.T) {
	t.Setenv("SystemRoot", `C:\Windows`)
	for _, prog := range []string{`C:\nodejs\npx.cmd.`, `C:\nodejs\npx.cmd `, `C:\nodejs\npx.bat...`, `C:\nodejs\npx.cmd. .`} {
		plan, err := planLaunch(tool.MCPServer{Program: prog, Args: []string{"a&calc", "%PATH%"}}, "", launch.SearchPath{}, "windows", "")
		if err != nil {
			t.Fatalf("%q: %v", prog, err)
		}
		want := `cmd.exe /e:ON /v:OFF /d /s /c ""` + prog + `" "a&calc" "%%cd:~,%PATH%%cd:~,%""`
		if !strings.HasSuffix(plan.path, "cmd.exe") || plan.cmdLine != want || plan.args != nil {
			t.Errorf("plan of %q = %+v; want cmd.exe with %s", prog, plan, want)
		}
	}
	_, err := planLaunch(tool.MCPServer{Program: `C:\nodejs\node.exe`, Args: []string{strings.Repeat("a b", 11000)}}, "", launch.SearchPath{}, "windows", "")
	if err == nil || !strings.Contains(err.Error(), "32767") {
		t.Errorf("plan of a too long .exe line = %v; want a refusal naming 32767", err)
	}
}
