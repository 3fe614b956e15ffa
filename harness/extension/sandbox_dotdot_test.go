package extension

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/openworker/desktop/harness/sandbox"
)

// TestAddableDotDotOwnFolder: a folder chosen in an extension's settings
// that holds OpenWorker's folder named "..openworker"
// (OPENWORKER_CONFIG_DIR) is not added to the default sandbox's write
// paths: "..openworker" is a name inside it (sandbox.Within).
func TestAddableDotDotOwnFolder(t *testing.T) {
	home := t.TempDir()
	setHome(t, home)
	projects := t.TempDir()
	moved := filepath.Join(projects, "..openworker")
	if err := os.MkdirAll(moved, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv(sandbox.ConfigDirEnv, moved)
	if addable(projects, home, true) {
		t.Errorf("%s holds OpenWorker's folder %s, yet addable lets an extension write it", projects, moved)
	}
}
