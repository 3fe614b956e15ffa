//go:build unix

package mcp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/mcp/launch"
	"github.com/openworker/desktop/harness/tool"
)

// searchPathOf is an Options.SearchPath that returns path.
func searchPathOf(path string) func(context.Context) launch.SearchPath {
	return func(context.Context) launch.SearchPath {
		return launch.SearchPath{Path: path, Source: launch.FromLoginShell, Shell: "/bin/zsh"}
	}
}

// A real fake npx, found only through the search PATH handed to the
// manager (the process PATH does not have its folder), starts a real MCP
// server; the server's child PATH is that search PATH, so npx's
// `#!/usr/bin/env ow-test-node` finds ow-test-node there. ProgramPath is
// the npx found.
func TestStdioProgramFoundOnTheSearchPath(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	node := "#!/bin/sh\nexec '" + exe + "' \"$@\"\n" // stands in for node: runs the test server
	if err := os.WriteFile(filepath.Join(bin, "ow-test-node"), []byte(node), 0o755); err != nil {
		t.Fatal(err)
	}
	npx := filepath.Join(bin, "ow-test-npx")
	if err := os.WriteFile(npx, []byte("#!/usr/bin/env ow-test-node\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(os.Getenv("PATH"), bin) {
		t.Fatal("the test folder is on the process PATH")
	}
	srv := selfServer(t, "viashim", "helper")
	srv.Program = "ow-test-npx"
	p, err := Connect(context.Background(), srv, &Options{InstallDir: t.TempDir(), SearchPath: searchPathOf(bin)})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.ProgramPath() != npx {
		t.Errorf("ProgramPath = %q; want %q", p.ProgramPath(), npx)
	}
	if tools, err := p.ListTools(context.Background()); err != nil || len(tools) == 0 {
		t.Fatalf("ListTools = %v, %v", tools, err)
	}

	// The same start with the process PATH fails: the folder is only on
	// the search PATH.
	_, err = Connect(context.Background(), srv, &Options{InstallDir: t.TempDir(), SearchPath: func(context.Context) launch.SearchPath { return launch.ProcessPath() }})
	var nf *launch.NotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("Connect with the process PATH = %v; want a NotFoundError", err)
	}
}

// A program that cannot be found: Connect's error names it, each folder of
// the PATH searched and where that PATH came from.
func TestStdioNotFoundNamesTheSearchPath(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	srv := tool.MCPServer{Namespace: "gone", Program: "ow-no-such-npx"}
	_, err := Connect(context.Background(), srv, &Options{InstallDir: t.TempDir(), SearchPath: searchPathOf(a + ":" + b)})
	if err == nil {
		t.Fatal("Connect succeeded")
	}
	mustContain(t, "Connect error", err.Error(), `mcp provider "gone"`, `program "ow-no-such-npx" cannot be found`,
		"(from the login shell /bin/zsh): "+a+", "+b, `install it, or give its absolute path in "command"`)
}

// The child's PATH is the search PATH unless the entry's env sets PATH.
func TestWithPath(t *testing.T) {
	env := []string{"HOME=/h", "PATH=/usr/bin", "LANG=C"}
	got := mergeEnv(withPath(env, "/login/bin:/usr/bin", "darwin"), nil)
	if strings.Join(got, " ") != "HOME=/h LANG=C PATH=/login/bin:/usr/bin" {
		t.Errorf("withPath = %q", got)
	}
	got = mergeEnv(withPath(env, "/login/bin", "linux"), map[string]string{"PATH": "/mine"})
	if got[len(got)-1] != "PATH=/mine" { // os/exec keeps the last duplicate
		t.Errorf("the entry's PATH does not win: %q", got)
	}
	got = withPath([]string{"Path=C:\\Windows", "TEMP=C:\\t"}, `C:\nodejs;C:\Windows`, "windows")
	if strings.Join(got, " ") != `TEMP=C:\t PATH=C:\nodejs;C:\Windows` {
		t.Errorf("withPath on Windows = %q", got)
	}
	if got := withPath(env, "", "linux"); len(got) != 3 || got[1] != "PATH=/usr/bin" {
		t.Errorf("withPath with no search PATH = %q", got)
	}
}

// On Windows a .cmd shim runs through cmd.exe with the whole command line
// built by launch.CmdLine; an .exe runs directly (os/exec quotes it).
func TestPlanLaunchWindowsShim(t *testing.T) {
	bin := t.TempDir()
	for _, name := range []string{"npx.cmd", "node.exe"} {
		if err := os.WriteFile(filepath.Join(bin, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("SystemRoot", `C:\Windows`)
	sp := launch.SearchPath{Path: bin, Source: launch.FromProcess}
	plan, err := planLaunch(tool.MCPServer{Program: "npx", Args: []string{"-y", "a&b"}}, "", sp, "windows", "")
	if err != nil {
		t.Fatal(err)
	}
	want := `cmd.exe /e:ON /v:OFF /d /s /c ""` + filepath.Join(bin, "npx.cmd") + `" -y "a&b""`
	if plan.program != filepath.Join(bin, "npx.cmd") || !strings.HasSuffix(plan.path, "cmd.exe") || plan.cmdLine != want {
		t.Errorf("plan = %+v; want cmd.exe with %s", plan, want)
	}
	plan, err = planLaunch(tool.MCPServer{Program: "node", Args: []string{"a&b"}}, "", sp, "windows", "")
	if err != nil || plan.path != filepath.Join(bin, "node.exe") || plan.cmdLine != "" || plan.args[0] != "a&b" {
		t.Errorf("plan of node = %+v, %v; want node.exe run directly", plan, err)
	}
	_, err = planLaunch(tool.MCPServer{Program: "npx", Args: []string{"two\nlines"}}, "", sp, "windows", "")
	if err == nil || !strings.Contains(err.Error(), "argument 1") {
		t.Errorf("plan with a line break = %v; want a refusal", err)
	}
}
