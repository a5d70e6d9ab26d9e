// SPDX-License-Identifier: GPL-3.0-or-later
// args.go - the command line, as the C core's args.c reads it (the same commands,
// options, defaults and one-line usage errors).
package main

import (
	"fmt"
	"strconv"
	"strings"
)

const usage = `usage: cipherbench-core-go list [--lib go]
       cipherbench-core-go kat [--lib go] [--vectors FILE|DIR] [--no-differential]
       cipherbench-core-go bench --lib go --algo A[,B...] --op encrypt|decrypt|hash|mac
                                 [--sizes 16,64,...] [--samples N] [--min-sample-ms T]
                                 [--misalign N] [--cpu K] [--vectors DIR]
       cipherbench-core-go serve --lib go [--cpu K] [--vectors DIR]
                                 (one JSON request a line on stdin, as bench's options)
       cipherbench-core-go tls --list | --lib go [--suites S,...] [--handshakes] (tls --help)
  every command (tls too): [--cpu-profile no-aes|baseline | --no-hw (= no-aes)
    | --disable-cpu-feature aes,pclmul,avx2,vaes,sha,avx512,avx,ssse3,bmi]
       turns those CPU features off through Go's GODEBUG cpu.* options
`

const maxSizes = 64
const maxSize = 64 << 20
const maxAlgos = 128
const maxSamples = 1000
const maxMisalign = 63
const minSampleMsLo, minSampleMsHi = 0.001, 10000.0

type args struct {
	cmd            string // list, kat, bench, serve, help
	lib, op        string
	algos          []string
	sizes          []int
	sizesGiven     bool
	samples        int
	minSampleMs    float64
	misalign       int
	cpu            int
	vectors        string
	noDifferential bool
}

var defaultSizes = []int{16, 64, 256, 1024, 8192, 16384, 65536}

var cmdOpts = map[string]map[string]bool{ // option -> takes a value
	"list":  {"--lib": true},
	"kat":   {"--lib": true, "--vectors": true, "--no-differential": false},
	"bench": {"--lib": true, "--algo": true, "--op": true, "--sizes": true, "--samples": true, "--min-sample-ms": true, "--misalign": true, "--cpu": true, "--vectors": true},
	"serve": {"--lib": true, "--cpu": true, "--vectors": true},
}

var optOrder = map[string][]string{
	"list":  {"--lib"},
	"kat":   {"--lib", "--vectors", "--no-differential"},
	"bench": {"--lib", "--algo", "--op", "--sizes", "--samples", "--min-sample-ms", "--misalign", "--cpu", "--vectors"},
	"serve": {"--lib", "--cpu", "--vectors"},
}

// commands: every command of this core, as the preamble names them (a front end starts
// one `serve` process per library when it is there).
var commands = []string{"list", "kat", "bench", "serve", "tls"}

// parseUint: a whole decimal number in [lo, hi].
func parseUint(s string, lo, hi int) (int, bool) {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return 0, false
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v < uint64(lo) || v > uint64(hi) {
		return 0, false
	}
	return int(v), true
}

