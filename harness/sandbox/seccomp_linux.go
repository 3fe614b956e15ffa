package sandbox

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// Seccomp return values and the offsets of struct seccomp_data
// (linux/seccomp.h).
const (
	seccompRetAllow = 0x7fff0000
	seccompRetErrno = 0x00050000
	offNr           = 0
	offArch         = 4
	offArg0         = 16 // low 32 bits of args[0] (little endian)
	x32Bit          = 0x40000000
)

// auditArch is AUDIT_ARCH_* of this build's architecture.
var auditArch = map[string]uint32{"amd64": 0xc000003e, "arm64": 0xc00000b7}

// socketFamilies are the address families a placement's network mode
// may open sockets of; nil for NetAny (no filter).
func socketFamilies(mode string) []uint32 {
	switch mode {
	case NetAny:
		return nil
	case NetPorts:
		// TCP is confined by Landlock's port rules; netlink lets
		// getaddrinfo list the interfaces.
		return []uint32{unix.AF_UNIX, unix.AF_INET, unix.AF_INET6, unix.AF_NETLINK}
	default:
		return []uint32{unix.AF_UNIX}
	}
}

// seccompFilter is the BPF program for n: socket(2) of any family not in
// socketFamilies fails with EACCES; io_uring_setup(2) fails with EPERM
// (io_uring opens sockets without socket(2)); a system call of another
// architecture, or amd64's x32 calls, fail with EPERM. Everything else
// is allowed: the filter narrows the network, Landlock the rest.
func seccompFilter(n Network) ([]bpf.RawInstruction, error) {
	fams := socketFamilies(n.Mode)
	arch, ok := auditArch[runtime.GOARCH]
	if !ok {
		return nil, fmt.Errorf("no seccomp filter for %s", runtime.GOARCH)
	}
	k := len(fams)
	// The program, by index: 0–3 check the architecture and load the call
	// number; 4 x32; 5 io_uring_setup; 6 socket; 7 loads its family;
	// 8…8+k-1 the allowed families; then the three returns.
	allowAt, epermAt := 9+k, 10+k // 8+k returns EACCES
	skip := func(from, to int) uint8 { return uint8(to - from - 1) }
	prog := []bpf.Instruction{
		bpf.LoadAbsolute{Off: offArch, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: arch, SkipTrue: 1},
		bpf.RetConstant{Val: seccompRetErrno | uint32(unix.EPERM)},
		bpf.LoadAbsolute{Off: offNr, Size: 4},
		bpf.Jump{Skip: 0}, // 4: x32 check on amd64 only, below
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.SYS_IO_URING_SETUP, SkipTrue: skip(5, epermAt)},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.SYS_SOCKET, SkipFalse: skip(6, allowAt)},
		bpf.LoadAbsolute{Off: offArg0, Size: 4},
	}
	if runtime.GOARCH == "amd64" {
		prog[4] = bpf.JumpIf{Cond: bpf.JumpBitsSet, Val: x32Bit, SkipTrue: skip(4, epermAt)}
	}
	for i, f := range fams {
		prog = append(prog, bpf.JumpIf{Cond: bpf.JumpEqual, Val: f, SkipTrue: skip(8+i, allowAt)})
	}
	prog = append(prog,
		bpf.RetConstant{Val: seccompRetErrno | uint32(unix.EACCES)},
		bpf.RetConstant{Val: seccompRetAllow},
		bpf.RetConstant{Val: seccompRetErrno | uint32(unix.EPERM)})
	return bpf.Assemble(prog)
}

// seccompSelf installs the filter for n on this thread (NetAny: none).
// no-new-privs must already be set (landlockSelf).
func seccompSelf(n Network) error {
	if socketFamilies(n.Mode) == nil {
		return nil
	}
	raw, err := seccompFilter(n)
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
