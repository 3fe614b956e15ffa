package mcp

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/openworker/desktop/harness/mcp/launch"
	"github.com/openworker/desktop/harness/tool"
)

// launchPlan is how a stdio provider's program is started
// (docs/mcp.md#finding-the-program).
type launchPlan struct {
	program string   // the resolved program, e.g. /opt/homebrew/bin/npx or C:\nodejs\npx.cmd
	path    string   // what is executed: program, or cmd.exe for a .cmd/.bat shim
	args    []string // os/exec's arguments (ignored on Windows when cmdLine is set)
	cmdLine string   // Windows only: the whole command line (launch.CmdLine); "" lets os/exec quote
}

// planLaunch resolves srv.Program against install and sp with the rules of
// goos (pathExt is Windows' PATHEXT), and on Windows runs a .cmd/.bat
// shim (trailing dots and spaces ignored, launch.IsShim) through cmd.exe
// with its arguments quoted by launch.CmdLine; any other program's line
// is checked against CreateProcess's limit (launch.CheckExeLine).
func planLaunch(srv tool.MCPServer, install string, sp launch.SearchPath, goos, pathExt string) (launchPlan, error) {
	s := launch.Search{Path: sp.Path, Source: sp.Describe(), GOOS: goos, PathExt: pathExt, InstallDir: install}
	prog, err := s.Find(srv.Program)
	if err != nil {
		return launchPlan{}, err
	}
	plan := launchPlan{program: prog, path: prog, args: srv.Args}
	if goos == "windows" && launch.IsShim(prog) {
		line, err := launch.CmdLine(prog, srv.Args)
		if err != nil {
			return launchPlan{}, err
		}
		plan.path, plan.args, plan.cmdLine = comSpec(), nil, line
	} else if goos == "windows" {
		if err := launch.CheckExeLine(prog, srv.Args); err != nil {
			return launchPlan{}, err
		}
	}
	return plan, nil
}

// comSpec is %SystemRoot%\System32\cmd.exe (not %ComSpec%, which any
// program may point elsewhere).
func comSpec() string {
	root := os.Getenv("SystemRoot")
	if root == "" {
		root = `C:\Windows`
	}
	return filepath.Join(root, "System32", "cmd.exe")
}

// withPath replaces PATH in environ (KEY=VALUE lines; any case on
// Windows) by path, so that a program the provider starts by name
// (`#!/usr/bin/env node` inside npx) is found where the provider was.
// An empty path leaves environ as it is; the entry's own "env" PATH is
// merged after this and wins.
func withPath(environ []string, path, goos string) []string {
	if path == "" {
		return environ
	}
	out := make([]string, 0, len(environ)+1)
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if k == "PATH" || goos == "windows" && strings.EqualFold(k, "PATH") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "PATH="+path)
}

// searchPath is the search PATH for stdio programs: Options.SearchPath, or
// launch.Default.
func (o Options) searchPath(ctx context.Context) launch.SearchPath {
	if o.SearchPath != nil {
		return o.SearchPath(ctx)
	}
	return launch.Default(ctx)
}
