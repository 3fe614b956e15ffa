#include "textflag.h"

// func int80getpid() int64: getpid (20) through the 32-bit entry point.
TEXT ·int80getpid(SB), NOSPLIT, $0-8
	MOVL $20, AX
	INT $0x80
	MOVQ AX, ret+0(FP)
	RET

// func int81() int64: int 0x81, a gate no kernel gives user space: the
// general protection fault a kernel without 32-bit emulation raises for
// int 0x80, on any kernel (the test of errAbsent's path).
TEXT ·int81(SB), NOSPLIT, $0-8
	MOVL $20, AX
	INT $0x81
	MOVQ AX, ret+0(FP)
	RET
