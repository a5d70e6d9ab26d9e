// SPDX-License-Identifier: GPL-3.0-or-later
package main

const addsPerRound = 32

// addChain runs rounds x 32 dependent ADDs (freq_amd64.s) and returns their sum.
func addChain(rounds uint64) uint64

// cpuid executes CPUID with eax and ecx (freq_amd64.s).
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
