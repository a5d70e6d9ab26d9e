// SPDX-License-Identifier: GPL-3.0-or-later
// bench.go - the bench command: known answers first, then per size a point of raw
// samples, then the fit over sizes >= 1 KiB (as the C core's bench.c).
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

// measurePoint times op on size bytes and emits the point; returns the median wall time
// of one call, or ok false after emitting an error record.
func measurePoint(a *args, r *row, size int) (perOp float64, ok bool) {
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
	iters, st := j.calibrate(warm, minNs)
	if st != statusOK {
		return runErr(st)
	}
	wall := make([]uint64, a.samples)
	cpu := make([]uint64, a.samples)
	for i := range wall {
		var st status
		if wall[i], cpu[i], st = j.sample(iters); st != statusOK {
			return runErr(st)
		}
	}
	emit(pointRec{V: protocolVersion, Type: "point", Lib: libName, Algo: alg.name, Op: a.op, Size: size,
		Iters: iters, WallNs: wall, CPUNs: cpu, Misalign: a.misalign})
	w := make([]float64, len(wall))
	for i, x := range wall {
		w[i] = float64(x)
	}
	return median(w) / float64(iters), true
}

// benchAlgo: every size, then the fit. Returns true when every point was measured.
func benchAlgo(a *args, r *row) bool {
	var xs, ys []float64
	var fitSizes []int
	for _, size := range a.sizes {
		if size%r.alg.blockLen != 0 {
			emitError(libName, r.alg.name, a.op, "bad_size",
				fmt.Sprintf("size %d is not a multiple of the %d-byte block", size, r.alg.blockLen))
			continue
		}
		perOp, ok := measurePoint(a, r, size)
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

func cmdBench(a *args, rows []row) int {
	sel, err := validateBench(a, rows)
	if err != nil {
		return usageError(err)
	}
	if a.cpu >= 0 {
		if err := pinCPU(a.cpu); err != nil {
			return usageError(err)
		}
	}
	// Nothing is timed before it passes its vectors.
	set, err := loadVectors(vectorsPath(a.vectors), rows)
	if err != nil {
		return usageError(err)
	}
	for _, b := range set.bad {
		fmt.Fprintf(os.Stderr, "cipherbench-core-go: warning: %s (left out)\n", b)
	}
	t0 := wallNs()
	emitPreamble("bench")
	emit(libraryRecord())
	hw := hwStatus()
	failures := 0
	for _, r := range sel {
		if hw != "" && hw != "applied" {
			cannot := hw == "cannot_disable"
			if cannot {
				emitError(libName, r.alg.name, a.op, "cannot_disable", "the library has no supported switch to turn off the CPU features asked; not measured")
			} else {
				emitError(libName, r.alg.name, a.op, "hw_switch_failed", "the library reports a CPU feature asked off still in use; not measured")
				failures++
			}
			continue
		}
		if res, why := katAlgo(r, set); res != 1 {
			emitError(libName, r.alg.name, a.op, "kat_failed", why)
			failures++
			continue
		}
		if !benchAlgo(a, r) {
			failures++
		}
	}
	emitEnd(measureFreqHz(), wallNs()-t0)
	if failures > 0 {
		return 1
	}
	return 0
}
