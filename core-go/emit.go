// SPDX-License-Identifier: GPL-3.0-or-later
// emit.go - protocol records (docs/protocol.md), one JSON object per line on stdout.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

const protocolVersion = 1

var out = bufio.NewWriter(os.Stdout)

// Each record is a struct whose field order is the C core's; null fields are pointers.
type preambleRec struct {
	V           int      `json:"v"`
	Type        string   `json:"type"`
	CoreVersion string   `json:"core_version"`
	Compiler    string   `json:"compiler"`
	Cflags      string   `json:"cflags"`
	CPUModel    string   `json:"cpu_model"`
	CPUFlags    []string `json:"cpu_flags"`
	FreqHz      *float64 `json:"freq_hz"`
	Clock       string   `json:"clock"`
	Command     string   `json:"command"`
	Commands    []string `json:"commands"`
	probes
}

// probes: the clock's raw probes (freq_cycles, freq_wall_ns, freq_cpu_ns), written last in
// a preamble, point or end record as the C core's add_probes does; left out when empty.
type probes struct {
	FreqCycles uint64   `json:"freq_cycles,omitempty"`
	FreqWallNs []uint64 `json:"freq_wall_ns,omitempty"`
	FreqCPUNs  []uint64 `json:"freq_cpu_ns,omitempty"`
}

// probesOf: the probes of c for a record; none when it measured nothing.
func probesOf(c clock) probes {
	if c.cycles == 0 || len(c.wallNs) == 0 {
		return probes{}
	}
	return probes{FreqCycles: c.cycles, FreqWallNs: c.wallNs, FreqCPUNs: c.cpuNs}
}

type libraryRec struct {
	V              int       `json:"v"`
	Type           string    `json:"type"`
	Lib            string    `json:"lib"`
	Version        *string   `json:"version"`
	Caps           []string  `json:"caps"`
	Provider       *string   `json:"provider"`
	HwUsed         *[]string `json:"hw_used"`
	HwOffRequested []string  `json:"hw_off_requested,omitempty"`
	HwSwitch       string    `json:"hw_switch,omitempty"`
	HwEnv          *[]string `json:"hw_env,omitempty"`
}

type algorithmRec struct {
	V        int      `json:"v"`
	Type     string   `json:"type"`
	Lib      string   `json:"lib"`
	Algo     string   `json:"algo"`
	Kind     string   `json:"kind"`
	Ops      []string `json:"ops"`
	KeyLen   int      `json:"key_len"`
	IvLen    int      `json:"iv_len"`
	TagLen   int      `json:"tag_len"`
	BlockLen int      `json:"block_len"`
	AADLen   *int     `json:"aad_len,omitempty"` // AEAD rows only
}

type katRec struct {
	V       int     `json:"v"`
	Type    string  `json:"type"`
	Lib     string  `json:"lib"`
	Algo    string  `json:"algo"`
	Passed  int     `json:"passed"`
	Failed  int     `json:"failed"`
	Skipped int     `json:"skipped"`
	Source  *string `json:"source"`
	Message string  `json:"message,omitempty"`
}

type pointRec struct {
	V        int      `json:"v"`
	Type     string   `json:"type"`
	Lib      string   `json:"lib"`
	Algo     string   `json:"algo"`
	Op       string   `json:"op"`
	Size     int      `json:"size"`
	Iters    uint64   `json:"iters"`
	WallNs   []uint64 `json:"wall_ns"`
	CPUNs    []uint64 `json:"cpu_ns"`
	Misalign int      `json:"misalign"`
	probes
}

type fitRec struct {
	V         int     `json:"v"`
	Type      string  `json:"type"`
	Lib       string  `json:"lib"`
	Algo      string  `json:"algo"`
	Op        string  `json:"op"`
	Slope     float64 `json:"slope_ns_per_byte"`
	Intercept float64 `json:"intercept_ns"`
	R2        float64 `json:"r2"`
	Sizes     []int   `json:"sizes"`
}

type errorRec struct {
	V       int     `json:"v"`
	Type    string  `json:"type"`
	Lib     string  `json:"lib"`
	Algo    *string `json:"algo"`
	Op      *string `json:"op"`
	Reason  string  `json:"reason"`
	Message string  `json:"message"`
}

type endRec struct {
	V         int      `json:"v"`
	Type      string   `json:"type"`
	FreqHz    *float64 `json:"freq_hz"`
	ElapsedNs uint64   `json:"elapsed_ns"`
	CPUNs     *uint64  `json:"cpu_ns,omitempty"` // bench and serve: the process's CPU time
	probes
}

// emit writes one record as one line and flushes it, so a reader sees whole lines.
func emit(rec any) {
	b, err := json.Marshal(rec)
	if err != nil {
		fmt.Fprintf(os.Stderr, "cipherbench-core-go: cannot encode a record: %v\n", err)
		return
	}
	out.Write(b)
	out.WriteByte('\n')
	out.Flush()
}

func strPtr(s string) *string { return &s }

func freqPtr(f float64) *float64 {
	if f > 0 {
		return &f
	}
	return nil
}

func emitKat(lib, algo string, passed, failed, skipped int, source, message string) {
	r := katRec{V: protocolVersion, Type: "kat", Lib: lib, Algo: algo, Passed: passed,
		Failed: failed, Skipped: skipped, Message: message}
	if source != "" {
		r.Source = &source
	}
	emit(r)
}

// emitError writes an error record; op "" is written as null (kat), algo "" and op "" as
// null both (a refused serve request).
func emitError(lib, algo, op, reason, message string) {
	r := errorRec{V: protocolVersion, Type: "error", Lib: lib, Reason: reason, Message: message}
	if algo != "" {
		r.Algo = &algo
	}
	if op != "" {
		r.Op = &op
	}
	emit(r)
}

// emitEnd: the last record, with the clock measured after the work and its probes.
func emitEnd(c clock, elapsed uint64) {
	emit(endRec{V: protocolVersion, Type: "end", FreqHz: freqPtr(c.hz), ElapsedNs: elapsed, probes: probesOf(c)})
}

// emitEndCPU: the end of bench and of each serve answer, with the CPU time it took.
func emitEndCPU(c clock, elapsed, cpu uint64) {
	emit(endRec{V: protocolVersion, Type: "end", FreqHz: freqPtr(c.hz), ElapsedNs: elapsed, CPUNs: &cpu,
		probes: probesOf(c)})
}
