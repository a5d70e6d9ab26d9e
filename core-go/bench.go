// SPDX-License-Identifier: GPL-3.0-or-later
// bench.go - the bench command: known answers first, then per size a point of raw
// samples, then the fit over sizes >= 1 KiB (as the C core's bench.c). The requests of
// serve (serve.go) run the same code, with a memo that keeps each algorithm's known
// answers and each point's loop count between requests.
package main

import (
	"fmt"
	"os"
	"strings"
)

const benchSeed = 0x5eed0000cb01 // the C core's: every run times the same bytes
const fitMinSize = 1024
const tlsAADLen = 13     // an AEAD message's associated data, as in a TLS record
const warmNs = 5_000_000 // at least 5 ms of warm-up per point

// warmMemoNs: the warm-up of a point calibrated by an earlier request of this served
// process (the C core's WARM_MEMO_NS): its clock is up, and 1 ms refills the caches and
// predictors other batches evicted; 5 ms at every round was a third of a short batch.
const warmMemoNs = 1_000_000

func rowNames(rows []row) string {
	var n []string
	for _, r := range rows {
		n = append(n, r.alg.name)
	}
	return strings.Join(n, ", ")
}

// validateBench checks everything the arguments name before any output.
func validateBench(a *args, rows []row) ([]*row, error) {
	if a.lib != libName {
		return nil, fmt.Errorf("unknown library '%s'; valid: %s", a.lib, libName)
	}
	var sel []*row
	for _, name := range a.algos {
		r := findRow(rows, name)
		if r == nil {
			return nil, fmt.Errorf("library %s has no algorithm '%s'; valid: %s", libName, name, rowNames(rows))
		}
		ok := false
		for _, o := range r.alg.kind.ops() {
			ok = ok || o == a.op
		}
		if !ok {
			return nil, fmt.Errorf("unknown op '%s' for %s; valid: %s", a.op, name, strings.Join(r.alg.kind.ops(), ", "))
		}
		for _, s := range a.sizes {
			if a.sizesGiven && s%r.alg.blockLen != 0 {
				return nil, fmt.Errorf("size %d is not a multiple of %s's block of %d bytes; valid: multiples of the block", s, name, r.alg.blockLen)
			}
		}
		sel = append(sel, r)
	}
	return sel, nil
}

// benchLib: the library set up for timing: its vectors loaded, its hardware switch read.
type benchLib struct {
	set    *vecSet
	hw     string  // hwStatus once started: "" when nothing was asked off
	freqHz float64 // the preamble's clock (0: unknown): it sizes serve's end probes
}

// What serve keeps between requests (the C core's cb_bench_memo): each algorithm's known
// answers are checked once, each point's loop count calibrated once. Full tables are
// simply not extended.
const memoKats = 256
const memoCalibs = 4096

type katMemo struct {
	ok  bool
	why string // why not
}

// calibKey: a point, and the sample length its loop count was calibrated for.
type calibKey struct {
	algo, op       string
	size, misalign int
	minNs          uint64
}

type benchMemo struct {
	kats   map[string]katMemo
	calibs map[calibKey]uint64
}

func newBenchMemo() *benchMemo {
	return &benchMemo{kats: map[string]katMemo{}, calibs: map[calibKey]uint64{}}
}

// memoWarmNs: how long a point whose loop count is kept warms up: warmMemoNs, or one
// sample's minimum when that is longer.
func memoWarmNs(minNs uint64) uint64 {
	if minNs > warmMemoNs {
		return minNs
	}
	return warmMemoNs
}

// calibrate: a loop count kept from an earlier request is only warmed up (memoWarmNs),
// unless it now runs shorter than half a sample's minimum (the machine got much faster,
// or its calibration was slowed down); otherwise calibrate (again), warming up for warm.
// Without a memo (bench), calibrate. Noise between the two is tolerated, so the rounds of
// a point keep one count.
func (m *benchMemo) calibrate(j *job, key calibKey, warm uint64) (uint64, status) {
	if m != nil {
		if iters, ok := m.calibs[key]; ok {
			last, st := j.warm(memoWarmNs(key.minNs), iters)
			if st != statusOK {
				return 0, st
			}
			if last >= key.minNs/2 {
				return iters, statusOK
			}
		}
	}
	iters, st := j.calibrate(warm, key.minNs)
	if st == statusOK && m != nil {
		if _, ok := m.calibs[key]; ok || len(m.calibs) < memoCalibs {
			m.calibs[key] = iters
		}
	}
	return iters, st
}

// katOK: the known answers of r (its kat records written), once per algorithm with a memo.
func (m *benchMemo) katOK(r *row, set *vecSet) (bool, string) {
	if m != nil {
		if k, ok := m.kats[r.alg.name]; ok {
			return k.ok, k.why
		}
	}
	res, why := katAlgo(r, set)
	ok := res == 1
	if m != nil && len(m.kats) < memoKats {
		m.kats[r.alg.name] = katMemo{ok: ok, why: why}
	}
	return ok, why
}

// groupSamples: the samples between two of a point's clock probes for n samples: n/6,
// from 1 to 8 (the C core's cb_bench_best_of).
func groupSamples(n int) int {
	return max(1, min(n/6, 8))
}

// measurePoint times op on size bytes and emits the point; returns the median wall time
// of one call, or ok false after emitting an error record. With a memo, a point
// calibrated before keeps its loop count.
func measurePoint(a *args, r *row, size int, memo *benchMemo) (perOp float64, ok bool) {
	alg := &r.alg
	decrypt := a.op == "decrypt"
	fail := func(reason, m string) (float64, bool) {
		emitError(libName, alg.name, a.op, reason, fmt.Sprintf("size %d: %s", size, m))
		return 0, false
	}
	var key, iv, aad [64]byte
	seed := uint64(benchSeed)
	prngFill(&seed, key[:])
	prngFill(&seed, iv[:])
	prngFill(&seed, aad[:tlsAADLen])
	in := alignedBuf(size, a.misalign, alg.tagLen)
	prngFill(&seed, in)
	var out []byte
	if alg.kind == kindAEAD || alg.kind == kindCipher {
		out = alignedBuf(size, a.misalign, alg.tagLen)
	}
	nonce := append([]byte(nil), iv[:]...)
	s := setup{key: key[:alg.keyLen], tagLen: alg.tagLen, decrypt: decrypt}
	if alg.ivLen > 0 {
		s.iv = iv[:alg.ivLen]
	}
	j := &job{m: msg{in: in, out: out}}
	if alg.perMessageNonce {
		j.m.nonce = nonce[:alg.ivLen]
		j.bumpNonce = !(alg.kind == kindAEAD && decrypt)
	}
	if alg.kind == kindAEAD {
		j.m.aad = aad[:alg.aadLen()]
	}
	if alg.tagLen > 0 {
		j.m.tag = make([]byte, alg.tagLen)
	}
	if alg.kind == kindAEAD && decrypt {
		// Encrypt once so that every timed decryption verifies its tag.
		es := s
		es.decrypt = false
		enc, st := r.init(&es)
		if st != statusOK {
			return fail("init_failed", fmt.Sprintf("encrypt init returned status %d", st))
		}
		if st := enc.run(&j.m); st != statusOK {
			return fail("run_failed", fmt.Sprintf("encrypting the message to decrypt returned status %d", st))
		}
		copy(in, out)
	}
	ctx, st := r.init(&s)
	if st != statusOK {
		reason := "init_failed"
		if st == statusParam {
			reason = "unsupported"
		}
		return fail(reason, fmt.Sprintf("init returned status %d for key %d, iv %d, tag %d bytes", st, alg.keyLen, alg.ivLen, alg.tagLen))
	}
	j.r = ctx
	runErr := func(st status) (float64, bool) {
		m := fmt.Sprintf("%s returned status %d", a.op, st)
		if st == statusAuth {
			m += " (the tag did not verify)"
		}
		return fail("run_failed", m)
	}
	minNs := uint64(a.minSampleMs * 1e6)
	warm := uint64(warmNs)
	if 2*minNs > warm {
		warm = 2 * minNs
	}
	ck := calibKey{algo: alg.name, op: a.op, size: size, misalign: a.misalign, minNs: minNs}
	iters, st := memo.calibrate(j, ck, warm)
	if st != statusOK {
		return runErr(st)
	}
	wall := make([]uint64, a.samples)
	cpu := make([]uint64, a.samples)
	// The clock probed before each group of groupSamples samples (the C core's sample_loop:
	// interleaved, so a busy stretch falls on probes and samples alike).
	group, pc := groupSamples(len(wall)), clock{}
	if preambleHz > 0 {
		pc.cycles = clockRounds(min(minNs, clockProbeNs), preambleHz) * addsPerRound
	}
	for i := range wall {
		if pc.cycles > 0 && i%group == 0 {
			w, c := clockProbe(pc.cycles / addsPerRound)
			pc.wallNs, pc.cpuNs = append(pc.wallNs, w), append(pc.cpuNs, c)
		}
		var st status
		if wall[i], cpu[i], st = j.sample(iters); st != statusOK {
			return runErr(st)
		}
	}
	emit(pointRec{V: protocolVersion, Type: "point", Lib: libName, Algo: alg.name, Op: a.op, Size: size,
		Iters: iters, WallNs: wall, CPUNs: cpu, Misalign: a.misalign, probes: probesOf(pc)})
	w := make([]float64, len(wall))
	for i, x := range wall {
		w[i] = float64(x)
	}
	return median(w) / float64(iters), true
}

// benchAlgo: every size, then the fit. Returns true when every point was measured.
func benchAlgo(a *args, r *row, memo *benchMemo) bool {
	var xs, ys []float64
	var fitSizes []int
	for _, size := range a.sizes {
		if size%r.alg.blockLen != 0 {
			emitError(libName, r.alg.name, a.op, "bad_size",
				fmt.Sprintf("size %d is not a multiple of the %d-byte block", size, r.alg.blockLen))
			continue
		}
		perOp, ok := measurePoint(a, r, size, memo)
		if !ok {
			return false // a failing operation is not timed further
		}
		if size >= fitMinSize {
			xs = append(xs, float64(size))
			ys = append(ys, perOp)
			fitSizes = append(fitSizes, size)
		}
	}
	if slope, icpt, r2, ok := fitLinear(xs, ys); ok {
		emit(fitRec{V: protocolVersion, Type: "fit", Lib: libName, Algo: r.alg.name, Op: a.op,
			Slope: slope, Intercept: icpt, R2: r2, Sizes: fitSizes})
	}
	return true
}

// openBench pins the process to --cpu and loads the vectors (a warning on stderr for each
// file left out); nothing is written on stdout.
func openBench(a *args, rows []row) (*benchLib, error) {
	if a.cpu >= 0 {
		if err := pinCPU(a.cpu); err != nil {
			return nil, err
		}
	}
	// Nothing is timed before it passes its vectors.
	set, err := loadVectors(vectorsPath(a.vectors), rows)
	if err != nil {
		return nil, err
	}
	for _, b := range set.bad {
		fmt.Fprintf(os.Stderr, "cipherbench-core-go: warning: %s (left out)\n", b)
	}
	return &benchLib{set: set}, nil
}

// start writes the preamble of command and the library record.
func (L *benchLib) start(command string) {
	L.freqHz = emitPreamble(command)
	emit(libraryRecord())
	L.hw = hwStatus()
}

// run times every algorithm of sel in turn: known answers first (once per algorithm with
// a memo), then a point per size. Returns the number of algorithms that failed.
func (L *benchLib) run(a *args, sel []*row, memo *benchMemo) int {
	failures := 0
	for _, r := range sel {
		if L.hw != "" && L.hw != "applied" {
			cannot := L.hw == "cannot_disable"
			if cannot {
				emitError(libName, r.alg.name, a.op, "cannot_disable", "the library has no supported switch to turn off the CPU features asked; not measured")
			} else {
				emitError(libName, r.alg.name, a.op, "hw_switch_failed", "the library reports a CPU feature asked off still in use; not measured")
				failures++
			}
			continue
		}
		if ok, why := memo.katOK(r, L.set); !ok {
			emitError(libName, r.alg.name, a.op, "kat_failed", why)
			failures++
			continue
		}
		if !benchAlgo(a, r, memo) {
			failures++
		}
	}
	return failures
}

func cmdBench(a *args, rows []row) int {
	sel, err := validateBench(a, rows)
	if err != nil {
		return usageError(err)
	}
	L, err := openBench(a, rows)
	if err != nil {
		return usageError(err)
	}
	t0, c0 := wallNs(), cpuNs()
	L.start("bench")
	failures := L.run(a, sel, nil)
	wall, cpu := wallNs()-t0, cpuNs()-c0
	emitEndCPU(measureFreqHz(), wall, cpu)
	if failures > 0 {
		return 1
	}
	return 0
}
