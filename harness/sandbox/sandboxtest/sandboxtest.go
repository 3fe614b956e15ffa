// Package sandboxtest has the parts of the sandbox tests: a hostile MCP
// server (cmd/hostile) built for this platform. It is no part of the
// product.
package sandboxtest

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Hostile builds cmd/hostile with `go build` (static, CGO_ENABLED=0) into
// dir and returns the executable's path. It fails the test when go is
// not on PATH or the build fails.
func Hostile(t testing.TB, dir string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is not on PATH: the sandbox test builds its server with it: %v", err)
	}
	out := filepath.Join(dir, "hostile")
	if filepath.Separator == '\\' {
		out += ".exe"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goTool, "build", "-trimpath", "-o", out, "github.com/openworker/desktop/harness/sandbox/sandboxtest/cmd/hostile")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build hostile: %v\n%s", err, b)
	}
	return out
}

// Listener listens on 127.0.0.1 until the test ends, accepting and
// closing every connection, and returns its port: the target of the
// tests' connection attempts.
func Listener(t testing.TB) int {
	t.Helper()
	return Listen(t, "tcp", "127.0.0.1:0").Addr().(*net.TCPAddr).Port
}

// Listen listens on network and address (net.Listen) until the test
// ends, accepting and closing every connection.
func Listen(t testing.TB, network, address string) net.Listener {
	t.Helper()
	ln, err := net.Listen(network, address)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	return ln
}
