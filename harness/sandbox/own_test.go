package sandbox

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/openworker/desktop/harness/tool"
)

// TestOwnFolderNamedDotDot: an own folder whose name starts with two
// dots (OPENWORKER_CONFIG_DIR=<project>/..openworker, a legal name) is
// inside the project: neither a workspace nor a write path may hold it.
func TestOwnFolderNamedDotDot(t *testing.T) {
	home, projects, moved := movedOwnFolder(t, "..openworker")
	if _, err := Expand(&tool.Sandbox{Write: []string{"${workspace}"}}, Vars{Home: home, Temp: t.TempDir(), Workspace: projects}); err == nil {
		t.Errorf("workspace %s holds OpenWorker's folder %s, yet Expand allowed writing it", projects, moved)
	}
	if _, err := Expand(&tool.Sandbox{Write: []string{projects}}, Vars{Home: home, Temp: t.TempDir()}); err == nil {
		t.Errorf("write path %s holds OpenWorker's folder %s, yet Expand allowed it", projects, moved)
	}
}

func TestWithin(t *testing.T) {
	folded := runtime.GOOS == "darwin" || runtime.GOOS == "windows"
	for _, c := range []struct {
		dir, p string
		want   bool
	}{
		{"/a/b", "/a/b", true},
		{"/a/b", "/a/b/c", true},
		{"/a/b/", "/a/b/c/../d", true},
		{"/a/b", "/a/b/..x", true},
		{"/a/b", "/a/bc", false},
		{"/a/b", "/a", false},
		{"/a/b", "/a/b/../c", false},
		{"/a/B", "/a/b/c", folded},
	} {
		dir, p := filepath.FromSlash(c.dir), filepath.FromSlash(c.p)
		if got := Within(dir, p); got != c.want {
			t.Errorf("Within(%q, %q) = %v, want %v", dir, p, got, c.want)
		}
	}
}

// movedOwnFolder makes a home with its config folder, and OpenWorker's
// folder moved (OPENWORKER_CONFIG_DIR) to a folder named name in a
// projects folder; it returns the three.
func movedOwnFolder(t *testing.T, name string) (home, projects, moved string) {
	t.Helper()
	home = t.TempDir()
	userConfigIn(t, filepath.Join(home, ".config"))
	projects = t.TempDir()
	moved = filepath.Join(projects, name)
	if err := os.MkdirAll(moved, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv(ConfigDirEnv, moved)
	return home, projects, moved
}
