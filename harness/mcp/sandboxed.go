package mcp

import (
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/openworker/desktop/harness/sandbox"
	"github.com/openworker/desktop/harness/tool"
)

// sandboxCommand makes cmd run inside srv.Sandbox (docs/sandbox.md) for a
// session whose workspace folder is workspace: it creates the private
// temporary folder (${temp}), expands the placement's variables and lets
// package sandbox rewrite cmd. It returns the temporary folder, which
// the caller removes once the process tree has ended. A placement that
// cannot be enforced here is an error that names the provider and what
// is missing; nothing is started.
func sandboxCommand(cmd *exec.Cmd, srv tool.MCPServer, program, workspace string, protected []string) (string, error) {
	temp, err := os.MkdirTemp("", "openworker-sandbox-")
	if err != nil {
		return "", fmt.Errorf("the sandbox's temporary folder: %w", err)
	}
	home, _ := os.UserHomeDir()
	providerDir := cmd.Dir
	if providerDir == "" {
		providerDir = filepath.Dir(program)
	}
	if workspace != "" {
		if abs, err := filepath.Abs(workspace); err == nil {
			workspace = abs
		}
	}
	rules, err := sandbox.Expand(srv.Sandbox, sandbox.Vars{Workspace: workspace, ProviderDir: providerDir, Program: program, Temp: temp, Home: home,
		Own: append([]string{sourceFile(srv.Source)}, protected...)})
	if err == nil {
		err = sandbox.Prepare(cmd, rules)
	}
	if err != nil {
		os.RemoveAll(temp)
		return "", &SandboxError{Source: srv.Source, Err: err}
	}
	return temp, nil
}

// SandboxError is why a sandboxed stdio provider was not started: its
// placement cannot be enforced here (a kernel feature missing, a mode this
// system refuses) or a path of it does not exist (docs/sandbox.md). The
// provider never runs unconfined instead.
type SandboxError struct {
	Source string // the entry's "PATH:LINE", or "" when registered from code
	Err    error
}

func (e *SandboxError) Error() string {
	return fmt.Sprintf("its sandbox cannot be enforced here, so it was not started: %v", e.Err)
}

func (e *SandboxError) Unwrap() error { return e.Err }

// removeTemp removes the sandbox's temporary folder, once.
func (s *stdioProcess) removeTemp() {
	if s.sandboxTemp == "" {
		return
	}
	s.cleanOnce.Do(func() {
		// Windows: the Low labels given to the write paths are put back
		// (docs/sandbox.md#windows-labels).
		if err := sandbox.Release(s.sandboxTemp); err != nil {
			slog.Warn("sandbox labels not put back", "err", err)
		}
		os.RemoveAll(s.sandboxTemp)
	})
}

// sourceFile is the file of an entry's Source ("PATH:LINE" or PATH): the
// servers file that decides the provider's sandbox, which it may never
// write (docs/sandbox.md#variables).
func sourceFile(source string) string {
	if i := strings.LastIndexByte(source, ':'); i > 0 && i < len(source)-1 {
		if _, err := strconv.Atoi(source[i+1:]); err == nil {
			source = source[:i]
		}
	}
	if source == "" || !filepath.IsAbs(source) {
		return ""
	}
	return source
}
