// SPDX-License-Identifier: GPL-3.0-or-later
// cipherbench-core-go: the cipherbench core protocol (docs/protocol.md) for Go's
// standard library and golang.org/x/crypto, as the library "go": list, kat, bench and serve,
// with the C core's arguments, known-answer checks, sampling and JSON lines.
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
)

const coreVersion = "0.1.0"

func usageError(err error) int {
	out.Flush()
	fmt.Fprintf(os.Stderr, "cipherbench-core-go: %v\n", err)
	return 2
}

// xcryptoVersion is set at build time (-ldflags -X main.xcryptoVersion=...) where the binary
// has no module information: Debian's package builds core-go in GOPATH mode against its
// golang-golang-x-crypto-dev.
var xcryptoVersion string

// libVersion: the Go release and the x/crypto module this binary was built with.
func libVersion() string {
	v := "Go " + runtime.Version()
	if xcryptoVersion != "" {
		return v + ", golang.org/x/crypto " + xcryptoVersion
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "golang.org/x/crypto" {
				v += ", golang.org/x/crypto " + d.Version
			}
		}
	}
	return v
}

// preambleHz: the clock the preamble measured (0: unknown); it sizes the probes of every
// point and of serve's ends (the C core's cb_preamble_freq_hz).
var preambleHz float64

// emitPreamble writes the preamble of command, with the clock's probes; returns the clock
// it measured (0: unknown).
func emitPreamble(command string) float64 {
	model, flags := cpuInfo()
	c := measureFreqHz()
	emit(preambleRec{V: protocolVersion, Type: "preamble", CoreVersion: coreVersion,
		Compiler: "gc " + runtime.Version(), Cflags: buildFlags(), CPUModel: model, CPUFlags: flags,
		FreqHz: freqPtr(c.hz), Clock: "CLOCK_MONOTONIC", Command: command, Commands: commands,
		probes: probesOf(c)})
	preambleHz = c.hz
	return c.hz
}

// buildFlags: the flags the binary was built with, as the Go toolchain recorded them.
func buildFlags() string {
	s := ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, kv := range bi.Settings {
			switch kv.Key {
			case "-trimpath", "-gcflags", "-ldflags", "GOAMD64", "CGO_ENABLED":
				if kv.Key == "-ldflags" {
					continue // carries the vectors path: a machine path, not a flag of the code
				}
				if s != "" {
					s += " "
				}
				s += kv.Key + "=" + kv.Value
			}
		}
	}
	return s
}

func algorithmRecord(r *row) algorithmRec {
	a := r.alg
	rec := algorithmRec{V: protocolVersion, Type: "algorithm", Lib: libName, Algo: a.name,
		Kind: a.kind.String(), Ops: a.kind.ops(), KeyLen: a.keyLen, IvLen: a.ivLen,
		TagLen: a.tagLen, BlockLen: a.blockLen}
	if a.kind == kindAEAD {
		n := a.aadLen()
		rec.AADLen = &n
	}
	return rec
}

func cmdList(a *args, rows []row) int {
	if a.lib != "" && a.lib != libName {
		return usageError(fmt.Errorf("unknown library '%s'; valid: %s", a.lib, libName))
	}
	t0 := wallNs()
	emitPreamble("list")
	emit(libraryRecord())
	for i := range rows {
		emit(algorithmRecord(&rows[i]))
	}
	emitEnd(measureFreqHz(), wallNs()-t0)
	return 0
}

// cmdKat: every row's vectors. One library: there is no differential check here.
func cmdKat(a *args, rows []row) int {
	if a.lib != "" && a.lib != libName {
		return usageError(fmt.Errorf("unknown library '%s'; valid: %s", a.lib, libName))
	}
	path := vectorsPath(a.vectors)
	st, err := os.Stat(path)
	fromDir := err == nil && st.IsDir()
	set, err := loadVectors(path, rows)
	if err != nil {
		return usageError(err)
	}
	t0 := wallNs()
	emitPreamble("kat")
	failures := len(set.bad)
	for _, b := range set.bad {
		fmt.Fprintf(os.Stderr, "cipherbench-core-go: %s\n", b)
	}
	// Nothing to check (an empty directory, files for rows this core does not have) is a
	// failure too: a kat that checked nothing must not pass for one that passed.
	if len(set.files) == 0 {
		fmt.Fprintf(os.Stderr, "cipherbench-core-go: no vector checked: %s holds no vector for a row of %s\n", path, libName)
		failures++
	}
	emit(libraryRecord())
	for i := range rows {
		r := &rows[i]
		covered := false
		for _, f := range set.files {
			covered = covered || f.alg.name == r.alg.name
		}
		if !fromDir && !covered {
			continue
		}
		res, why := katAlgo(r, set)
		if res == 0 {
			failures++
		} else if res < 0 {
			emitKat(libName, r.alg.name, 0, 0, 0, "", why)
		}
	}
	emitEnd(measureFreqHz(), wallNs()-t0)
	if failures > 0 {
		return 1
	}
	return 0
}

func main() {
	os.Exit(run())
}

func run() int {
	defer out.Flush()
	argv, off, err := takeHwArgs(os.Args[1:])
	if err != nil {
		return usageError(err)
	}
	if len(off) > 0 {
		if err := hwApply(off, os.Args); err != nil {
			fmt.Fprintf(os.Stderr, "cipherbench-core-go: %v\n", err)
			return 1
		}
	}
	if len(argv) > 0 && argv[0] == "tls" {
		return cmdTLS(argv[1:])
	}
	a, err := parseArgs(argv)
	if err != nil {
		return usageError(err)
	}
	rows := goRows
	switch a.cmd {
	case "help":
		fmt.Fprint(os.Stderr, usage)
		return 0
	case "list":
		return cmdList(a, rows)
	case "kat":
		return cmdKat(a, rows)
	case "serve":
		return cmdServe(a, rows)
	}
	return cmdBench(a, rows)
}
