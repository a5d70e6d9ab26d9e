// SPDX-License-Identifier: GPL-3.0-or-later
// cpuinfo.go - CPU model, the flags that change which code a crypto library runs, and
// the measured core frequency (as the C core's cpuinfo.c).
package main

import (
	"bufio"
	"math"
	"os"
	"runtime"
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
// the core from a low clock (0: none), then probes runs of rounds rounds (0: sized from
// the wake-up for about clockProbeNs each), each with its wall and thread CPU time.
type clockPlan struct {
	wakeRounds, rounds uint64
	probes             int
}

// fullClock: the preamble's and every command's end but serve's (the C core's
// cb_measure_freq_hz): a wake-up, then clockMaxProbes probes of about 50 us.
var fullClock = clockPlan{wakeRounds: 100_000, probes: clockMaxProbes}

// clockMaxProbes: the probes of the full measure (the C core's CB_CLOCK_MAX_PROBES): many
// short ones, so that a busy machine still leaves some that kept the CPU.
const clockMaxProbes = 64

// clockEndProbes: the probes at the end of a served request (the C core's
// CB_CLOCK_END_PROBES): the full measure (about 4 ms) at every request's end cost more
// than a short batch itself.
const clockEndProbes = 8

// clockProbeNs: the aim of one of those probes (the C core's CB_CLOCK_PROBE_NS), far above
// the clock's resolution.
const clockProbeNs = 50_000

// clockMinCPUShare: a probe whose CPU time is below this share of its wall time lost the
// CPU (the C core's CB_CLOCK_MIN_CPU_SHARE).
const clockMinCPUShare = 0.95

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

// clock: the raw probes of one measure (docs/protocol.md: freq_cycles, freq_wall_ns,
// freq_cpu_ns) and the frequency they give.
type clock struct {
	cycles        uint64   // cycles per probe; 0: not measured
	wallNs, cpuNs []uint64 // one per probe: wall and thread CPU time
	hz            float64  // clockFreqHz of the probes; 0: unknown
}

// clockProbe times one run of rounds rounds of the chain: wall and thread CPU ns, on one
// OS thread (a goroutine moved between threads would read another thread's CPU clock).
func clockProbe(rounds uint64) (wall, cpu uint64) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0 := threadCPUNs()
	w0 := wallNs()
	addChain(rounds)
	w1 := wallNs()
	c1 := threadCPUNs()
	return w1 - w0, c1 - c0
}

// clockFreqHz: cycles * 1e9 / the shortest wall time among the probes that kept the CPU
// (all probes when none did); 0 without probes. Pure, as the C core's cb_clock_freq_hz.
func clockFreqHz(cycles uint64, wall, cpu []uint64) float64 {
	best, bestAny := uint64(math.MaxUint64), uint64(math.MaxUint64)
	for i, w := range wall {
		if w == 0 {
			continue
		}
		bestAny = min(bestAny, w)
		if i < len(cpu) && float64(cpu[i]) >= clockMinCPUShare*float64(w) {
			best = min(best, w)
		}
	}
	if best == math.MaxUint64 {
		best = bestAny
	}
	if best == math.MaxUint64 || cycles == 0 {
		return 0
	}
	return float64(cycles) * 1e9 / float64(best)
}

// measureClock: a chain of dependent additions of known cycle count (addChain, one add
// per cycle), run as p says; a zero clock where there is no such chain.
func measureClock(p clockPlan) clock {
	if addChain(1) == 0 || p.probes <= 0 {
		return clock{}
	}
	rounds := p.rounds
	if p.wakeRounds > 0 {
		// The wake-up, and a first estimate to size the probes; its CPU time, so that a
		// preemption does not lower the guess.
		w, c := clockProbe(p.wakeRounds)
		if c > 0 && c < w {
			w = c
		}
		if rounds == 0 {
			guess := clockFreqHz(p.wakeRounds*addsPerRound, []uint64{w}, []uint64{w})
			rounds = clockRounds(clockProbeNs, guess)
		}
	}
	if rounds == 0 {
		rounds = clockRounds(clockProbeNs, 0)
	}
	c := clock{cycles: rounds * addsPerRound, wallNs: make([]uint64, p.probes), cpuNs: make([]uint64, p.probes)}
	for i := range c.wallNs {
		c.wallNs[i], c.cpuNs[i] = clockProbe(rounds)
	}
	c.hz = clockFreqHz(c.cycles, c.wallNs, c.cpuNs)
	return c
}

// measureFreqHz: the core's clock, measured in full (fullClock).
func measureFreqHz() clock { return measureClock(fullClock) }

// measureFreqHzAfter: the clock at the end of a served request (endClockPlan).
func measureFreqHzAfter(knownHz float64) clock { return measureClock(endClockPlan(knownHz)) }
