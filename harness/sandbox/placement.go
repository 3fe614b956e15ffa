package sandbox

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/openworker/desktop/harness/tool"
)

// This file reads a placement, a tool.Sandbox (docs/sandbox.md#format),
// before any path is known: its port list and whether this system can
// enforce it at all. CheckTemplate (expand.go) checks its paths.

// ParseEndpoint reads "HOST:PORT" (also "PORT" alone, meaning "*:PORT")
// for a tool.Sandbox's port list. HOST is "*" or "localhost" (any case;
// 127.0.0.1 and ::1 count as localhost); PORT is 1–65535.
func ParseEndpoint(s string) (tool.SandboxEndpoint, error) {
	host, port := "*", s
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		host, port = s[:i], s[i+1:]
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	n, err := strconv.ParseUint(port, 10, 16)
	if err != nil || n == 0 {
		return tool.SandboxEndpoint{}, fmt.Errorf("%q has no port from 1 to 65535 after the last ':'", s)
	}
	switch h := strings.ToLower(host); h {
	case "*", "":
		host = "*"
	case "localhost", "127.0.0.1", "::1":
		host = "localhost"
	default:
		return tool.SandboxEndpoint{}, fmt.Errorf("%q names the host %q: a sandbox can allow a port on any host (\"*:%d\") or on this computer (\"localhost:%d\"), not on one named host, since no system sandbox OpenWorker uses can check host names", s, host, n, n)
	}
	return tool.SandboxEndpoint{Host: host, Port: uint16(n)}, nil
}

// Supported reports why this system cannot enforce p at all (its network
// mode, the kernel's sandbox features), before any path is known; nil
// when it can, or when p is nil. A provider start checks again with the
// expanded Rules.
func Supported(p *tool.Sandbox) error {
	if p == nil {
		return nil
	}
	// The paths are not known yet: only the literal read paths go in (a
	// drive root is what Windows needs to see), never the write paths.
	var read []string
	for _, t := range p.Read {
		if !strings.Contains(t, "${") {
			read = append(read, t)
		}
	}
	return Check(&Rules{Read: read, Network: p.Network, MaxABI: maxABI()})
}

// maxABI is OPENWORKER_SANDBOX_MAX_ABI (docs/sandbox.md#testing) as
// Rules.MaxABI: 0 when unset or not a number, -1 for "0" (no Landlock).
func maxABI() int {
	n, err := strconv.Atoi(os.Getenv("OPENWORKER_SANDBOX_MAX_ABI"))
	if err == nil && n <= 0 {
		return -1
	}
	return n
}
