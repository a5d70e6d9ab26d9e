// SPDX-License-Identifier: GPL-3.0-or-later
package main

import (
	"math"
	"runtime"
	"strings"
	"testing"
)

// The clock is the probe's cycles over the fastest wall time among the probes that kept
// the CPU (CPU time at least 95% of wall time), all of them when none did: the C core's
// cb_clock_freq_hz.
func TestClockFreqHzRule(t *testing.T) {
	// The 100 us probe lost the CPU (10 us of CPU): the 200 us one that kept it counts.
	if got := clockFreqHz(600_000, []uint64{200_000, 100_000, 250_000}, []uint64{199_000, 10_000, 250_000}); got != 3e9 {
		t.Errorf("kept probes: %v, want 3e9", got)
	}
	// None kept the CPU: the fastest of all.
	if got := clockFreqHz(600_000, []uint64{300_000, 200_000}, []uint64{0, 0}); got != 3e9 {
		t.Errorf("no probe kept the CPU: %v, want 3e9", got)
	}
	for _, c := range []struct {
		cycles    uint64
		wall, cpu []uint64
	}{{600_000, nil, nil}, {0, []uint64{1000}, []uint64{1000}}, {600_000, []uint64{0}, []uint64{0}}} {
		if got := clockFreqHz(c.cycles, c.wall, c.cpu); got != 0 {
			t.Errorf("clockFreqHz(%d, %v, %v) = %v, want 0", c.cycles, c.wall, c.cpu, got)
		}
	}
}

// needChain: the probes exist only where the chain of known cycle count does.
func needChain(t *testing.T) {
	t.Helper()
	if addChain(1) == 0 {
		t.Skipf("no add chain on %s", runtime.GOARCH)
	}
}

// checkProbes: a record's probes: cycles > 0, one wall and one CPU time per probe, n of
// them; with a freq_hz, the one they give.
func checkProbes(t *testing.T, r map[string]any, n int) {
	t.Helper()
	cycles, _ := r["freq_cycles"].(float64)
	wall, _ := r["freq_wall_ns"].([]any)
	cpu, _ := r["freq_cpu_ns"].([]any)
	if cycles <= 0 || len(wall) != n || len(cpu) != n {
		t.Fatalf("%v record: freq_cycles %v, %d wall and %d CPU probes, want %d: %v", r["type"], r["freq_cycles"], len(wall), len(cpu), n, r)
	}
	w, c := make([]uint64, n), make([]uint64, n)
	for i := range wall {
		w[i], c[i] = uint64(wall[i].(float64)), uint64(cpu[i].(float64))
	}
	if hz, ok := r["freq_hz"].(float64); ok {
		if want := clockFreqHz(uint64(cycles), w, c); math.Abs(hz-want) > want*1e-12 {
			t.Fatalf("%v record: freq_hz %v, its probes give %v", r["type"], hz, want)
		}
	}
}

// The full measure: 64 probes, each with its wall and CPU time, and the clock they give.
func TestMeasureClockKeepsItsProbes(t *testing.T) {
	needChain(t)
	c := measureFreqHz()
	if c.cycles == 0 || len(c.wallNs) != clockMaxProbes || len(c.cpuNs) != clockMaxProbes || c.hz <= 0 {
		t.Fatalf("full measure: %d cycles, %d wall, %d CPU, %v Hz", c.cycles, len(c.wallNs), len(c.cpuNs), c.hz)
	}
	if c.hz != clockFreqHz(c.cycles, c.wallNs, c.cpuNs) {
		t.Fatalf("%v Hz is not what the probes give", c.hz)
	}
	if e := measureFreqHzAfter(c.hz); len(e.wallNs) != clockEndProbes || e.cycles != clockRounds(clockProbeNs, c.hz)*addsPerRound {
		t.Fatalf("end measure: %d probes of %d cycles", len(e.wallNs), e.cycles)
	}
}

// The records of a served session carry the clock's raw probes as the C core's do: the
// preamble all 64, every point one before each group of samples, every end 8.
func TestServeRecordsCarryProbes(t *testing.T) {
	needChain(t)
	a := serveArgs()
	L, err := openBench(a, goRows)
	if err != nil {
		t.Fatal(err)
	}
	req := `{"algo":["chacha20"],"op":"encrypt","sizes":[64,1024],"samples":13,"min_sample_ms":0.05}`
	recs := records(t, func() {
		L.start("serve")
		L.serve(strings.NewReader(req+"\n"+req+"\n"), a, goRows, newBenchMemo())
	})
	checkProbes(t, recs[0], clockMaxProbes)
	points, ends := 0, 0
	for _, r := range recs[2:] {
		switch r["type"] {
		case "point":
			checkProbes(t, r, 7) // 13 samples in groups of 2 (13/6)
			points++
		case "end":
			checkProbes(t, r, clockEndProbes)
			ends++
		}
	}
	if points != 4 || ends != 2 {
		t.Fatalf("%d points and %d ends", points, ends)
	}
}

// The samples between two of a point's probes: n/6, from 1 to 8 (the C core's best_of).
func TestGroupSamples(t *testing.T) {
	for n, want := range map[int]int{1: 1, 5: 1, 6: 1, 13: 2, 48: 8, 1000: 8} {
		if got := groupSamples(n); got != want {
			t.Errorf("groupSamples(%d) = %d, want %d", n, got, want)
		}
	}
}
