// SPDX-License-Identifier: GPL-3.0-or-later
// hw.go - --no-hw and --disable-cpu-feature through Go's own switch: the GODEBUG cpu.*
// options, read by the runtime (and golang.org/x/sys/cpu) when the process starts, so
// the core sets GODEBUG and executes itself again, as the C core does with its libraries'
// variables.
package main

import (
	"fmt"
	"os"
	"strings"
	"syscall"
)

var hwNames = []string{"aes", "pclmul", "avx2", "vaes", "sha", "avx512", "avx", "ssse3", "bmi"}

const hwValid = "aes, pclmul, avx2, vaes, sha, avx512, avx, ssse3, bmi"

// hwProfiles: --cpu-profile's names and the features each turns off (as in the C core:
// no-aes is what --no-hw always meant, baseline everything beyond the architecture's).
var hwProfiles = map[string][]string{
	"no-aes":   hwNames[:5],
	"baseline": hwNames,
}

const hwMarker = "CIPHERBENCH_CORE_HW_OFF"

// hwRequest: the features asked off (names, in hwNames order); empty when none.
var hwRequest []string

// takeHwArgs removes --cpu-profile, --no-hw and --disable-cpu-feature from args; a usage
// error is returned.
func takeHwArgs(args []string) ([]string, []string, error) {
	const opt, prof = "--disable-cpu-feature", "--cpu-profile"
	want := map[string]bool{}
	var rest []string
	parse := func(list string) error {
		for _, f := range strings.Split(list, ",") {
			known := false
			for _, n := range hwNames {
				known = known || n == f
			}
			if !known {
				if len(f) > 32 {
					f = f[:32]
				}
				return fmt.Errorf("--disable-cpu-feature: unknown feature '%s'; valid: %s (comma-separated)", f, hwValid)
			}
			want[f] = true
		}
		return nil
	}
	profile := func(name string) error {
		fs, ok := hwProfiles[name]
		if !ok {
			if len(name) > 32 {
				name = name[:32]
			}
			return fmt.Errorf("--cpu-profile: unknown profile '%s'; valid: no-aes, baseline", name)
		}
		for _, f := range fs {
			want[f] = true
		}
		return nil
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--no-hw":
			_ = profile("no-aes")
		case a == prof:
			if i+1 >= len(args) {
				return nil, nil, fmt.Errorf("option %s needs a value; valid: no-aes, baseline", prof)
			}
			i++
			if err := profile(args[i]); err != nil {
				return nil, nil, err
			}
		case strings.HasPrefix(a, prof+"="):
			if err := profile(a[len(prof)+1:]); err != nil {
				return nil, nil, err
			}
		case a == opt:
			if i+1 >= len(args) {
				return nil, nil, fmt.Errorf("option %s needs a value; valid: %s", opt, hwValid)
			}
			i++
			if err := parse(args[i]); err != nil {
				return nil, nil, err
			}
		case strings.HasPrefix(a, opt+"="):
			if err := parse(a[len(opt)+1:]); err != nil {
				return nil, nil, err
			}
		default:
			rest = append(rest, a)
		}
	}
	var off []string
	for _, n := range hwNames {
		if want[n] {
			off = append(off, n)
		}
	}
	return rest, off, nil
}

// godebugOpts: the GODEBUG options that turn the features off, and whether every
// feature asked has a switch (or no code in Go that uses it).
func godebugOpts(off []string) ([]string, bool) {
	var opts []string
	for _, f := range off {
		o, ok := godebugOption[f]
		if !ok {
			return nil, false
		}
		if o != "" {
			opts = append(opts, o)
		}
	}
	return opts, true
}

// hwApply makes the request effective: adds the options to GODEBUG and executes the core
// again, unless this process is that second execution. Returns an error only when exec failed.
func hwApply(off []string, argv []string) error {
	want := strings.Join(off, ",")
	if os.Getenv(hwMarker) == want {
		hwRequest = off
		return nil
	}
	if opts, _ := godebugOpts(off); len(opts) > 0 {
		v := strings.Join(opts, ",")
		if prev := os.Getenv("GODEBUG"); prev != "" {
			v = prev + "," + v
		}
		os.Setenv("GODEBUG", v)
	}
	os.Setenv(hwMarker, want)
	out.Flush()
	err := syscall.Exec("/proc/self/exe", argv, os.Environ())
	return fmt.Errorf("cannot execute itself again to turn hardware features off: %v", err)
}

// godebugOff tells whether GODEBUG turns the runtime's cpu option name off (later
// settings win, cpu.all covers every option), as the runtime reads it.
func godebugOff(name string) bool {
	off := false
	for _, f := range strings.Split(os.Getenv("GODEBUG"), ",") {
		k, v, ok := strings.Cut(f, "=")
		if !ok || (k != "cpu.all" && k != "cpu."+name) {
			continue
		}
		off = v == "off"
	}
	return off
}

// hwStatus: "" when nothing was asked off, else applied, cannot_disable or failed.
func hwStatus() string {
	if len(hwRequest) == 0 {
		return ""
	}
	if _, ok := godebugOpts(hwRequest); !ok {
		return "cannot_disable"
	}
	used := hwUsed()
	if used == nil {
		return "applied"
	}
	for _, f := range hwRequest {
		for _, u := range used {
			if u == f {
				return "failed"
			}
		}
	}
	return "applied"
}

// libraryRecord: the library with its version and, when asked, its hardware switch.
func libraryRecord() libraryRec {
	r := libraryRec{V: protocolVersion, Type: "library", Lib: libName, Version: strPtr(libVersion())}
	used := hwUsed()
	if used != nil {
		r.HwUsed = &used
		r.Caps = []string{}
		caps := map[string]string{"aes": "aes_hw", "pclmul": "clmul_hw", "sha": "sha_hw", "avx2": "vector"}
		for _, n := range []string{"aes", "pclmul", "sha", "avx2"} {
			for _, u := range used {
				if u == n {
					r.Caps = append(r.Caps, caps[n])
				}
			}
		}
	}
	if st := hwStatus(); st != "" {
		r.HwOffRequested = hwRequest
		r.HwSwitch = st
		env := []string{}
		if opts, ok := godebugOpts(hwRequest); ok && len(opts) > 0 {
			env = append(env, "GODEBUG="+os.Getenv("GODEBUG"))
		}
		r.HwEnv = &env
	}
	return r
}
