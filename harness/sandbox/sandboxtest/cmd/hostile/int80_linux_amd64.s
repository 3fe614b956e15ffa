#include "textflag.h"

// func int80getpid() int64: getpid (20) through the 32-bit entry point.
TEXT ·int80getpid(SB), NOSPLIT, $0-8
	MOVL $20, AX
	INT $0x80
	MOVQ AX, ret+0(FP)
	RET
