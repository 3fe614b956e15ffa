//go:build unix

package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestCheckPrintsProgramPath: check names the program each stdio provider
// runs, and for a command found nowhere the folders of the PATH searched.
func TestCheckPrintsProgramPath(t *testing.T) {
	cmd := exec.Command(binary, "check", "--coworkers", writeCoworker(t))
	cmd.Env = binEnv(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("check = %v\n%s", err, out)
	}
	if want := "          mcp:device runs " + binary + "\n          mcp:device runs with your full access\n"; !strings.Contains(string(out), want) {
		t.Errorf("check printed:\n%s\nwant %q", out, want)
	}

	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	servers := filepath.Join(dir, "servers.json")
	os.WriteFile(servers, []byte(`{"servers": {"gone": {"command": "ow-no-such-server"}}}`), 0o644)
	cmd = checkCommand(dir, "gone.anything", servers)
	cmd.Env = append(binEnv(t), "PATH="+a+":"+b)
	out, _ = cmd.Output()
	want := `program "ow-no-such-server" cannot be found: it is not in the install folder ` + filepath.Dir(binary) +
		` and not in any folder of the PATH searched (from the process environment): ` + a + ", " + b
	if runtime.GOOS == "darwin" { // the login shell's folders come first (docs/mcp.md#finding-the-program)
		want = a + ", " + b
	}
	if !strings.Contains(string(out), want) {
		t.Errorf("check printed:\n%s\nwant %q", out, want)
	}
}
