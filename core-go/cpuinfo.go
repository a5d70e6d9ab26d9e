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

// clockPlan: how the clock is measured: a run of wakeRounds rounds of the chain to wake
// the core from a low clock (0: none), then probes runs of rounds rounds, the fastest read.
type clockPlan struct {
	wakeRounds, rounds uint64
	probes             int
}

// fullClock: the preamble's and every command's end but serve's: a wake-up, then seven
// runs of about 1 ms at 3 GHz.
var fullClock = clockPlan{wakeRounds: 100_000, rounds: 100_000, probes: 7}

// clockEndProbes: the probes at the end of a served request (the C core's
// CB_CLOCK_END_PROBES): the full measure (about 8 ms) at every request's end cost more
// than a short batch itself.
const clockEndProbes = 8

// clockProbeNs: the aim of one of those probes (the C core's CB_CLOCK_PROBE_NS), far above
// the clock's resolution.
const clockProbeNs = 50_000

// clockRounds: rounds of the chain for a probe of about targetNs at freqHz (3 GHz when
// unknown); at least one.
func clockRounds(targetNs uint64, freqHz float64) uint64 {
	if !(freqHz > 0) {
		freqHz = 3e9
	}
	if r := uint64(float64(targetNs) * freqHz / 1e9 / addsPerRound); r > 0 {
		return r
	}
	return 1
}

// endClockPlan: the clock at the end of a served request. With knownHz, the preamble's
// clock measured by this busy process, no wake-up and clockEndProbes probes sized by it;
// without it, the full measure.
func endClockPlan(knownHz float64) clockPlan {
	if !(knownHz > 0) {
		return fullClock
	}
	return clockPlan{rounds: clockRounds(clockProbeNs, knownHz), probes: clockEndProbes}
}

// measureClock: a chain of dependent additions of known cycle count (addChain, one add
// per cycle), run as p says; 0 where there is no such chain.
func measureClock(p clockPlan) float64 {
	if addChain(1) == 0 {
		return 0
	}
	if p.wakeRounds > 0 {
		addChain(p.wakeRounds)
	}
	best := uint64(math.MaxUint64)
	for i := 0; i < p.probes; i++ {
		t0 := wallNs()
		addChain(p.rounds)
		if t := wallNs() - t0; t > 0 && t < best {
			best = t
		}
	}
	if best == math.MaxUint64 {
		return 0
	}
	return float64(p.rounds*addsPerRound) * 1e9 / float64(best)
}

// measureFreqHz: the core's clock, measured in full (fullClock).
func measureFreqHz() float64 { return measureClock(fullClock) }

// measureFreqHzAfter: the clock at the end of a served request (endClockPlan).
func measureFreqHzAfter(knownHz float64) float64 { return measureClock(endClockPlan(knownHz)) }
