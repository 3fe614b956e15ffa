//go:build unix

package harness_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/mcp/launch"
	"github.com/openworker/desktop/harness/tool"
)

// TestCheckShowsProgramPath: Check reports the program each stdio provider
// runs, found on the search PATH of Options.SearchPath (not the process
// PATH), and a program found nowhere breaks its bundle with a message
// naming the PATH searched.
func TestCheckShowsProgramPath(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(bin, "ow-check-server")
	if err := os.Symlink(exe, prog); err != nil {
		t.Fatal(err)
	}
	srv := selfMCP(t, "bad", filepath.Join(dir, "calls.txt"))
	srv.Program = "ow-check-server"
	reg := tool.NewRegistry()
	for _, err := range []error{
		reg.RegisterMCP(srv),
		reg.RegisterMCP(tool.MCPServer{Namespace: "gone", Program: "ow-no-such-server"}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	bundles := filepath.Join(dir, "coworkers")
	writeBundle(t, bundles, "found", []string{"bad.sleep", "bad.crash"}, "")
	writeBundle(t, bundles, "lost", []string{"gone.anything"}, "")
	sp := func(context.Context) launch.SearchPath {
		return launch.SearchPath{Path: bin, Source: launch.FromLoginShell, Shell: "/bin/zsh"}
	}
	rt, err := harness.Open(context.Background(), reg, harness.Options{Coworkers: bundles, InstallDir: t.TempDir(), SearchPath: sp})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	rep, err := rt.Check(context.Background(), bundles, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.OK) != 1 || len(rep.OK[0].Tools) != 2 {
		t.Fatalf("report = %+v; want bundle found with two tools", rep)
	}
	for _, tl := range rep.OK[0].Tools {
		if tl.ProgramPath != prog {
			t.Errorf("tool %s: program_path %q; want %q", tl.Name, tl.ProgramPath, prog)
		}
	}
	if len(rep.Broken) != 1 || !strings.Contains(rep.Broken[0].Message, `program "ow-no-such-server" cannot be found`) ||
		!strings.Contains(rep.Broken[0].Message, "(from the login shell /bin/zsh): "+bin) {
		t.Errorf("broken = %+v; want lost with the PATH searched", rep.Broken)
	}
	if len(rep.Broken) == 1 && !strings.HasPrefix(rep.Broken[0].Fix, "install ow-no-such-server (so that it is on the PATH named above), or give its absolute path") {
		t.Errorf("fix = %q; want install it or give its absolute path", rep.Broken[0].Fix)
	}
}
