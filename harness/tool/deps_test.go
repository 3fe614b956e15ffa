package tool_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoSandboxCode: the partner SDK depends on no sandbox code
// (docs/partner-tools.md): partners' tools import this package alone, so
// it must not pull harness/sandbox, Landlock or psx (cgo) with it. The
// sandbox request is plain data here (tool.Sandbox); harness/sandbox
// reads it.
func TestNoSandboxCode(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH: cannot list the package's dependencies")
	}
	out, err := exec.Command(goCmd, "list", "-deps", "-f", "{{.ImportPath}}", "github.com/openworker/desktop/harness/tool").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 {
		t.Fatal("go list -deps listed nothing")
	}
	for _, d := range deps {
		for _, bad := range []string{"harness/sandbox", "landlock", "psx"} {
			if strings.Contains(d, bad) {
				t.Errorf("harness/tool depends on %s (%s): keep sandbox code out of the partner SDK", d, bad)
			}
		}
	}
}
