// SPDX-License-Identifier: GPL-3.0-or-later
// cpuinfo.go - CPU model, the flags that change which code a crypto library runs, and
// the measured core frequency (as the C core's cpuinfo.c).
package main

import (
	"bufio"
	"math"
	"os"
	"strings"
)

var wantedFlags = []string{
	"aes", "vaes", "pclmulqdq", "vpclmulqdq", "sha_ni", "ssse3", "sse4_1", "sse4_2",
	"avx", "avx2", "avx512f", "avx512vl", "bmi2", "adx",
	"pmull", "sha1", "sha2", "sha3", "sha512", "sm3", "sm4", "asimd", "sve",
}

func cpuInfo() (model string, flags []string) {
	model = "unknown"
	flags = []string{}
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	haveModel, haveFlags := false, false
	for sc.Scan() && !(haveModel && haveFlags) {
		line := sc.Text()
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		if !haveModel && (strings.HasPrefix(k, "model name") || strings.HasPrefix(k, "Hardware")) {
			model = strings.TrimSpace(v)
			haveModel = true
		} else if !haveFlags && (strings.HasPrefix(k, "flags") || strings.HasPrefix(k, "Features")) {
			have := map[string]bool{}
			for _, w := range strings.Fields(v) {
				have[w] = true
			}
			for _, w := range wantedFlags {
				if have[w] {
					flags = append(flags, w)
				}
			}
			haveFlags = true
		}
	}
	return
}

// measureFreqHz: a chain of dependent additions of known cycle count (addChain, one add
// per cycle), the fastest of seven runs; 0 where there is no such chain.
func measureFreqHz() float64 {
	const rounds = 100000
	if addChain(1) == 0 {
		return 0
	}
	addChain(rounds) // wake the core up from a low clock
	best := uint64(math.MaxUint64)
	for i := 0; i < 7; i++ {
		t0 := wallNs()
		addChain(rounds)
		if t := wallNs() - t0; t > 0 && t < best {
			best = t
		}
	}
	if best == math.MaxUint64 {
		return 0
	}
	return float64(rounds*addsPerRound) * 1e9 / float64(best)
}
