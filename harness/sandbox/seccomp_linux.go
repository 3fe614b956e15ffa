package sandbox

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"

	"github.com/openworker/desktop/harness/tool"
)

// Seccomp return values and the offsets of struct seccomp_data
// (linux/seccomp.h).
const (
	seccompRetAllow = 0x7fff0000
	seccompRetErrno = 0x00050000
	offNr           = 0
	offArch         = 4
	offArg0         = 16 // low 32 bits of args[0] (little endian)
	offArg1         = 24
	offArg2         = 32
	offArg3         = 40
	x32Bit          = 0x40000000
	sockTypeMask    = 0xf // SOCK_TYPE_MASK: without SOCK_NONBLOCK and SOCK_CLOEXEC
)

// auditArch is AUDIT_ARCH_* of this build's architecture.
var auditArch = map[string]uint32{"amd64": 0xc000003e, "arm64": 0xc00000b7}

// step is one instruction of a seccomp program whose jumps name labels
// (resolved by assemble): a jump goes to yes when Cond holds, else to no
// ("" is the next instruction).
type step struct {
	label   string
	ins     bpf.Instruction // not a jump
	cond    bpf.JumpTest
	val     uint32
	yes, no string
}

func assemble(steps []step) ([]bpf.RawInstruction, error) {
	at := map[string]int{}
	for i, s := range steps {
		if s.label != "" {
			at[s.label] = i
		}
	}
	skip := func(i int, l string) (uint8, error) {
		if l == "" {
			return 0, nil
		}
		j, ok := at[l]
		if !ok || j <= i || j-i-1 > 255 {
			return 0, fmt.Errorf("seccomp program: bad jump to %q", l)
		}
		return uint8(j - i - 1), nil
	}
	prog := make([]bpf.Instruction, len(steps))
	for i, s := range steps {
		if s.ins != nil {
			prog[i] = s.ins
			continue
		}
		y, err := skip(i, s.yes)
		if err != nil {
			return nil, err
		}
		n, err := skip(i, s.no)
		if err != nil {
			return nil, err
		}
		prog[i] = bpf.JumpIf{Cond: s.cond, Val: s.val, SkipTrue: y, SkipFalse: n}
	}
	return bpf.Assemble(prog)
}

func load(off uint32) step         { return step{ins: bpf.LoadAbsolute{Off: off, Size: 4}} }
func ret(v uint32) bpf.RetConstant { return bpf.RetConstant{Val: v} }
func is(v uint32, yes string) step { return step{cond: bpf.JumpEqual, val: v, yes: yes} }

