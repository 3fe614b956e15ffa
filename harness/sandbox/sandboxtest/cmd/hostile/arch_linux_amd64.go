package main

import (
	"strconv"
	"syscall"
)

func int80getpid() int64

// otherArch calls getpid through the 32-bit entry point (int 0x80) or
// with the x32 bit: "ok PID", or the errno (ENOSYS: the kernel lacks
// that ABI).
func otherArch(op string) (string, error) {
	var r int64
	if op == "int80" {
		r = int80getpid()
	} else {
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
