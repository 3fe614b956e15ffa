package main

import (
	"runtime/debug"
	"strconv"
	"syscall"
)

func int80getpid() int64

func int81() int64

// otherArch calls getpid through the 32-bit entry point (int 0x80) or
// with the x32 bit: "ok PID", or the errno (ENOSYS: the kernel lacks
// that ABI), or errAbsent when int 0x80 faults: a kernel without 32-bit
// emulation (CONFIG_IA32_EMULATION off, or ia32_emulation=0) has no such
// gate, and the instruction raises a general protection fault (SIGSEGV)
// before any system call, so no seccomp filter is asked.
func otherArch(op string) (string, error) {
	var r int64
	switch op {
	case "int80", "int81":
		gate := int80getpid
		if op == "int81" {
			gate = int81
		}
		var err error
		if r, err = faulting(gate); err != nil {
			return "", err
		}
	default:
		r1, _, e := syscall.RawSyscall(0x40000000|syscall.SYS_GETPID, 0, 0, 0)
		if e != 0 {
			return "", e
		}
		r = int64(r1)
	}
	if r < 0 {
		return "", syscall.Errno(-r)
	}
	return strconv.FormatInt(r, 10), nil
}

// faulting calls gate with the fault of a missing gate turned into
// errAbsent (debug.SetPanicOnFault makes the SIGSEGV a panic of this
// goroutine).
func faulting(gate func() int64) (r int64, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if recover() != nil {
			err = errAbsent
		}
	}()
	return gate(), nil
}
