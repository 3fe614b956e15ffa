package sandbox

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/openworker/desktop/harness/tool"
)

// TestOwnFolderNamedDotDot: checkWorkspace and holds decide "inside"
// with !strings.HasPrefix(rel, ".."), so an own folder whose name starts
// with two dots (OPENWORKER_CONFIG_DIR=<project>/..openworker, a legal
// folder name) is taken for one outside the workspace: the sandboxed
// provider may write OpenWorker's servers.json and journal.
func TestOwnFolderNamedDotDot(t *testing.T) {
	home := t.TempDir()
	userConfigIn(t, filepath.Join(home, ".config"))
	projects := t.TempDir()
	moved := filepath.Join(projects, "..openworker")
	if err := os.MkdirAll(moved, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv(ConfigDirEnv, moved)
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
