//go:build darwin

package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/tool"
)

// TestWorkspaceCaseOnMac: macOS's default file system (APFS) ignores
// case, and filepath.EvalSymlinks keeps the case written, so a workspace
// written in other letters (typed, or from a coworker's settings) that
// holds OpenWorker's folder is not recognized by checkWorkspace/holds.
// Not run here (Linux); compiled with GOOS=darwin.
func TestWorkspaceCaseOnMac(t *testing.T) {
	home := t.TempDir()
	userConfigIn(t, filepath.Join(home, ".config"))
	projects := t.TempDir()
	moved := filepath.Join(projects, "ow-config")
	if err := os.MkdirAll(moved, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv(ConfigDirEnv, moved)
	other := strings.ToUpper(projects)
	if _, err := os.Stat(other); err != nil {
		t.Skipf("this volume is case-sensitive: %v", err)
	}
	if _, err := Expand(&tool.Sandbox{Write: []string{"${workspace}"}}, Vars{Home: home, Temp: t.TempDir(), Workspace: other}); err == nil {
		t.Errorf("workspace %s (the same folder as %s) holds OpenWorker's folder, yet Expand allowed it", other, projects)
	}
}
