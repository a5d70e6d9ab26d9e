// SPDX-License-Identifier: GPL-3.0-or-later
package main

import "golang.org/x/sys/cpu"

// godebugOption: the GODEBUG option that turns each feature off on amd64 (runtime/
// internal/cpu and golang.org/x/sys/cpu read the same names). VAES: "" because neither
// the standard library nor golang.org/x/crypto has code that uses it (go1.26).
var godebugOption = map[string]string{
	"aes":    "cpu.aes=off",
	"pclmul": "cpu.pclmulqdq=off",
	"avx2":   "cpu.avx2=off",
	"sha":    "cpu.sha=off",
	"vaes":   "",
	"avx512": "cpu.avx512f=off,cpu.avx512bw=off,cpu.avx512vl=off,cpu.avx512dq=off",
	"avx":    "cpu.avx=off,cpu.fma=off",
	"ssse3":  "cpu.sse3=off,cpu.ssse3=off,cpu.sse41=off,cpu.sse42=off,cpu.popcnt=off",
	"bmi":    "cpu.bmi1=off,cpu.bmi2=off,cpu.adx=off",
}

// hwUsed: the features whose code Go selects, by Go's own conditions (crypto/internal/
// fips140's aes, gcm, sha256 and sha512, x/crypto's chacha20poly1305 and blake2b) over
// CPUID as GODEBUG leaves it. Go does not report its choice, so this repeats its rules.
func hwUsed() []string {
	x := cpu.X86
	used := []string{}
	aesni := x.HasAES && x.HasSSE41 && x.HasSSSE3
	if aesni {
		used = append(used, "aes")
	}
	if aesni && x.HasPCLMULQDQ {
		used = append(used, "pclmul")
	}
	if x.HasAVX2 {
		used = append(used, "avx2")
	}
	if x.HasAVX512F {
		used = append(used, "avx512")
	}
	if x.HasAVX {
		used = append(used, "avx")
	}
	if x.HasSSSE3 || x.HasSSE41 {
		used = append(used, "ssse3")
	}
	if x.HasBMI2 {
		used = append(used, "bmi")
	}
	// SHA-NI: CPUID.(EAX=7,ECX=0):EBX bit 29; x/sys/cpu has no flag for it.
	if maxLeaf, _, _, _ := cpuid(0, 0); maxLeaf >= 7 {
		_, ebx, _, _ := cpuid(7, 0)
		if ebx&(1<<29) != 0 && x.HasAVX && x.HasSSE41 && x.HasSSSE3 && !godebugOff("sha") {
			used = append(used, "sha")
		}
	}
	return used
}
