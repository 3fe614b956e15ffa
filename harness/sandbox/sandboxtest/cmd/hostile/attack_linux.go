package main

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// attackOS does the Linux ops of attack:
//
//   - mptcp HOST:PORT, sctp HOST:PORT: connect over IPPROTO_MPTCP or
//     SCTP (SOCK_STREAM) to an IPv4 address.
//   - caps: "ok eff=… prm=… bnd=N": the capability sets, in hex, and how
//     many capabilities the bounding set holds.
//   - kill PID: sends signal 0 (only a permission check).
//   - ptrace PID: attaches to PID (PTRACE_SEIZE) and at once detaches.
//   - tfo HOST:PORT: connects to an IPv4 address with TCP Fast Open
//     (sendto with MSG_FASTOPEN, no connect(2)).
//   - listen: listens on TCP without bind(2) (the kernel picks the port)
//     and answers "ok listening on PORT".
//   - int80, x32: getpid through amd64's 32-bit or x32 system calls;
//     int81: a gate that faults as int 0x80 does without 32-bit emulation.
//   - keyring: the id of the session keyring it inherited (whose keys
//     it could read).
func attackOS(op, arg string) (string, error) {
	if do, ok := osAttacks[op]; ok {
		return do(op, arg)
	}
	return "", errors.New("unknown op " + op)
}

// osAttacks are the ops of attackOS, by name.
var osAttacks = map[string]func(op, arg string) (string, error){
	"mptcp": connectProto, "sctp": connectProto,
	"caps":   func(string, string) (string, error) { return caps() },
	"kill":   func(_, arg string) (string, error) { return signalZero(arg) },
	"tfo":    func(_, arg string) (string, error) { return fastOpen(arg) },
	"listen": func(string, string) (string, error) { return listenUnbound() },
	"int80":  func(op, _ string) (string, error) { return otherArch(op) },
	"int81":  func(op, _ string) (string, error) { return otherArch(op) },
	"x32":    func(op, _ string) (string, error) { return otherArch(op) },
	"keyring": func(string, string) (string, error) {
		id, err := unix.KeyctlInt(unix.KEYCTL_GET_KEYRING_ID, unix.KEY_SPEC_SESSION_KEYRING, 0, 0, 0)
		if err != nil {
			return "", err
		}
		return strconv.Itoa(id), nil
	},
	"ptrace": func(_, arg string) (string, error) { return attach(arg) },
}

// ipv4 reads HOST:PORT with an IPv4 HOST as a socket address.
func ipv4(arg string) (*unix.SockaddrInet4, error) {
	host, port, _ := strings.Cut(arg, ":")
	n, _ := strconv.Atoi(port)
	ip := net.ParseIP(host).To4()
	if ip == nil {
		return nil, errors.New("not an IPv4 address: " + host)
	}
	sa := &unix.SockaddrInet4{Port: n}
	copy(sa.Addr[:], ip)
	return sa, nil
}

// connectProto connects to the IPv4 HOST:PORT arg over MPTCP or SCTP (op).
func connectProto(op, arg string) (string, error) {
	proto := 262 // IPPROTO_MPTCP
	if op == "sctp" {
		proto = unix.IPPROTO_SCTP
	}
	sa, err := ipv4(arg)
	if err != nil {
		return "", err
	}
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, proto)
	if err != nil {
		return "", err
	}
	defer unix.Close(fd)
	if err := unix.Connect(fd, sa); err != nil {
		return "", err
	}
	return "connected", nil
}

// caps reports the effective and permitted capability sets and the size
// of the bounding set.
func caps() (string, error) {
	var data [2]unix.CapUserData
	if err := unix.Capget(&unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}, &data[0]); err != nil {
		return "", err
	}
	bnd := 0
	for c := 0; c <= 63; c++ {
		if v, err := unix.PrctlRetInt(unix.PR_CAPBSET_READ, uintptr(c), 0, 0, 0); err == nil && v == 1 {
			bnd++
		}
	}
	return fmt.Sprintf("eff=%x%08x prm=%x%08x bnd=%d", data[1].Effective, data[0].Effective, data[1].Permitted, data[0].Permitted, bnd), nil
}

// signalZero sends signal 0 to the process arg.
func signalZero(arg string) (string, error) {
	pid, err := strconv.Atoi(arg)
	if err != nil {
		return "", err
	}
	return "", syscall.Kill(pid, 0)
}

// fastOpen connects to the IPv4 HOST:PORT arg with TCP Fast Open.
func fastOpen(arg string) (string, error) {
	sa, err := ipv4(arg)
	if err != nil {
		return "", err
	}
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	if err != nil {
		return "", err
	}
	defer unix.Close(fd)
	if err := unix.Sendto(fd, []byte("hostile"), unix.MSG_FASTOPEN, sa); err != nil {
		return "", err
	}
	if _, err := unix.Getpeername(fd); err != nil {
		return "", err
	}
	return "connected", nil
}

// listenUnbound listens on TCP without bind(2); the socket is left open.
func listenUnbound() (string, error) {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	if err != nil {
		return "", err
	}
	if err := unix.Listen(fd, 1); err != nil {
		unix.Close(fd)
		return "", err
	}
	sa, err := unix.Getsockname(fd)
	if err != nil {
		return "", err
	}
	return "listening on " + strconv.Itoa(sa.(*unix.SockaddrInet4).Port), nil // left open
}

// attach attaches to the process arg (PTRACE_SEIZE) and detaches.
func attach(arg string) (string, error) {
	pid, err := strconv.Atoi(arg)
	if err != nil {
		return "", err
	}
	if err := unix.PtraceSeize(pid); err != nil {
		return "", err
	}
	unix.PtraceDetach(pid)
	return "attached", nil
}
