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

// HostileEnv names an environment variable that holds the absolute path
// of cmd/hostile built beforehand for this platform: Hostile then copies
// it instead of building one. It is for test binaries run where no Go
// toolchain is, as under Wine (scripts/wine/unit-steps.sh,
// docs/ci.md#under-wine).
const HostileEnv = "OPENWORKER_TEST_HOSTILE"

// Hostile builds cmd/hostile with `go build` (static, CGO_ENABLED=0) into
// dir, or copies the one HostileEnv names there, and returns the
// executable's path. It fails the test when go is not on PATH or the
// build fails.
func Hostile(t testing.TB, dir string) string {
	t.Helper()
	out := filepath.Join(dir, "hostile")
	if filepath.Separator == '\\' {
		out += ".exe"
	}
	if prebuilt := os.Getenv(HostileEnv); prebuilt != "" {
		copyProgram(t, prebuilt, out)
		return out
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is not on PATH: the sandbox test builds its server with it (or set %s to a built one): %v", HostileEnv, err)
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

// copyProgram copies the program from to to, executable.
func copyProgram(t testing.TB, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatalf("%s: %v", HostileEnv, err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
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
