//go:build darwin

package sandbox

import (
	"os"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/tool"
)

// TestWorkspaceCaseOnMac: macOS's default file system (APFS) ignores
// case, so a workspace written in other letters (typed, or from a
// coworker's settings) that holds OpenWorker's folder is refused too
// (Within). Compiled here with GOOS=darwin; it runs on a Mac.
func TestWorkspaceCaseOnMac(t *testing.T) {
	home, projects, _ := movedOwnFolder(t, "ow-config")
	other := strings.ToUpper(projects)
	if _, err := os.Stat(other); err != nil {
		t.Skipf("this volume is case-sensitive: %v", err)
	}
	if _, err := Expand(&tool.Sandbox{Write: []string{"${workspace}"}}, Vars{Home: home, Temp: t.TempDir(), Workspace: other}); err == nil {
		t.Errorf("workspace %s (the same folder as %s) holds OpenWorker's folder, yet Expand allowed it", other, projects)
	}
}
