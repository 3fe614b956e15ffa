package main

import (
	"net"
	"os"
	"os/exec"
	"strings"
)

// attack does the ops beyond read, write, connect and udp; arg holds
// two paths as "FROM|TO" for link and rename.
//
//   - unix PATH, abstract NAME: connect to a Unix socket with a path, or
//     to an abstract one (@NAME).
//   - Linux only (attack_linux.go): mptcp, sctp, caps, kill, ptrace.
//   - link FROM|TO, rename FROM|TO: link(2), rename(2).
//   - exec PATH: runs PATH and answers "ok" when it ran.
//   - readlink PATH: the link's target.
//   - getenv NAME: "ok set" or "ok unset".
func attack(op, arg string) (string, error) {
	from, to, _ := strings.Cut(arg, "|")
	switch op {
	case "unix", "abstract":
		if op == "abstract" {
			arg = "@" + arg
		}
		c, err := net.Dial("unix", arg)
		if err != nil {
			return "", err
		}
		c.Close()
		return "connected", nil
	case "link":
		return "", os.Link(from, to)
	case "rename":
		return "", os.Rename(from, to)
	case "symlink":
		return "", os.Symlink(from, to)
	case "readlink":
		return os.Readlink(arg)
	case "getenv":
		if _, ok := os.LookupEnv(arg); ok {
			return "set", nil
		}
		return "unset", nil
	case "exec":
		out, err := exec.Command(arg).CombinedOutput()
		if err != nil {
			return "", err
		}
		return strings.TrimSpace(string(out)), nil
	}
	return attackOS(op, arg)
}
