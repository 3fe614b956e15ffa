package launch

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// file writes name in dir with mode and returns its path.
func file(t *testing.T, dir, name string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

// Unix rules: the first folder with a regular file that has an executable
// bit; files without one and folders of the name are skipped, and so are
// empty and relative PATH entries.
func TestFindUnixRules(t *testing.T) {
	if runtime.GOOS == "windows" {
		// Not Wine's doing: Windows keeps no executable bit (every file
		// Stats as 0666) and its folders start with a drive letter, which
		// a ":"-separated PATH splits. TestFindWindowsRules covers the
		// rules Windows uses.
		t.Skip("the Unix rules need a Unix file system: executable bits and \"/\"-rooted folders")
	}
	a, b, c := t.TempDir(), t.TempDir(), t.TempDir()
	file(t, a, "npx", 0o644) // not executable
	os.Mkdir(filepath.Join(a, "uvx"), 0o755)
	want := file(t, b, "npx", 0o755)
	file(t, c, "npx", 0o755) // later folder: not taken
	uvx := file(t, c, "uvx", 0o700)
	s := Search{Path: strings.Join([]string{"", "relative/bin", a, b, c}, ":"), GOOS: "linux"}
	if got, err := s.Find("npx"); err != nil || got != want {
		t.Errorf("Find(npx) = %q, %v; want %q", got, err, want)
	}
	if got, err := s.Find("uvx"); err != nil || got != uvx {
		t.Errorf("Find(uvx) = %q, %v; want %q (the folder named uvx is skipped)", got, err, uvx)
	}
	if f := s.Folders(); len(f) != 3 || f[0] != a {
		t.Errorf("Folders() = %q; want the three absolute folders", f)
	}
	// Unix names are case-sensitive and take no PATHEXT.
	if _, err := s.Find("NPX"); err == nil {
		t.Error("Find(NPX) found a program under Unix rules")
	}
}

// The install folder: a bare name there wins over the search PATH; a
// relative path with a separator resolves against it; an absolute path is
// used as is. The folders are real ones, so the rules are this system's:
// on Windows the program is acer-mcp.exe (PATHEXT), the absolute path
// C:\opt\….
func TestFindInstallFolder(t *testing.T) {
	install, bin := t.TempDir(), t.TempDir()
	exe := ""
	if runtime.GOOS == "windows" {
		exe = ".exe"
	}
	local := file(t, install, "acer-mcp"+exe, 0o755)
	file(t, bin, "acer-mcp"+exe, 0o755)
	s := Search{Path: bin, InstallDir: install}
	if got, err := s.Find("acer-mcp"); err != nil || got != local {
		t.Errorf("Find(acer-mcp) = %q, %v; want the install folder's %q", got, err, local)
	}
	if got, err := s.Find("bin/acer-mcp"); err != nil || got != filepath.Join(install, "bin", "acer-mcp") {
		t.Errorf("Find(bin/acer-mcp) = %q, %v", got, err)
	}
	abs := filepath.Join(filepath.VolumeName(install)+string(filepath.Separator), "opt", "x", "server")
	if got, err := s.Find(abs); err != nil || got != abs {
		t.Errorf("Find(%s) = %q, %v", abs, got, err)
	}
	s.InstallDir = ""
	if _, err := s.Find("bin/acer-mcp"); err == nil || !strings.Contains(err.Error(), "give an absolute path") {
		t.Errorf("Find(bin/acer-mcp) without install folder = %v; want advice to give an absolute path", err)
	}
	if _, err := s.Find(""); err == nil || !strings.Contains(err.Error(), `set "command"`) {
		t.Errorf("Find(\"\") = %v", err)
	}
}

// A program found nowhere: the error names it, the install folder, each
// folder of the PATH searched and where that PATH came from, and what to do.
func TestFindNotFoundNamesThePATH(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	// This system's rules and PATH separator: the folders are real ones.
	s := Search{Path: a + string(os.PathListSeparator) + b, Source: "the login shell /bin/zsh", InstallDir: "/Applications/OpenWorker.app/Contents/MacOS"}
	_, err := s.Find("uvx")
	var nf *NotFoundError
	if !errors.As(err, &nf) || nf.Program != "uvx" || len(nf.Folders) != 2 {
		t.Fatalf("Find(uvx) = %v; want a *NotFoundError with both folders", err)
	}
	want := `program "uvx" cannot be found: it is not in the install folder /Applications/OpenWorker.app/Contents/MacOS and not in any folder of the PATH searched (from the login shell /bin/zsh): ` +
		a + ", " + b + `; install it, or give its absolute path in "command" (docs/mcp.md#finding-the-program)`
	if err.Error() != want {
		t.Errorf("error\n%s\nwant\n%s", err, want)
	}
	_, err = Search{GOOS: "linux"}.Find("uvx")
	if err == nil || !strings.Contains(err.Error(), "not on the search PATH, which is empty") {
		t.Errorf("Find on an empty PATH = %v", err)
	}
}

// Windows rules, exercised here: PATHEXT (the default when unset) in its
// order, extensions matched without case, a name that has an extension
// tried as is, no executable bit needed, ";" between folders and quotes
// around a folder removed.
func TestFindWindowsRules(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	file(t, a, "node.EXE", 0o644)
	npx := file(t, a, "npx.CMD", 0o644)
	file(t, a, "npx.ps1", 0o644)
	file(t, a, "npx", 0o644) // the sh script npm ships next to npx.cmd: no PATHEXT extension
	file(t, b, "tool.bat", 0o644)
	tool := file(t, b, "tool.exe", 0o644)
	file(t, b, "script.js", 0o644)
	s := Search{Path: a + `;"` + b + `"`, GOOS: "windows"}
	for name, want := range map[string]string{
		"npx":      npx,
		"NPX":      npx,
		"npx.cmd":  npx,
		"node":     filepath.Join(a, "node.EXE"),
		"node.exe": filepath.Join(a, "node.EXE"),
		"tool":     tool, // .EXE comes before .BAT in PATHEXT
		"tool.bat": filepath.Join(b, "tool.bat"),
	} {
		if got, err := s.Find(name); err != nil || got != want {
			t.Errorf("Find(%s) = %q, %v; want %q", name, got, err, want)
		}
	}
	if _, err := s.Find("script"); err == nil {
		t.Error("Find(script) found script.js: .js is not in PATHEXT")
	}
	s.PathExt = ".BAT;.EXE"
	if got, err := s.Find("tool"); err != nil || got != filepath.Join(b, "tool.bat") {
		t.Errorf("Find(tool) with PATHEXT .BAT;.EXE = %q, %v", got, err)
	}
	s.PathExt = ".EXE"
	if _, err := s.Find("npx"); err == nil {
		t.Error("Find(npx) with PATHEXT .EXE found npx.CMD")
	}
	if !IsShim(npx) || !IsShim(`C:\x\y.Bat`) || IsShim(tool) {
		t.Error("IsShim: want true for .CMD and .Bat, false for .exe")
	}
}

// PowerShell shims are never run: a name found only as .ps1 names the
// script and what to install; a .ps1 named in "command" names the .cmd
// or .exe to use instead.
func TestFindPowerShellShims(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	ps := file(t, a, "pnpm.ps1", 0o644)
	cmd := file(t, b, "npx.cmd", 0o644)
	file(t, b, "npx.ps1", 0o644)
	s := Search{Path: a + ";" + b, GOOS: "windows"}

	_, err := s.Find("pnpm")
	var nf *NotFoundError
	if !errors.As(err, &nf) || len(nf.Shims) != 1 || nf.Shims[0] != ps {
		t.Fatalf("Find(pnpm) = %v; want a NotFoundError naming %s", err, ps)
	}
	for _, sub := range []string{ps + " is a PowerShell script, which OpenWorker does not run", "install a version that has pnpm.cmd or pnpm.exe"} {
		if !strings.Contains(err.Error(), sub) {
			t.Errorf("Find(pnpm) = %v; want %q", err, sub)
		}
	}
	_, err = s.Find("npx.ps1")
	if err == nil || !strings.Contains(err.Error(), "is a PowerShell script, which OpenWorker does not run; use "+cmd+` in "command" instead`) {
		t.Errorf("Find(npx.ps1) = %v; want advice to use %s", err, cmd)
	}
	_, err = s.Find(ps)
	if err == nil || !strings.Contains(err.Error(), "no pnpm.cmd or pnpm.exe is next to it") {
		t.Errorf("Find(%s) = %v", ps, err)
	}
}
