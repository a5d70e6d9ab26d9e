// SPDX-License-Identifier: GPL-3.0-or-later
// measure.go - the timed loop, calibration, buffers and the fit: the same as the C
// core's measure.c and fit.c, so that a Go figure and a C figure mean the same thing.
package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

func clockNs(id int32) uint64 {
	var t unix.Timespec
	if unix.ClockGettime(id, &t) != nil {
		return 0
	}
	return uint64(t.Sec)*1e9 + uint64(t.Nsec)
}

func wallNs() uint64 { return clockNs(unix.CLOCK_MONOTONIC) }
func cpuNs() uint64  { return clockNs(unix.CLOCK_PROCESS_CPUTIME_ID) }

// threadCPUNs: the calling OS thread's CPU time (the clock's probes; lock the goroutine
// to its thread around a pair of readings).
func threadCPUNs() uint64 { return clockNs(unix.CLOCK_THREAD_CPUTIME_ID) }

// alignedBuf returns len bytes starting misalign bytes after a 64-byte boundary, with
// spare bytes of capacity after them (room for an AEAD tag).
func alignedBuf(n, misalign, spare int) []byte {
	raw := make([]byte, n+misalign+spare+128)
	off := int((64 - uintptr(unsafe.Pointer(&raw[0]))%64) % 64)
	start := off + misalign
	return raw[start : start+n : start+n+spare]
}

// prngFill: splitmix64, byte for byte the C core's prng.h (the same seed times the same bytes).
func prngFill(s *uint64, p []byte) {
	for i := 0; i < len(p); i += 8 {
		*s += 0x9e3779b97f4a7c15
		z := *s
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		z ^= z >> 31
		for j := 0; j < 8 && i+j < len(p); j++ {
			p[i+j] = byte(z >> (8 * j))
		}
	}
}

// job: a keyed context and its message, run back to back.
type job struct {
	r         runner
	m         msg
	bumpNonce bool
	counter   uint64
}

var sink byte

func (j *job) run(iters uint64) status {
	st := statusOK
	if j.bumpNonce && len(j.m.nonce) >= 8 {
		ctr := j.m.nonce[len(j.m.nonce)-8:]
		for i := uint64(0); i < iters; i++ {
			j.counter++
			binary.LittleEndian.PutUint64(ctr, j.counter) // as the C core's memcpy on x86
			if s := j.r.run(&j.m); s != statusOK {
				st = s
			}
		}
	} else {
		for i := uint64(0); i < iters; i++ {
			if s := j.r.run(&j.m); s != statusOK {
				st = s
			}
		}
	}
	return st
}

// sample times iters operations; the results are read so nothing computed is dead.
func (j *job) sample(iters uint64) (wall, cpu uint64, st status) {
	c0 := cpuNs()
	w0 := wallNs()
	st = j.run(iters)
	w1 := wallNs()
	c1 := cpuNs()
	if len(j.m.out) > 0 {
		sink ^= j.m.out[len(j.m.out)-1]
	}
	if len(j.m.tag) > 0 {
		sink ^= j.m.tag[0]
	}
	return w1 - w0, c1 - c0, st
}

// warm runs batches of iters calls for warmNs and returns the last batch's time (a loop
// count calibrated before, checked: the C core's cb_job_warm).
func (j *job) warm(warmNs, iters uint64) (uint64, status) {
	if iters == 0 {
		iters = 1
	}
	start := wallNs()
	for {
		t0 := wallNs()
		st := j.run(iters)
		t1 := wallNs()
		if st != statusOK {
			return 0, st
		}
		if t1-start >= warmNs {
			return t1 - t0, statusOK
		}
	}
}

// calibrate: warm-up in doubling batches for warmNs, then a count whose sample lasts
// at least minNs (aiming 25% above it).
func (j *job) calibrate(warmNs, minNs uint64) (uint64, status) {
	n, start := uint64(1), wallNs()
	var lastN, lastT uint64 = 1, 0
	for {
		t0 := wallNs()
		st := j.run(n)
		t1 := wallNs()
		if st != statusOK {
			return 0, st
		}
		lastN, lastT = n, t1-t0
		if t1-start >= warmNs && lastT > 0 {
			break
		}
		if lastT < warmNs/4 {
			n *= 2
		}
	}
	per := float64(lastT) / float64(lastN)
	k := uint64(float64(minNs)*1.25/per) + 1
	for tries := 0; tries < 8; tries++ {
		w, _, st := j.sample(k)
		if st != statusOK {
			return 0, st
		}
		if w >= minNs {
			break
		}
		if w > 0 {
			k = uint64(float64(k)*1.25*float64(minNs)/float64(w)) + 1
		} else {
			k *= 2
		}
	}
	return k, statusOK
}

func median(v []float64) float64 {
	c := append([]float64(nil), v...)
	sort.Float64s(c)
	n := len(c)
	if n%2 == 1 {
		return c[n/2]
	}
	return (c[n/2-1] + c[n/2]) / 2
}

// fitLinear: least squares of y on x (centred sums); ok false for fewer than two distinct x.
func fitLinear(x, y []float64) (slope, intercept, r2 float64, ok bool) {
	n := float64(len(x))
	if len(x) < 2 {
		return 0, 0, 0, false
	}
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= n
	my /= n
	var sxx, sxy, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxx += dx * dx
		sxy += dx * dy
		syy += dy * dy
	}
	if sxx == 0 {
		return 0, 0, 0, false
	}
	slope = sxy / sxx
	intercept = my - slope*mx
	var ssres float64
	for i := range x {
		r := y[i] - (slope*x[i] + intercept)
		ssres += r * r
	}
	r2 = 1
	if syy > 0 {
		r2 = 1 - ssres/syy
	}
	return slope, intercept, r2, true
}

// pinCPU binds every thread of the process to cpu (threads made later inherit it).
func pinCPU(cpu int) error {
	var allowed unix.CPUSet
	if unix.SchedGetaffinity(0, &allowed) != nil {
		return fmt.Errorf("--cpu: cannot read the CPU affinity of this process")
	}
	if cpu < 1024 && allowed.IsSet(cpu) {
		runtime.LockOSThread()
		var one unix.CPUSet
		one.Set(cpu)
		ok := unix.SchedSetaffinity(0, &one) == nil
		if tasks, err := os.ReadDir("/proc/self/task"); err == nil {
			for _, t := range tasks {
				if tid, err := strconv.Atoi(t.Name()); err == nil {
					_ = unix.SchedSetaffinity(tid, &one)
				}
			}
		}
		if ok {
			return nil
		}
	}
	var valid []string
	for i := 0; i < 1024; i++ {
		if allowed.IsSet(i) {
			valid = append(valid, strconv.Itoa(i))
		}
	}
	return fmt.Errorf("--cpu: CPU %d is not available; valid: %s", cpu, strings.Join(valid, ","))
}

// vectorsDir is set at build time (-ldflags -X main.vectorsDir=...) to the source tree's vectors/.
var vectorsDir string

func defaultVectorsDir() string {
	if vectorsDir != "" {
		return vectorsDir
	}
	if exe, err := os.Executable(); err == nil {
		return filepath.Join(filepath.Dir(exe), "..", "vectors")
	}
	return "vectors"
}
