package mcp

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/internal/npmtest"
	"github.com/openworker/desktop/harness/sandbox/sandboxtest"
	"github.com/openworker/desktop/harness/tool"
)

// unixListener listens on a Unix socket at path (a path, or "@name" for
// an abstract one) until the test ends.
func unixListener(t *testing.T, path string) {
	t.Helper()
	sandboxtest.Listen(t, "unix", path)
}

// tryBoth runs op on arg in the server and in a child, and reports an
// error unless both answers start with want.
func tryBoth(t *testing.T, pr *Provider, op, arg, want string) {
	t.Helper()
	if got := call(t, pr, "try", map[string]string{"op": op, "arg": arg}); !strings.HasPrefix(got, want) {
		t.Errorf("server %s %s = %q; want %s…", op, arg, got, want)
	}
	if got := call(t, pr, "spawn", map[string]string{"op": op, "arg": arg}); !strings.HasPrefix(got, want) {
		t.Errorf("child %s %s = %q; want %s…", op, arg, got, want)
	}
}

// TestSandboxAttacks: what a hostile server tries against the default
// preset, from itself and from a child: /proc of itself and of
// OpenWorker (whose root still has the key: Landlock refuses it), /sys,
// the terminal, its new root and /proc/sys, links and renames across the
// boundary, a program outside
// the read list, another provider's temp folder, OpenWorker's secrets in
// the environment and its session keyring, ptrace and signals to
// OpenWorker and to init, amd64's 32-bit (int 0x80) and x32 calls.
func TestSandboxAttacks(t *testing.T) {
	k := newSandboxKit(t)
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-test")
	other, err := os.MkdirTemp("", "openworker-sandbox-") // another provider's ${temp}
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(other)
	pr := k.connect(t, tool.DefaultSandbox())
	me := strconv.Itoa(os.Getpid())
	inWS := filepath.Join(k.workspace, "mine.txt")
	if err := os.WriteFile(inWS, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	outsideProg := filepath.Join(k.outside, "prog")
	if err := os.WriteFile(outsideProg, []byte("#!/bin/sh\necho ran\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ op, arg, want string }{
		{"read", "/proc/self/environ", "denied EACCES"},
		{"read", "/proc/" + me + "/environ", "denied EACCES"},
		{"read", "/proc/" + me + "/cmdline", "denied EACCES"},
		{"read", "/proc/self/root" + k.key, "denied ENOENT"},
		{"read", "/proc/" + me + "/root" + k.key, "denied EACCES"},
		{"read", "/proc/" + me + "/cwd/go.mod", "denied EACCES"},
		{"read", "/proc/1/environ", "denied EACCES"},
		{"read", "/sys/kernel/notes", "denied ENOENT"},
		{"write", "/dev/tty", "denied EACCES"}, // not there: creating it is refused
		{"write", "/planted", "denied EACCES"},
		{"write", "/proc/sys/kernel/hostname", "denied EACCES"},
		{"read", "/run/user/0/bus", "denied ENOENT"},
		{"symlink", "/|/usr/escape", "denied EACCES"},
		{"link", k.key + "|" + filepath.Join(k.workspace, "key"), "denied"},
		{"rename", inWS + "|" + filepath.Join(k.outside, "moved"), "denied"},
		{"link", "/etc/hostname|" + filepath.Join(k.workspace, "hostname"), "denied errno18"}, // EXDEV
		{"rename", "/etc/hostname|" + filepath.Join(k.workspace, "hostname"), "denied errno18"},
		{"exec", outsideProg, "denied"},
		{"readlink", "/proc/" + me + "/cwd", "denied EACCES"},
		{"readlink", "/proc/" + me + "/exe", "denied EACCES"},
		{"write", filepath.Join(other, "planted"), "denied ENOENT"},
		{"getenv", "ANTHROPIC_API_KEY", "ok unset"},
		{"getenv", "TMPDIR", "ok set"},
		{"ptrace", me, "denied EPERM"},
		{"keyring", "", "denied EPERM"},
		{"kill", me, "denied EPERM"},
		{"kill", "1", "denied EPERM"},
	} {
		tryBoth(t, pr, c.op, c.arg, c.want)
	}
	if runtime.GOARCH == "amd64" { // other architectures' system calls
		tryBoth(t, pr, "int80", "", want32(t, k.bin))
		tryBoth(t, pr, "x32", "", "denied EPERM")
	}
	// A link in the workspace to the key leads nowhere.
	link := filepath.Join(k.workspace, "innocent")
	if got := call(t, pr, "try", map[string]string{"op": "symlink", "arg": k.key + "|" + link}); got != "ok" {
		t.Fatalf("symlink = %q", got)
	}
	tryBoth(t, pr, "read", link, "denied ENOENT")
	if _, err := os.Stat(filepath.Join(k.outside, "moved")); err == nil {
		t.Error("a workspace file was moved out of the workspace")
	}
}

// want32 says what int 0x80 must answer in the sandbox on this kernel,
// asking the hostile program outside it first: where the kernel has
// 32-bit system calls ("ok PID" outside), the seccomp filter must refuse
// them (EPERM); where it has none (kernels without IA32 emulation), the
// instruction faults before any filter is asked and the answer is
// "absent" inside as outside. Either way nothing runs; an "ok" in the
// sandbox fails. int 0x81 faults the same way on every kernel, so the
// fault path is checked here too.
func want32(t *testing.T, bin string) string {
	t.Helper()
	probe := func(op string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, bin, "-do", op, "").Output()
		if err != nil {
			t.Fatalf("hostile -do %s outside the sandbox: %v (%s)", op, err, out)
		}
		return string(out)
	}
	if got := probe("int81"); !strings.HasPrefix(got, "absent") {
		t.Fatalf("hostile -do int81 = %q; want absent (a faulting gate is an answer, not a crash)", got)
	}
	switch got := probe("int80"); {
	case strings.HasPrefix(got, "ok"):
		return "denied EPERM"
	case strings.HasPrefix(got, "absent"):
		t.Logf("this kernel has no 32-bit system calls (%s): int 0x80 faults in the sandbox too, and the filter's rule for them is not exercised here", got)
		return "absent"
	default:
		t.Fatalf("hostile -do int80 outside the sandbox = %q; want ok or absent", got)
		return ""
	}
}

// TestSandboxCapabilities: a provider has no capabilities, even when
// OpenWorker runs as root: no effective or permitted ones and an empty
// bounding set (when it had any to drop), so that no program it runs
// gains any.
func TestSandboxCapabilities(t *testing.T) {
	k := newSandboxKit(t)
	pr := k.connect(t, tool.DefaultSandbox())
	want := "ok eff=000000000 prm=000000000 bnd="
	if os.Geteuid() == 0 {
		want += "0"
	}
	tryBoth(t, pr, "caps", "", want)
}

// TestSandboxUnixSockets: a Unix socket outside the sandbox's folders,
// with a path (as the desktop bus, whose Secret Service holds the
// person's passwords and whose systemd runs any command) or abstract,
// cannot be reached; one inside the workspace can.
func TestSandboxUnixSockets(t *testing.T) {
	k := newSandboxKit(t)
	outside := filepath.Join(k.outside, "bus")
	unixListener(t, outside)
	abstract := fmt.Sprintf("openworker-test-%d", os.Getpid())
	unixListener(t, "@"+abstract)
	inside := filepath.Join(k.workspace, "own.sock")
	unixListener(t, inside)
	pr := k.connect(t, tool.DefaultSandbox())
	tryBoth(t, pr, "unix", inside, "ok connected")
	tryBoth(t, pr, "unix", outside, "denied")
	tryBoth(t, pr, "abstract", abstract, "denied")
}

// TestSandboxPortListOtherProtocols: a port list confines every stream
// protocol, not TCP alone: MPTCP (which falls back to TCP with any peer)
// and SCTP cannot reach a port that is not listed, nor can TCP Fast Open,
// which connects without connect(2); and listen(2) without bind(2), which
// would open a port the kernel picks, fails.
func TestSandboxPortListOtherProtocols(t *testing.T) {
	k := newSandboxKit(t)
	p := tool.DefaultSandbox()
	p.Preset = ""
	p.Network = tool.SandboxNetwork{Mode: tool.NetPorts, Ports: []tool.SandboxEndpoint{{Host: "*", Port: 1}}}
	pr := k.connect(t, p)
	addr := "127.0.0.1:" + strconv.Itoa(k.port)
	tryBoth(t, pr, "connect", addr, "denied EACCES")
	tryBoth(t, pr, "mptcp", addr, "denied")
	tryBoth(t, pr, "tfo", addr, "denied EACCES")
	tryBoth(t, pr, "listen", "", "denied EACCES")
	tryBoth(t, pr, "sctp", addr, "denied")
}

// TestSandboxWholeDiskRead: a placement that reads the whole disk ("/")
// sees every file, the key too, and still writes only in its temp
// folder and reaches no keyring; its program, found through the links
// of /bin, runs.
func TestSandboxWholeDiskRead(t *testing.T) {
	k := newSandboxKit(t)
	pr := k.connect(t, &tool.Sandbox{Read: []string{"/"}, Write: []string{"${temp}"}, Network: tool.SandboxNetwork{Mode: tool.NetNone}})
	tryBoth(t, pr, "read", k.key, "ok")
	tryBoth(t, pr, "write", filepath.Join(k.workspace, "no"), "denied EACCES")
	tryBoth(t, pr, "keyring", "", "denied EPERM")
	tryBoth(t, pr, "exec", "/bin/true", "ok")
}

// TestSandboxLauncherRefusesToRunAlone: the launcher started directly,
// not in the user namespace OpenWorker makes, confines nothing and runs
// nothing (as root it would otherwise remount its caller's folders).
func TestSandboxLauncherRefusesToRunAlone(t *testing.T) {
	k := newSandboxKit(t)
	spec := `{"read":["/usr","/etc"],"write":[],"network":{"mode":"none"}}`
	out, err := exec.Command(os.Args[0], "__openworker_sandbox_launcher__", spec, k.bin).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 125 || !strings.Contains(string(out), "only in the user namespace") {
		t.Fatalf("launcher alone = %v, %s; want exit 125 naming the namespace", err, out)
	}
}

// TestSandboxEveryLoweredABIFailsClosed: with OPENWORKER_SANDBOX_MAX_ABI
// simulating a kernel without Landlock (0) or one too old to confine
// truncation (1, 2), nothing starts and the error names what is missing;
// ABI 3 still runs a placement that leaves the network open, confined to
// its folders and without the keyring.
func TestSandboxEveryLoweredABIFailsClosed(t *testing.T) {
	k := newSandboxKit(t)
	start := func(p *tool.Sandbox) (*Provider, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		return ConnectIn(ctx, tool.MCPServer{Namespace: "hostile", Program: k.bin, Sandbox: p}, nil, k.workspace)
	}
	for abi, want := range map[string]string{"0": "OPENWORKER_SANDBOX_MAX_ABI lowers Landlock to ABI 0 (no Landlock)", "-1": "OPENWORKER_SANDBOX_MAX_ABI lowers Landlock to ABI 0 (no Landlock)", "1": "confining files needs ABI 3", "2": "confining files needs ABI 3"} {
		t.Setenv("OPENWORKER_SANDBOX_MAX_ABI", abi)
		pr, err := start(tool.DefaultSandbox())
		if err == nil || !strings.Contains(err.Error(), want) {
			if pr != nil {
				pr.Close()
			}
			t.Errorf("ABI %s: %v; want refused naming %q", abi, err, want)
		}
	}
	t.Setenv("OPENWORKER_SANDBOX_MAX_ABI", "3")
	open := tool.DefaultSandbox()
	open.Preset = ""
	open.Network.Mode = tool.NetAny
	pr, err := start(open)
	if err != nil {
		t.Fatalf("ABI 3 with any network: %v", err)
	}
	defer pr.Close()
	tryBoth(t, pr, "read", k.key, "denied ENOENT")
	tryBoth(t, pr, "write", "/etc/openworker-escape", "denied EACCES")
	tryBoth(t, pr, "keyring", "", "denied EPERM")
}

// TestSandboxLoaderVariablesReachOnlyTheServer: an entry's (or an
// extension manifest's) LD_PRELOAD does not load into the launcher,
// which runs before the sandbox holds (this test binary, like the
// openworker CLI, is linked dynamically): a library whose constructor
// writes outside the sandbox writes nothing; the server still gets the
// variable.
func TestSandboxLoaderVariablesReachOnlyTheServer(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		npmtest.SkipOrFail(t, "no C compiler (cc) to build the library: apt-get install gcc")
	}
	k := newSandboxKit(t)
	escaped := filepath.Join(k.outside, "escaped")
	lib := filepath.Join(t.TempDir(), "evil.so")
	src := filepath.Join(t.TempDir(), "evil.c")
	code := `#include <stdio.h>
__attribute__((constructor)) static void run(void) { FILE *f = fopen("` + escaped + `", "w"); if (f) { fputs("ran outside the sandbox\n", f); fclose(f); } }
`
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, "-shared", "-fPIC", "-o", lib, src).CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pr, err := ConnectIn(ctx, tool.MCPServer{Namespace: "hostile", Program: k.bin, Env: map[string]string{"LD_PRELOAD": lib}, Sandbox: tool.DefaultSandbox()}, nil, k.workspace)
	if err != nil {
		t.Fatalf("ConnectIn: %v", err)
	}
	defer pr.Close()
	if got := call(t, pr, "try", map[string]string{"op": "getenv", "arg": "LD_PRELOAD"}); got != "ok set" {
		t.Errorf("the server's LD_PRELOAD: %q; want set", got)
	}
	if b, err := os.ReadFile(escaped); err == nil {
		t.Fatalf("the library ran in the launcher, outside the sandbox: %s", b)
	}
}

