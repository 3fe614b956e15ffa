package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/internal/npmtest"
	"github.com/openworker/desktop/harness/sandbox/sandboxtest"
	"github.com/openworker/desktop/harness/tool"
)

// sandboxKit is a hostile server in its own folder, a temporary HOME
// with a fake private key, a workspace and a listener on 127.0.0.1.
type sandboxKit struct {
	bin, home, key, workspace, outside string
	port                               int
}

func newSandboxKit(t *testing.T) sandboxKit {
	t.Helper()
	k := sandboxKit{home: t.TempDir(), workspace: t.TempDir(), outside: t.TempDir()}
	k.bin = sandboxtest.Hostile(t, t.TempDir())
	k.key = filepath.Join(k.home, ".ssh", "id_ed25519")
	if err := os.MkdirAll(filepath.Dir(k.key), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(k.key, []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nfake\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", k.home)
	k.port = sandboxtest.Listener(t)
	return k
}

func (k sandboxKit) connect(t *testing.T, p *tool.Sandbox) *Provider {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*startGuard)
	defer cancel()
	pr, err := ConnectIn(ctx, tool.MCPServer{Namespace: "hostile", Program: k.bin, Sandbox: p}, nil, k.workspace)
	if err != nil {
		t.Fatalf("ConnectIn: %v", err)
	}
	t.Cleanup(func() { pr.Close() })
	return pr
}

func call(t *testing.T, pr *Provider, name string, args map[string]string) string {
	t.Helper()
	b, _ := json.Marshal(args)
	ctx, cancel := context.WithTimeout(context.Background(), 2*startGuard)
	defer cancel()
	out, err := pr.CallTool(ctx, name, b, nil)
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return out.Text
}

// TestSandboxDefaultConfinesTheServerAndItsChild: under the default
// preset the hostile server, and a child it starts, can write in the
// workspace and read its own folder; a file outside its folders (a
// private key in HOME, a folder outside the workspace) does not exist
// for it (ENOENT), and every other forbidden operation fails inside the
// server with EACCES or EPERM: writing a system file or in its own folder,
// connecting to a listener on 127.0.0.1, sending UDP.
func TestSandboxDefaultConfinesTheServerAndItsChild(t *testing.T) {
	k := newSandboxKit(t)
	pr := k.connect(t, tool.DefaultSandbox())
	inWS := filepath.Join(k.workspace, "note.txt")
	outside := filepath.Join(k.outside, "escape.txt")
	addr := "127.0.0.1:" + strconv.Itoa(k.port)
	cases := []struct {
		op, arg string
		want    string // prefix
	}{
		{"write", inWS, "ok"},
		{"read", inWS, "ok 19 bytes"},
		{"read", k.bin, "ok"},
		{"read", "/etc/hostname", "ok"},
		{"read", k.key, "denied ENOENT"},
		{"write", outside, "denied ENOENT"},
		{"write", filepath.Join(k.home, ".bashrc"), "denied ENOENT"},
		{"write", "/etc/openworker-escape", "denied EACCES"},
		{"write", filepath.Join(filepath.Dir(k.bin), "planted"), "denied EACCES"},
		{"connect", addr, "denied EACCES"},
		{"udp", "127.0.0.1:53", "denied EACCES"},
	}
	for _, c := range cases {
		key := map[string]string{"read": "path", "write": "path", "connect": "addr", "udp": "addr"}[c.op]
		if got := call(t, pr, c.op, map[string]string{key: c.arg}); !strings.HasPrefix(got, c.want) {
			t.Errorf("server %s %s = %q; want %s…", c.op, c.arg, got, c.want)
		}
		if got := call(t, pr, "spawn", map[string]string{"op": c.op, "arg": c.arg}); !strings.HasPrefix(got, c.want) {
			t.Errorf("child %s %s = %q; want %s…", c.op, c.arg, got, c.want)
		}
	}
	if _, err := os.Stat(outside); err == nil {
		t.Errorf("%s was written from inside the sandbox", outside)
	}
}

// TestSandboxPortList: with a port list, the allowed port on a resolved
// name connects and another port is refused with EACCES, in the server
// and in its child.
func TestSandboxPortList(t *testing.T) {
	k := newSandboxKit(t)
	other, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	p := tool.DefaultSandbox()
	p.Preset = ""
	p.Network = tool.SandboxNetwork{Mode: tool.NetPorts, Ports: []tool.SandboxEndpoint{{Host: "*", Port: uint16(k.port)}}}
	pr := k.connect(t, p)
	allowed := "localhost:" + strconv.Itoa(k.port)
	denied := "localhost:" + strconv.Itoa(other.Addr().(*net.TCPAddr).Port)
	for _, tool := range []string{"connect", "spawn"} {
		args := func(a string) map[string]string {
			if tool == "spawn" {
				return map[string]string{"op": "connect", "arg": a}
			}
			return map[string]string{"addr": a}
		}
		if got := call(t, pr, tool, args(allowed)); !strings.HasPrefix(got, "ok connected") {
			t.Errorf("%s %s = %q; want ok connected", tool, allowed, got)
		}
		if got := call(t, pr, tool, args(denied)); !strings.HasPrefix(got, "denied EACCES") {
			t.Errorf("%s %s = %q; want denied EACCES", tool, denied, got)
		}
	}
}

// TestSandboxFailsClosed: a placement the kernel cannot enforce (a
// Landlock ABI lowered below TCP rules) does not start, and says what is
// missing; loopback and named hosts are refused on Linux.
func TestSandboxFailsClosed(t *testing.T) {
	k := newSandboxKit(t)
	t.Setenv("OPENWORKER_SANDBOX_MAX_ABI", "3")
	ctx, cancel := context.WithTimeout(context.Background(), 2*startGuard)
	defer cancel()
	_, err := ConnectIn(ctx, tool.MCPServer{Namespace: "hostile", Program: k.bin, Sandbox: tool.DefaultSandbox()}, nil, k.workspace)
	var se *SandboxError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "needs ABI 4 for TCP rules") || !strings.Contains(err.Error(), "was not started") {
		t.Fatalf("ConnectIn with ABI 3 = %v; want a SandboxError naming ABI 4", err)
	}
	loop := tool.DefaultSandbox()
	loop.Network.Mode = tool.NetLoopback
	t.Setenv("OPENWORKER_SANDBOX_MAX_ABI", "")
	if _, err := ConnectIn(ctx, tool.MCPServer{Namespace: "hostile", Program: k.bin, Sandbox: loop}, nil, k.workspace); err == nil || !strings.Contains(err.Error(), "cannot be enforced on Linux") {
		t.Fatalf("ConnectIn loopback = %v; want refused", err)
	}
}

// TestSandboxFilesystemServerWorks: @modelcontextprotocol/server-filesystem
// (Node.js) works normally inside the default placement: it takes the
// workspace root, writes, lists and reads a file there.
func TestSandboxFilesystemServerWorks(t *testing.T) {
	node, entry := npmtest.Server(t, "server-filesystem")
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	srv := tool.MCPServer{Namespace: "files", Program: node, Args: []string{entry}, Dir: npmtest.Dir(t), Sandbox: tool.DefaultSandbox()}
	ctx, cancel := context.WithTimeout(context.Background(), 2*startGuard)
	defer cancel()
	p, err := ConnectIn(ctx, srv, &Options{StartTimeout: startGuard}, ws)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	select {
	case <-p.stdio.stderr.when("Updated allowed directories from MCP roots: 1 valid"):
	case <-ctx.Done():
		t.Fatalf("the server never took the root; stderr: %s", p.StderrTail())
	}
	file := filepath.Join(ws, "plan.md")
	b, _ := json.Marshal(map[string]string{"path": file, "content": "# Plan\nship it\n"})
	if _, err := p.CallTool(ctx, "write_file", b, nil); err != nil {
		t.Fatalf("write_file in the workspace: %v", err)
	}
	b, _ = json.Marshal(map[string]string{"path": ws})
	if out, err := p.CallTool(ctx, "list_directory", b, nil); err != nil || !strings.Contains(out.Text, "plan.md") {
		t.Errorf("list_directory = %q, %v", out.Text, err)
	}
	b, _ = json.Marshal(map[string]string{"path": file})
	if out, err := p.CallTool(ctx, "read_text_file", b, nil); err != nil || !strings.Contains(out.Text, "ship it") {
		t.Errorf("read_text_file = %q, %v", out.Text, err)
	}
	if got, _ := os.ReadFile(file); string(got) != "# Plan\nship it\n" {
		t.Errorf("the file on disk = %q", got)
	}
}
