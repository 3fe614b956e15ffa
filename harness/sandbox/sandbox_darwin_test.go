//go:build darwin

package sandbox_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/sandbox"
	"github.com/openworker/desktop/harness/sandbox/sandboxtest"
	"github.com/openworker/desktop/harness/tool"
)

// macKit is the hostile program in its own folder, a workspace, a
// folder outside every list with a secret in it, and a listener on
// 127.0.0.1.
type macKit struct {
	bin, workspace, temp, outside, secret string
	port                                  int
}

func newMacKit(t *testing.T) macKit {
	t.Helper()
	k := macKit{workspace: t.TempDir(), temp: t.TempDir(), outside: t.TempDir()}
	k.bin = sandboxtest.Hostile(t, t.TempDir())
	k.secret = filepath.Join(k.outside, "id_ed25519")
	if err := os.WriteFile(k.secret, []byte("secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	k.port = sandboxtest.Listener(t)
	return k
}

// run starts program with args inside p (expanded as harness/mcp does)
// and returns its output, stdout and stderr together.
func (k macKit) run(t *testing.T, p *tool.Sandbox, program string, args ...string) string {
	t.Helper()
	rules, err := sandbox.Expand(p, sandbox.Vars{Workspace: k.workspace, ProviderDir: filepath.Dir(k.bin), Program: program, Temp: k.temp})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, program, args...)
	// The working folder must be readable inside the sandbox: getcwd opens
	// it (harness/mcp starts a provider in its "cwd" or its own folder).
	cmd.Dir = k.workspace
	if err := sandbox.Prepare(cmd, rules); err != nil {
		t.Fatal(err)
	}
	if cmd.Path != "/usr/bin/sandbox-exec" || cmd.Args[1] != "-p" || cmd.Args[3] != program {
		t.Fatalf("Prepare made %s %q", cmd.Path, cmd.Args[:2])
	}
	out, _ := cmd.CombinedOutput()
	return string(out)
}

func (k macKit) hostile(t *testing.T, p *tool.Sandbox, op, arg string) string {
	t.Helper()
	return k.run(t, p, k.bin, "-do", op, arg)
}

func expect(t *testing.T, what, got, prefix string) {
	t.Helper()
	if !strings.HasPrefix(got, prefix) {
		t.Errorf("%s: got %q, want %q…", what, got, prefix)
	}
}

func TestSandboxExecDefault(t *testing.T) {
	k := newMacKit(t)
	p := tool.DefaultSandbox()
	inside := filepath.Join(k.workspace, "notes.txt")
	if err := os.WriteFile(inside, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The Go program starts at all under the profile, and reads and writes
	// its workspace.
	expect(t, "read in the workspace", k.hostile(t, p, "read", inside), "ok 6 bytes")
	expect(t, "write in the workspace", k.hostile(t, p, "write", filepath.Join(k.workspace, "new.txt")), "ok")
	expect(t, "write in its temp folder", k.hostile(t, p, "write", filepath.Join(k.temp, "t.txt")), "ok")
	expect(t, "read outside", k.hostile(t, p, "read", k.secret), "denied")
	expect(t, "write outside", k.hostile(t, p, "write", filepath.Join(k.outside, "planted")), "denied")
	if _, err := os.Stat(filepath.Join(k.outside, "planted")); err == nil {
		t.Error("the sandboxed program wrote outside its write list")
	}
	expect(t, "connect to 127.0.0.1 with no network", k.hostile(t, p, "connect", "127.0.0.1:"+strconv.Itoa(k.port)), "denied")
	// /bin/cat and a shell's child are confined the same way.
	if out := k.run(t, p, "/bin/cat", inside); out != "hello\n" {
		t.Errorf("/bin/cat of a workspace file: %q", out)
	}
	if out := k.run(t, p, "/bin/cat", k.secret); !strings.Contains(out, "Operation not permitted") {
		t.Errorf("/bin/cat of a file outside the read list: %q, want Operation not permitted", out)
	}
	if out := k.run(t, p, "/bin/sh", "-c", "/bin/cat "+k.secret+" || echo refused"); strings.Contains(out, "secret") || !strings.Contains(out, "refused") {
		t.Errorf("a child of the shell read the secret: %q", out)
	}
}

func TestSandboxExecNetwork(t *testing.T) {
	k := newMacKit(t)
	addr := "127.0.0.1:" + strconv.Itoa(k.port)
	loopback := tool.DefaultSandbox()
	loopback.Network = tool.SandboxNetwork{Mode: tool.NetLoopback}
	expect(t, "connect under loopback", k.hostile(t, loopback, "connect", addr), "ok")
	expect(t, "connect to localhost by name under loopback", k.hostile(t, loopback, "connect", "localhost:"+strconv.Itoa(k.port)), "ok")
	allowed := tool.DefaultSandbox()
	allowed.Network = tool.SandboxNetwork{Mode: tool.NetPorts, Ports: []tool.SandboxEndpoint{{Host: "localhost", Port: uint16(k.port)}}}
	expect(t, "connect to a listed port", k.hostile(t, allowed, "connect", addr), "ok")
	other := tool.DefaultSandbox()
	other.Network = tool.SandboxNetwork{Mode: tool.NetPorts, Ports: []tool.SandboxEndpoint{{Host: "*", Port: uint16(k.port%60000 + 1)}}}
	expect(t, "connect to a port not listed", k.hostile(t, other, "connect", addr), "denied")
	anyNet := tool.DefaultSandbox()
	anyNet.Network = tool.SandboxNetwork{Mode: tool.NetAny}
	expect(t, "connect under any", k.hostile(t, anyNet, "connect", addr), "ok")
}

// TestSandboxExecNode starts Node.js, the runtime of most MCP servers,
// under the default preset: it must start and read its workspace.
func TestSandboxExecNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH")
	}
	if node, err = filepath.Abs(node); err != nil {
		t.Fatal(err)
	}
	k := newMacKit(t)
	inside := filepath.Join(k.workspace, "notes.txt")
	if err := os.WriteFile(inside, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := `const fs=require("fs");process.stdout.write(fs.readFileSync(process.argv[1],"utf8"));try{fs.readFileSync(process.argv[2]);console.log("READ")}catch(e){console.log(e.code)}`
	out := k.run(t, tool.DefaultSandbox(), node, "-e", script, inside, k.secret)
	if out != "hello\nEPERM\n" {
		t.Errorf("node under the default preset: %q, want the workspace file and EPERM for the secret", out)
	}
}
