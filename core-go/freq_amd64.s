#include "textflag.h"

// The addend is a register (BX = 1), not an immediate: Intel's Golden Cove cores fold
// chains of add-immediate at register renaming (about four a cycle); reg+reg is executed.
#define ADD4 ADDQ BX, AX; ADDQ BX, AX; ADDQ BX, AX; ADDQ BX, AX
#define ADD32 ADD4; ADD4; ADD4; ADD4; ADD4; ADD4; ADD4; ADD4

// func addChain(rounds uint64) uint64
TEXT ·addChain(SB), NOSPLIT, $0-16
	MOVQ rounds+0(FP), CX
	XORQ AX, AX
	MOVQ $1, BX
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
