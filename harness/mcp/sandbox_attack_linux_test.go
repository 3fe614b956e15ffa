package mcp

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/sandbox"
)

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
// OpenWorker, links and renames across the boundary, a program outside
// the read list, signals to OpenWorker.
func TestSandboxAttacks(t *testing.T) {
	k := newSandboxKit(t)
	pr := k.connect(t, sandbox.Default())
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
		{"read", "/proc/self/root" + k.key, "denied EACCES"},
		{"read", "/proc/" + me + "/root" + k.key, "denied EACCES"},
		{"read", "/proc/" + me + "/cwd/go.mod", "denied EACCES"},
		{"read", "/proc/1/environ", "denied EACCES"},
		{"read", "/sys/kernel/notes", "denied EACCES"},
		{"write", "/dev/tty", "denied"},
		{"link", k.key + "|" + filepath.Join(k.workspace, "key"), "denied"},
		{"rename", inWS + "|" + filepath.Join(k.outside, "moved"), "denied"},
		{"exec", outsideProg, "denied"},
		{"kill", me, "denied EPERM"},
		{"kill", "1", "denied EPERM"},
	} {
		tryBoth(t, pr, c.op, c.arg, c.want)
	}
	// A link in the workspace to the key is followed to the key.
	link := filepath.Join(k.workspace, "innocent")
	if got := call(t, pr, "try", map[string]string{"op": "symlink", "arg": k.key + "|" + link}); got != "ok" {
		t.Fatalf("symlink = %q", got)
	}
	tryBoth(t, pr, "read", link, "denied EACCES")
	if _, err := os.Stat(filepath.Join(k.outside, "moved")); err == nil {
		t.Error("a workspace file was moved out of the workspace")
	}
}

// TestSandboxCapabilities: a provider has no capabilities, even when
// OpenWorker runs as root: no effective or permitted ones and an empty
// bounding set (when it had any to drop), so that no program it runs
// gains any.
func TestSandboxCapabilities(t *testing.T) {
	k := newSandboxKit(t)
	pr := k.connect(t, sandbox.Default())
	want := "ok eff=000000000 prm=000000000 bnd="
	if os.Geteuid() == 0 {
		want += "0"
	}
	tryBoth(t, pr, "caps", "", want)
}

// TestSandboxPortListOtherProtocols: a port list confines every stream
// protocol, not TCP alone: MPTCP (which falls back to TCP with any peer)
// and SCTP cannot reach a port that is not listed.
func TestSandboxPortListOtherProtocols(t *testing.T) {
	k := newSandboxKit(t)
	p := sandbox.Default()
	p.Preset = ""
	p.Network = sandbox.Network{Mode: sandbox.NetPorts, Ports: []sandbox.Endpoint{{Host: "*", Port: 1}}}
	pr := k.connect(t, p)
	addr := "127.0.0.1:" + strconv.Itoa(k.port)
	tryBoth(t, pr, "connect", addr, "denied EACCES")
	tryBoth(t, pr, "mptcp", addr, "denied")
	tryBoth(t, pr, "sctp", addr, "denied")
}
