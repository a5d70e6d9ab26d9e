#include "textflag.h"

#define ADD4 ADDQ $1, AX; ADDQ $1, AX; ADDQ $1, AX; ADDQ $1, AX
#define ADD32 ADD4; ADD4; ADD4; ADD4; ADD4; ADD4; ADD4; ADD4

// func addChain(rounds uint64) uint64
TEXT ·addChain(SB), NOSPLIT, $0-16
	MOVQ rounds+0(FP), CX
	XORQ AX, AX
	TESTQ CX, CX
	JZ done
loop:
	ADD32
	DECQ CX
	JNZ loop
done:
	MOVQ AX, ret+8(FP)
	RET

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET
