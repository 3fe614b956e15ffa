//go:build windows

package sandbox_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/sandbox"
	"github.com/openworker/desktop/harness/sandbox/sandboxtest"
	"github.com/openworker/desktop/harness/tool"
)

// windowsPlacement is what the Windows sandbox can enforce: reads
// everything (the system drive's root), writes the workspace and its
// temp folder, any network.
func windowsPlacement() *tool.Sandbox {
	return &tool.Sandbox{
		Read:    []string{os.Getenv("SystemDrive") + `\`},
		Write:   []string{"${workspace}", "${temp}"},
		Network: tool.SandboxNetwork{Mode: tool.NetAny},
	}
}

func TestWindowsCheckRefuses(t *testing.T) {
	vars := sandbox.Vars{Workspace: t.TempDir(), Temp: t.TempDir(), ProviderDir: t.TempDir()}
	for name, p := range map[string]*tool.Sandbox{
		"the default preset (no network)": tool.DefaultSandbox(),
		"loopback":                        {Read: []string{os.Getenv("SystemDrive") + `\`}, Network: tool.SandboxNetwork{Mode: tool.NetLoopback}},
		"ports":                           {Read: []string{os.Getenv("SystemDrive") + `\`}, Network: tool.SandboxNetwork{Mode: tool.NetPorts, Ports: []tool.SandboxEndpoint{{Host: "*", Port: 443}}}},
		"a narrow read list":              {Read: []string{"${provider_dir}"}, Write: []string{"${workspace}"}, Network: tool.SandboxNetwork{Mode: tool.NetAny}},
	} {
		r, err := sandbox.Expand(p, vars)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		err = sandbox.Check(r)
		if err == nil || !strings.Contains(err.Error(), "cannot be enforced on Windows") {
			t.Errorf("%s: Check = %v, want a refusal that says it cannot be enforced on Windows", name, err)
		}
		cmd := exec.Command(os.Getenv("SystemRoot") + `\System32\whoami.exe`)
		if err := sandbox.Prepare(cmd, r); err == nil || cmd.SysProcAttr != nil {
			t.Errorf("%s: Prepare = %v, changed SysProcAttr: %v", name, err, cmd.SysProcAttr != nil)
		}
	}
	r, err := sandbox.Expand(windowsPlacement(), vars)
	if err != nil {
		t.Fatal(err)
	}
	if err := sandbox.Check(r); err != nil {
		t.Errorf("Check refuses what the Windows sandbox enforces: %v", err)
	}
}

type winKit struct {
	bin, workspace, temp, outside string
}

func newWinKit(t *testing.T) winKit {
	t.Helper()
	k := winKit{workspace: t.TempDir(), temp: t.TempDir(), outside: t.TempDir()}
	k.bin = sandboxtest.Hostile(t, t.TempDir())
	return k
}

// command is program with args prepared for the Windows placement, with
// the SysProcAttr harness/mcp's setupCommand gives every provider.
func (k winKit) command(t *testing.T, ctx context.Context, program string, args ...string) *exec.Cmd {
	t.Helper()
	r, err := sandbox.Expand(windowsPlacement(), sandbox.Vars{Workspace: k.workspace, Temp: k.temp, ProviderDir: filepath.Dir(k.bin), Program: program})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, program, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{HideWindow: true, CreationFlags: 0x08000000} // CREATE_NO_WINDOW
	if err := sandbox.Prepare(cmd, r); err != nil {
		t.Fatal(err)
	}
	if !cmd.SysProcAttr.HideWindow || cmd.SysProcAttr.CreationFlags != 0x08000000 || cmd.SysProcAttr.Token == 0 {
		t.Fatalf("Prepare lost setupCommand's SysProcAttr or set no token: %+v", cmd.SysProcAttr)
	}
	return cmd
}

func (k winKit) run(t *testing.T, program string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := k.command(t, ctx, program, args...).CombinedOutput()
	if err != nil && len(out) == 0 {
		t.Logf("%s: %v", program, err)
	}
	return string(out)
}

func TestWindowsLowIntegrity(t *testing.T) {
	k := newWinKit(t)
	// A file already in the workspace gets the folder's label too.
	existing := filepath.Join(k.workspace, "sub", "existing.txt")
	if err := os.MkdirAll(filepath.Dir(existing), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(existing, []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The program runs at low integrity without privileges.
	groups := k.run(t, filepath.Join(os.Getenv("SystemRoot"), "System32", "whoami.exe"), "/all")
	if !strings.Contains(groups, "S-1-16-4096") {
		t.Errorf("whoami /all under the sandbox has no Low Mandatory Level (S-1-16-4096):\n%s", groups)
	}
	for _, priv := range []string{"SeShutdownPrivilege", "SeDebugPrivilege", "SeBackupPrivilege"} {
		if strings.Contains(groups, priv) {
			t.Errorf("the sandboxed program holds %s:\n%s", priv, groups)
		}
	}

	inside, outside := filepath.Join(k.workspace, "new.txt"), filepath.Join(k.outside, "planted.txt")
	expect(t, "write in the workspace", k.run(t, k.bin, "-do", "write", inside), "ok")
	expect(t, "write in its temp folder", k.run(t, k.bin, "-do", "write", filepath.Join(k.temp, "t.txt")), "ok")
	expect(t, "overwrite a file that was in the workspace before", k.run(t, k.bin, "-do", "write", existing), "ok")
	expect(t, "write outside", k.run(t, k.bin, "-do", "write", outside), "denied")
	if _, err := os.Stat(outside); err == nil {
		t.Error("the sandboxed program wrote outside its write list")
	}
	// A child (cmd.exe) is as confined as the program.
	cmdExe := filepath.Join(os.Getenv("SystemRoot"), "System32", "cmd.exe")
	k.run(t, cmdExe, "/c", "echo child>"+filepath.Join(k.outside, "child.txt"))
	if _, err := os.Stat(filepath.Join(k.outside, "child.txt")); err == nil {
		t.Error("a child of the sandboxed program wrote outside its write list")
	}
	k.run(t, cmdExe, "/c", "echo child>"+filepath.Join(k.workspace, "child.txt"))
	if _, err := os.Stat(filepath.Join(k.workspace, "child.txt")); err != nil {
		t.Errorf("a child of the sandboxed program could not write in the workspace: %v", err)
	}
	// What the Windows sandbox does not confine, as its documentation says:
	// reading.
	secret := filepath.Join(k.outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	expect(t, "read outside (not confined on Windows)", k.run(t, k.bin, "-do", "read", secret), "ok 6 bytes")
}

func expect(t *testing.T, what, got, prefix string) {
	t.Helper()
	if !strings.HasPrefix(got, prefix) {
		t.Errorf("%s: got %q, want %q…", what, got, prefix)
	}
}
