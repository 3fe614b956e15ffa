package sandbox

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/openworker/desktop/harness/tool"
)

// TestSandboxRootForAnotherUser: the launcher builds its root for a user
// other than root too (whose capabilities would otherwise end when the
// launcher is executed): run as nobody, a confined cat reads a system
// file, finds no file outside its folders and has no capabilities.
// Run as root it runs its own copy as nobody; run as anyone else, the
// harness/mcp sandbox tests are that case already.
func TestSandboxRootForAnotherUser(t *testing.T) {
	if dir := os.Getenv("OPENWORKER_SANDBOX_TEST_CHILD"); dir != "" {
		asChild(dir)
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("not root: the harness/mcp sandbox tests run as this user")
	}
	dir, err := os.MkdirTemp("", "sandbox-other-user-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	secret := filepath.Join(dir, "secret")
	self := filepath.Join(dir, "bin", "sandbox.test")
	for _, err := range []error{os.Chmod(dir, 0o755), os.Mkdir(filepath.Dir(self), 0o755), os.WriteFile(secret, []byte("s"), 0o644), copyFile(os.Args[0], self)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(self, "-test.run=^TestSandboxRootForAnotherUser$", "-test.v")
	cmd.Dir = filepath.Dir(self)
	cmd.Env = append(os.Environ(), "OPENWORKER_SANDBOX_TEST_CHILD="+dir, "HOME=/")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
	for _, want := range []string{"hostname: ok", "secret: No such file or directory", "CapEff:\t0000000000000000", "uid 65534"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("as nobody, no %q in:\n%s", want, out)
		}
	}
}

// asChild runs, as the other user, cat inside a sandbox that reads the
// system and dir/bin, and prints what it saw.
func asChild(dir string) {
	r := &Rules{Read: append(existing(systemPaths()), filepath.Join(dir, "bin"), "/proc"), Network: tool.SandboxNetwork{Mode: tool.NetNone}}
	run := func(label string, args ...string) {
		cmd := exec.Command("/bin/cat", args...)
		if err := Prepare(cmd, r); err != nil {
			println(label+": prepare:", err.Error())
			return
		}
		out, err := cmd.CombinedOutput()
		if err == nil && label != "status" {
			out = []byte("ok")
		}
		println(label+":", strings.TrimSpace(string(out)))
	}
	println("uid", os.Getuid())
	run("hostname", "/etc/hostname")
	run("secret", filepath.Join(dir, "secret"))
	run("status", "/proc/self/status")
}

func existing(ps []string) []string {
	var out []string
	for _, p := range ps {
		if _, err := os.Stat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
