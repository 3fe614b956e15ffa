package launch

import (
	"errors"
	"strings"
	"testing"
)

// Windows strips trailing dots and spaces from a file name, so npx.cmd.
// and "npx.cmd " are the batch file npx.cmd (CVE-2024-43402): IsShim
// says so.
func TestIsShimTrailingDotsAndSpaces(t *testing.T) {
	for _, p := range []string{`C:\nodejs\npx.cmd.`, `C:\nodejs\npx.cmd `, `C:\nodejs\npx.bat...`, `C:\nodejs\npx.cmd. .`, `npx.CMD . `} {
		if !IsShim(p) {
			t.Errorf("IsShim(%q) = false; Windows runs it as a batch file", p)
		}
	}
	for _, p := range []string{`C:\nodejs\node.exe.`, `C:\x\cmd`, `C:\x\npx.cmd.exe`, `C:\x.cmd\npx`} {
		if IsShim(p) {
			t.Errorf("IsShim(%q) = true", p)
		}
	}
}

// Only .com, .exe, .bat and .cmd can be started: a .ps1 or .js that
// PATHEXT lists first is skipped, the search goes on, and a name found
// only as such is refused naming the file.
func TestFindSkipsPathExtThatCannotStart(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	file(t, a, "npx.ps1", 0o644)
	file(t, a, "tool.JS", 0o644)
	npx := file(t, b, "npx.cmd", 0o644)
	s := Search{Path: a + ";" + b, GOOS: "windows", PathExt: ".PS1;.JS;.COM;.EXE;.BAT;.CMD"}
	if got, err := s.Find("npx"); err != nil || got != npx {
		t.Errorf("Find(npx) with .PS1 first in PATHEXT = %q, %v; want %q", got, err, npx)
	}
	_, err := s.Find("tool")
	var nf *NotFoundError
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), "tool.JS cannot be started") || !strings.Contains(err.Error(), "install a version that has tool.cmd or tool.exe") {
		t.Errorf("Find(tool) = %v; want a NotFoundError naming tool.JS and what to use", err)
	}
	_, err = s.Find("tool.js")
	if err == nil || !strings.Contains(err.Error(), `"tool.js" is a .js file, which Windows cannot start`) {
		t.Errorf("Find(tool.js) = %v; want a refusal", err)
	}
	if got, err := s.Find("npx.CMD. "); err != nil || got != npx {
		t.Errorf("Find(npx.CMD. ) = %q, %v; want %q (trailing dots and spaces are stripped)", got, err, npx)
	}
	if _, err := s.Find(`npx.ps1.`); err == nil || !strings.Contains(err.Error(), "PowerShell script") {
		t.Errorf("Find(npx.ps1.) = %v; want the PowerShell refusal", err)
	}
}
