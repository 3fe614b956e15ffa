package sandbox

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/tool"
)

// TestExpandRefusesAWorkspaceThatHoldsHome: a workspace written to by a
// sandbox must not hold what would let the provider out of it at the
// next start or login: a root, the home folder (shell start-up files,
// autostart entries, keys) or a folder above it, or OpenWorker's own
// folder (servers.json, extensions, the journal). A project folder, in
// the home folder too, expands; a placement that does not write the
// workspace is not affected.
func TestExpandRefusesAWorkspaceThatHoldsHome(t *testing.T) {
	home := t.TempDir()
	cfg := userConfigIn(t, filepath.Join(t.TempDir(), "cfg"))
	proj := filepath.Join(home, "proj")
	for _, d := range []string{proj, filepath.Join(cfg, "OpenWorker")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tmp := t.TempDir()
	vars := func(ws string) Vars { return Vars{Workspace: ws, Temp: tmp, Home: home} }
	for _, ws := range []string{home, filepath.Dir(home), rootOf(home), cfg, filepath.Join(cfg, "OpenWorker")} {
		_, err := Expand(tool.DefaultSandbox(), vars(ws))
		if err == nil || !strings.Contains(err.Error(), "choose a project folder") {
			t.Errorf("workspace %s: %v; want refused", ws, err)
		}
	}
	if r, err := Expand(tool.DefaultSandbox(), vars(proj)); err != nil || len(r.Write) != 2 || r.Write[0] != proj {
		t.Errorf("workspace %s: %+v, %v", proj, r, err)
	}
	readOnly := &tool.Sandbox{Read: []string{"${workspace}"}, Network: tool.SandboxNetwork{Mode: tool.NetNone}}
	if _, err := Expand(readOnly, vars(home)); err != nil {
		t.Errorf("reading a workspace that is home: %v", err)
	}
}

// TestExpandRefusesWideWritePaths: a write path that is a root, the
// home folder, or holds OpenWorker's own folder is refused, naming it;
// a folder inside home is fine.
func TestExpandRefusesWideWritePaths(t *testing.T) {
	home := t.TempDir()
	cfg := userConfigIn(t, filepath.Join(home, ".config"))
	os.MkdirAll(filepath.Join(cfg, "OpenWorker"), 0o700)
	os.MkdirAll(filepath.Join(home, ".npm"), 0o700)
	v := Vars{Home: home, Temp: t.TempDir()}
	for _, w := range []string{rootOf(home), "${home}", "${home}/.config", filepath.Dir(home)} {
		_, err := Expand(&tool.Sandbox{Write: []string{w}}, v)
		if err == nil || !strings.Contains(err.Error(), "no sandbox may write") {
			t.Errorf("write %s = %v; want refused", w, err)
		}
	}
	if _, err := Expand(&tool.Sandbox{Write: []string{"${home}/.npm", "${temp}"}}, v); err != nil {
		t.Errorf("write ~/.npm = %v", err)
	}
}

// userConfigIn makes os.UserConfigDir, where OpenWorker's own folder is,
// a folder in base for this test and returns it: base itself on Linux
// ($XDG_CONFIG_HOME) and Windows (%AppData%), base/Library/Application
// Support on macOS ($HOME).
func userConfigIn(t *testing.T, base string) string {
	t.Helper()
	switch runtime.GOOS {
	case "windows":
		t.Setenv("AppData", base)
	case "darwin", "ios":
		t.Setenv("HOME", base)
	default:
		t.Setenv("XDG_CONFIG_HOME", base)
	}
	cfg, err := os.UserConfigDir()
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// rootOf is the root of the file system path is on: "/", or its drive's
// root on Windows (C:\).
func rootOf(path string) string {
	return filepath.VolumeName(path) + string(filepath.Separator)
}

// TestEveryVariableHasWords: each variable a path template may use
// (CheckTemplate) is named in words by tool.Sandbox.Words, never shown
// as "${…}" (docs/sandbox.md#in-words), so the two lists cannot drift.
func TestEveryVariableHasWords(t *testing.T) {
	for v := range variables {
		tmpl := "${" + v + "}"
		if err := CheckTemplate(tmpl); err != nil {
			t.Errorf("CheckTemplate(%s) = %v", tmpl, err)
		}
		if w := (&tool.Sandbox{Read: []string{tmpl}}).Words(); strings.Contains(w, "${") {
			t.Errorf("%s in words is %q", tmpl, w)
		}
	}
	if err := CheckTemplate("${nope}"); err == nil {
		t.Error("CheckTemplate(${nope}) = nil; want the unknown variable named")
	}
}

// TestExpandRefusesMovedOwnFolder: with OpenWorker's folder moved
// (OPENWORKER_CONFIG_DIR, the app's --config-dir), a workspace or write
// path holding the folder in use is refused as the default one is.
func TestExpandRefusesMovedOwnFolder(t *testing.T) {
	home, projects, moved := movedOwnFolder(t, "ow-config")
	v := Vars{Home: home, Temp: t.TempDir(), Workspace: projects}
	_, err := Expand(&tool.Sandbox{Write: []string{"${workspace}"}}, v)
	if err == nil || !strings.Contains(err.Error(), "OpenWorker's own folder") || !strings.Contains(err.Error(), moved) {
		t.Errorf("a workspace holding the moved folder = %v; want refused, naming %s", err, moved)
	}
	if _, err := Expand(&tool.Sandbox{Write: []string{projects}}, Vars{Home: home, Temp: t.TempDir()}); err == nil {
		t.Errorf("write %s (holds the moved folder) = nil; want refused", projects)
	}
	t.Setenv(ConfigDirEnv, "")
	if _, err := Expand(&tool.Sandbox{Write: []string{"${workspace}"}}, v); err != nil {
		t.Errorf("the same workspace without the move = %v; want allowed", err)
	}
}

// TestExpandRefusesOwnFiles: a workspace or write path holding one of
// Vars.Own (the servers file the entry comes from, the journal) is
// refused, naming it; a folder beside them is fine.
func TestExpandRefusesOwnFiles(t *testing.T) {
	home := t.TempDir()
	userConfigIn(t, filepath.Join(home, ".config"))
	project := t.TempDir()
	servers := filepath.Join(project, ".vscode", "mcp.json")
	os.MkdirAll(filepath.Dir(servers), 0o700)
	os.WriteFile(servers, []byte("{}"), 0o600)
	other := t.TempDir()
	v := Vars{Home: home, Temp: t.TempDir(), Workspace: project, Own: []string{servers, ""}}
	for _, p := range []*tool.Sandbox{{Write: []string{"${workspace}"}}, {Write: []string{filepath.Join(project, ".vscode")}}, {Write: []string{servers}}} {
		_, err := Expand(p, v)
		if err == nil || !strings.Contains(err.Error(), "OpenWorker's own file") || !strings.Contains(err.Error(), servers) {
			t.Errorf("write %v = %v; want refused, naming %s", p.Write, err, servers)
		}
	}
	if _, err := Expand(&tool.Sandbox{Write: []string{other}}, v); err != nil {
		t.Errorf("write %s beside them = %v", other, err)
	}
}