func (a *args) apply(name, val string) error {
	switch name {
	case "--lib":
		a.lib = val
	case "--op":
		a.op = val
	case "--algo":
		a.algos = nil
		for _, t := range strings.Split(val, ",") {
			if t != "" {
				a.algos = append(a.algos, t)
			}
		}
		if len(a.algos) == 0 {
			return fmt.Errorf("--algo: empty list")
		}
		if len(a.algos) > maxAlgos {
			return fmt.Errorf("--algo: at most %d algorithms", maxAlgos)
		}
	case "--sizes":
		a.sizes = nil
		for _, t := range strings.Split(val, ",") {
			if t == "" {
				continue
			}
			v, ok := parseUint(t, 1, maxSize)
			if !ok {
				return fmt.Errorf("--sizes: '%s' is not a size; valid: whole numbers of bytes from 1 to %d, comma-separated", t, maxSize)
			}
			if len(a.sizes) == maxSizes {
				return fmt.Errorf("--sizes: at most %d sizes", maxSizes)
			}
			a.sizes = append(a.sizes, v)
		}
		if len(a.sizes) == 0 {
			return fmt.Errorf("--sizes: empty list; valid: whole numbers of bytes, comma-separated, e.g. 16,64,1024")
		}
		a.sizesGiven = true
	case "--samples":
		v, ok := parseUint(val, 1, maxSamples)
		if !ok {
			return fmt.Errorf("--samples: '%s' is not valid; valid: a whole number from 1 to %d", val, maxSamples)
		}
		a.samples = v
	case "--min-sample-ms":
		d, err := strconv.ParseFloat(val, 64)
		if err != nil || !(d >= minSampleMsLo && d <= minSampleMsHi) {
			return fmt.Errorf("--min-sample-ms: '%s' is not valid; valid: milliseconds from %g to %g", val, minSampleMsLo, minSampleMsHi)
		}
		a.minSampleMs = d
	case "--misalign":
		v, ok := parseUint(val, 0, maxMisalign)
		if !ok {
			return fmt.Errorf("--misalign: '%s' is not valid; valid: bytes from 0 to %d", val, maxMisalign)
		}
		a.misalign = v
	case "--cpu":
		v, ok := parseUint(val, 0, 1023)
		if !ok {
			return fmt.Errorf("--cpu: '%s' is not valid; valid: a CPU number from 0 to 1023", val)
		}
		a.cpu = v
	case "--vectors":
		a.vectors = val
	case "--no-differential":
		a.noDifferential = true
	}
	return nil
}

// benchDefaults: the options of bench (and of a serve request) that are not given.
func benchDefaults() *args {
	return &args{samples: 11, minSampleMs: 2, cpu: -1, sizes: defaultSizes}
}

func parseArgs(argv []string) (*args, error) {
	a := benchDefaults()
	if len(argv) < 1 {
		return nil, fmt.Errorf("missing command; valid: list, kat, bench, serve, tls (see --help)")
	}
	cmd := argv[0]
	switch cmd {
	case "list", "kat", "bench", "serve":
		a.cmd = cmd
	case "--help", "-h", "help":
		a.cmd = "help"
		return a, nil
	default:
		return nil, fmt.Errorf("unknown command '%s'; valid: list, kat, bench, serve, tls", cmd)
	}
	opts := cmdOpts[cmd]
	for i := 1; i < len(argv); i++ {
		arg := argv[i]
		if arg == "--help" || arg == "-h" {
			a.cmd = "help"
			return a, nil
		}
		name, val, hasEq := strings.Cut(arg, "=")
		takes, known := opts[name]
		if !known {
			return nil, fmt.Errorf("unknown option '%s'; valid: %s", arg, strings.Join(optOrder[cmd], ", "))
		}
		if takes && !hasEq {
			if i+1 >= len(argv) {
				return nil, fmt.Errorf("option %s needs a value", name)
			}
			i++
			val = argv[i]
		} else if !takes && hasEq {
			return nil, fmt.Errorf("option %s takes no value", name)
		}
		if err := a.apply(name, val); err != nil {
			return nil, err
		}
	}
	if cmd == "serve" && a.lib == "" {
		return nil, fmt.Errorf("serve needs --lib (see 'cipherbench-core-go list' for the libraries)")
	}
	if cmd == "bench" {
		switch {
		case a.lib == "":
			return nil, fmt.Errorf("bench needs --lib (see 'cipherbench-core-go list' for the libraries)")
		case len(a.algos) == 0:
			return nil, fmt.Errorf("bench needs --algo (see 'cipherbench-core-go list --lib %s' for its algorithms)", a.lib)
		case a.op == "":
			return nil, fmt.Errorf("bench needs --op; valid: encrypt, decrypt, hash, mac")
		}
	}
	return a, nil
}