// seccompFilter is the BPF program for n: a system call of another
// architecture, amd64's x32 calls, io_uring_setup(2) (io_uring opens
// sockets without socket(2)) and the keyring calls keyctl(2), add_key(2)
// and request_key(2) (the session keyring inherited from OpenWorker may
// hold the person's keys) fail with EPERM; unless n is tool.NetAny,
// socket(2) opens
//
//   - with tool.NetNone: Unix sockets only;
//   - with tool.NetPorts: Unix sockets, NETLINK_ROUTE (getaddrinfo lists the
//     interfaces with it) and IPv4 and IPv6 sockets of plain TCP
//     (confined by Landlock's port rules) and UDP. Every other protocol
//     fails, above all MPTCP, which Landlock does not confine and which
//     falls back to TCP with any peer, and SCTP; and sendto(2),
//     sendmsg(2) and sendmmsg(2) with MSG_FASTOPEN fail, since TCP Fast
//     Open connects without connect(2), which Landlock checks; and
//     listen(2) fails, since on a socket that was not bound it binds a
//     port the kernel picks without bind(2), which Landlock checks (on
//     a Unix socket too: the filter cannot tell them apart).
//
// Without unixSockets (a port list where Landlock cannot scope abstract
// Unix sockets, below ABI 6) socket(2) opens no Unix socket either.
// Anything else socket(2) is asked fails with EACCES. Every other call is
// allowed: the filter narrows the network, Landlock the rest.
func seccompFilter(n tool.SandboxNetwork, unixSockets bool) ([]bpf.RawInstruction, error) {
	arch, ok := auditArch[runtime.GOARCH]
	if !ok {
		return nil, fmt.Errorf("no seccomp filter for %s", runtime.GOARCH)
	}
	x32 := step{ins: bpf.Jump{Skip: 0}}
	if runtime.GOARCH == "amd64" {
		x32 = step{cond: bpf.JumpBitsSet, val: x32Bit, yes: "eperm"}
	}
	s := []step{
		load(offArch),
		{cond: bpf.JumpEqual, val: arch, no: "eperm"},
		load(offNr),
		x32,
		is(unix.SYS_IO_URING_SETUP, "eperm"),
		is(unix.SYS_KEYCTL, "eperm"),
		is(unix.SYS_ADD_KEY, "eperm"),
		is(unix.SYS_REQUEST_KEY, "eperm"),
	}
	if n.Mode == tool.NetAny {
		s = append(s, step{ins: ret(seccompRetAllow)}, step{label: "allow", ins: ret(seccompRetAllow)}, step{label: "eperm", ins: ret(seccompRetErrno | uint32(unix.EPERM))})
		return assemble(s)
	}
	if n.Mode == tool.NetPorts { // TCP Fast Open connects without connect(2); listen(2) binds without bind(2)
		s = append(s,
			is(unix.SYS_LISTEN, "eacces"),
			is(unix.SYS_SENDTO, "flags3"),
			is(unix.SYS_SENDMMSG, "flags3"),
			is(unix.SYS_SENDMSG, "flags2"))
	}
	s = append(s,
		step{cond: bpf.JumpEqual, val: unix.SYS_SOCKET, no: "allow"},
		load(offArg0),
	)
	if unixSockets {
		s = append(s, is(unix.AF_UNIX, "allow"))
	}
	if n.Mode == tool.NetPorts {
		s = append(s,
			is(unix.AF_NETLINK, "netlink"),
			is(unix.AF_INET, "inet"),
			is(unix.AF_INET6, "inet"),
			step{ins: ret(seccompRetErrno | uint32(unix.EACCES))},
			step{label: "netlink", ins: bpf.LoadAbsolute{Off: offArg2, Size: 4}},
			is(unix.NETLINK_ROUTE, "allow"),
			step{ins: ret(seccompRetErrno | uint32(unix.EACCES))},
			step{label: "inet", ins: bpf.LoadAbsolute{Off: offArg1, Size: 4}},
			step{ins: bpf.ALUOpConstant{Op: bpf.ALUOpAnd, Val: sockTypeMask}},
			is(unix.SOCK_STREAM, "stream"),
			is(unix.SOCK_DGRAM, "dgram"),
			step{ins: ret(seccompRetErrno | uint32(unix.EACCES))},
			step{label: "stream", ins: bpf.LoadAbsolute{Off: offArg2, Size: 4}},
			is(0, "allow"),
			is(unix.IPPROTO_TCP, "allow"),
			step{ins: ret(seccompRetErrno | uint32(unix.EACCES))},
			step{label: "dgram", ins: bpf.LoadAbsolute{Off: offArg2, Size: 4}},
			is(0, "allow"),
			is(unix.IPPROTO_UDP, "allow"),
			step{ins: ret(seccompRetErrno | uint32(unix.EACCES))},
			step{label: "flags3", ins: bpf.LoadAbsolute{Off: offArg3, Size: 4}},
			step{cond: bpf.JumpBitsSet, val: unix.MSG_FASTOPEN, yes: "eacces", no: "allow"},
			step{label: "flags2", ins: bpf.LoadAbsolute{Off: offArg2, Size: 4}},
			step{cond: bpf.JumpBitsSet, val: unix.MSG_FASTOPEN, yes: "eacces", no: "allow"},
		)
	}
	s = append(s,
		step{label: "eacces", ins: ret(seccompRetErrno | uint32(unix.EACCES))},
		step{label: "allow", ins: ret(seccompRetAllow)},
		step{label: "eperm", ins: ret(seccompRetErrno | uint32(unix.EPERM))})
	return assemble(s)
}

// seccompSelf installs the filter for r on this thread. no-new-privs
// must already be set (landlockSelf).
func seccompSelf(r *Rules) error {
	n := r.Network
	// With no network the server has a network namespace of its own,
	// whose abstract sockets are its own; with a port list, before
	// Landlock ABI 6, they would be the computer's.
	raw, err := seccompFilter(n, n.Mode != tool.NetPorts || abi(r) >= abiScoped)
	if err != nil {
		return err
	}
	filter := make([]unix.SockFilter, len(raw))
	for i, in := range raw {
		filter[i] = unix.SockFilter{Code: in.Op, Jt: in.Jt, Jf: in.Jf, K: in.K}
	}
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if _, _, e := unix.Syscall(unix.SYS_PRCTL, unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&prog))); e != 0 {
		return fmt.Errorf("seccomp filter: %w", e)
	}
	return nil
}