// TestSandboxSetUserID: a set-user-ID program in the sandbox's folders
// runs without taking its owner's identity (no-new-privs; the owner is
// not even in the sandbox's user namespace). The test needs root to give
// a copy of id(1) another owner.
func TestSandboxSetUserID(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("making a set-user-ID program of another owner needs root")
	}
	idPath, err := exec.LookPath("id")
	if err != nil {
		t.Skip("no id(1)")
	}
	k := newSandboxKit(t)
	suid := filepath.Join(filepath.Dir(k.bin), "suid-id")
	b, err := os.ReadFile(idPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(suid, b, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(suid, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(suid, 0o4755|os.ModeSetuid); err != nil {
		t.Fatal(err)
	}
	if out, _ := exec.Command(suid, "-u").Output(); strings.TrimSpace(string(out)) != "65534" {
		t.Fatalf("outside the sandbox the copy runs as %q; want 65534 (set-user-ID works here)", out)
	}
	pr := k.connect(t, tool.DefaultSandbox())
	got := call(t, pr, "try", map[string]string{"op": "exec", "arg": suid})
	if !strings.HasPrefix(got, "ok uid=0(") || strings.Contains(got, "65534") {
		t.Errorf("set-user-ID id in the sandbox = %q; want it to run as root's uid 0, never 65534", got)
	}
}

// TestSandboxAbstractSocketsBeforeABI6: with Landlock below ABI 6, which
// cannot scope abstract Unix sockets (an X server's, reached by any
// program that can type into a terminal), a server with "network":
// "none" still cannot reach one: it has a network namespace of its own;
// one with a port list, which shares the computer's, cannot open a Unix
// socket at all.
func TestSandboxAbstractSocketsBeforeABI6(t *testing.T) {
	k := newSandboxKit(t)
	abstract := fmt.Sprintf("openworker-test-old-%d", os.Getpid())
	unixListener(t, "@"+abstract)
	t.Setenv("OPENWORKER_SANDBOX_MAX_ABI", "5")
	pr := k.connect(t, tool.DefaultSandbox())
	tryBoth(t, pr, "abstract", abstract, "denied")
	tryBoth(t, pr, "read", k.key, "denied ENOENT")
	ports := tool.DefaultSandbox()
	ports.Preset = ""
	ports.Network = tool.SandboxNetwork{Mode: tool.NetPorts, Ports: []tool.SandboxEndpoint{{Host: "*", Port: uint16(k.port)}}}
	pp := k.connect(t, ports)
	tryBoth(t, pp, "abstract", abstract, "denied EACCES")
	tryBoth(t, pp, "connect", "127.0.0.1:"+strconv.Itoa(k.port), "ok connected")
}
