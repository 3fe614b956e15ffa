// Command hostile is the MCP stdio server of the sandbox tests
// (sandboxtest.Hostile builds it): each tool tries one thing a sandbox
// must allow or forbid and answers what happened, never failing itself.
//
//   - read {path}: reads the file; "ok N bytes" or "denied ERRNO: …".
//   - write {path}: creates the file with a line in it.
//   - connect {addr}: resolves HOST and connects over TCP to HOST:PORT.
//   - udp {addr}: sends one UDP datagram to HOST:PORT.
//   - try {op, arg}: does one of the ops of do below in the server
//     (unix, abstract, mptcp, sctp, caps, kill, link, rename, exec, …).
//   - spawn {op, arg}: starts this program again as a child process that
//     does op (any op of do) on arg and answers its result, so a test
//     sees that the child is as confined as the server.
//
// Answers are "ok …" or "denied ERRNO: message" (ERRNO is EACCES, EPERM,
// ENOENT, ECONNREFUSED, …, or "error" when the error has no errno), or
// "absent: message" when this kernel has no such thing to try (int 0x80
// without 32-bit emulation). It is no part of the product.
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if len(os.Args) == 4 && os.Args[1] == "-do" {
		fmt.Print(do(os.Args[2], os.Args[3]))
		return
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "hostile", Version: "1.0.0"}, nil)
	type pathArgs struct {
		Path string `json:"path"`
	}
	type addrArgs struct {
		Addr string `json:"addr"`
	}
	type spawnArgs struct {
		Op  string `json:"op"`
		Arg string `json:"arg"`
	}
	for _, op := range []string{"read", "write"} {
		mcp.AddTool(s, &mcp.Tool{Name: op, Description: op + " a file"},
			func(_ context.Context, _ *mcp.CallToolRequest, a pathArgs) (*mcp.CallToolResult, any, error) {
				return text(do(op, a.Path)), nil, nil
			})
	}
	for _, op := range []string{"connect", "udp"} {
		mcp.AddTool(s, &mcp.Tool{Name: op, Description: op + " to an address"},
			func(_ context.Context, _ *mcp.CallToolRequest, a addrArgs) (*mcp.CallToolResult, any, error) {
				return text(do(op, a.Addr)), nil, nil
			})
	}
	mcp.AddTool(s, &mcp.Tool{Name: "try", Description: "do op in the server"},
		func(_ context.Context, _ *mcp.CallToolRequest, a spawnArgs) (*mcp.CallToolResult, any, error) {
			return text(do(a.Op, a.Arg)), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "spawn", Description: "do op in a child process"},
		func(ctx context.Context, _ *mcp.CallToolRequest, a spawnArgs) (*mcp.CallToolResult, any, error) {
			out, err := exec.CommandContext(ctx, os.Args[0], "-do", a.Op, a.Arg).Output()
			if err != nil {
				return text("denied " + errnoName(err) + ": start child: " + err.Error()), nil, nil
			}
			return text(string(out)), nil, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}

func do(op, arg string) string {
	var err error
	detail := ""
	switch op {
	case "read":
		var b []byte
		b, err = os.ReadFile(arg)
		detail = fmt.Sprintf("%d bytes", len(b))
	case "write":
		err = os.WriteFile(arg, []byte("written by hostile\n"), 0o600)
	case "connect":
		var c net.Conn
		if c, err = net.Dial("tcp", arg); err == nil {
			detail = "connected to " + c.RemoteAddr().String()
			c.Close()
		}
	case "udp":
		var c net.Conn
		if c, err = net.Dial("udp", arg); err == nil {
			_, err = c.Write([]byte("hostile"))
			c.Close()
		}
	default:
		detail, err = attack(op, arg)
	}
	if errors.Is(err, errAbsent) {
		return "absent: " + err.Error()
	}
	if err != nil {
		return "denied " + errnoName(err) + ": " + err.Error()
	}
	return strings.TrimSpace("ok " + detail)
}

// errAbsent: the kernel has no such entry point, so the attempt faulted
// before anything could allow or refuse it.
var errAbsent = errors.New("no such system call gate in this kernel: the instruction faulted (a kernel without 32-bit emulation has no int 0x80)")

func errnoName(err error) string {
	var e syscall.Errno
	if !errors.As(err, &e) {
		return "error"
	}
	for _, n := range []struct {
		errno syscall.Errno
		name  string
	}{{syscall.EACCES, "EACCES"}, {syscall.EPERM, "EPERM"}, {syscall.ENOENT, "ENOENT"}, {syscall.ECONNREFUSED, "ECONNREFUSED"}, {syscall.EROFS, "EROFS"}} {
		if e == n.errno {
			return n.name
		}
	}
	return fmt.Sprintf("errno%d", int(e))
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}
