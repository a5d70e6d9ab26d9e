// SPDX-License-Identifier: GPL-3.0-or-later
// serve.go - the serve command (docs/protocol.md, "serve"), as the C core's serve.c: the
// library's vectors are loaded once; then each request line is answered with the records
// bench writes for the same arguments, ended by an end record. Known answers run once per
// algorithm and each point is calibrated once (benchMemo), so later rounds of the same
// point skip both.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
)

func cmdServe(a *args, rows []row) int {
	if a.lib != libName {
		return usageError(fmt.Errorf("unknown library '%s'; valid: %s", a.lib, libName))
	}
	L, err := openBench(a, rows)
	if err != nil {
		return usageError(err)
	}
	L.start("serve")
	L.serve(os.Stdin, a, rows, newBenchMemo())
	return 0
}

// serve answers every request line of in until its end: the records of bench for it, or
// one bad_request error, then its end record with the time and CPU time it took and the
// clock of a few short probes sized by the preamble's (measureFreqHzAfter).
func (L *benchLib) serve(in io.Reader, a *args, rows []row, memo *benchMemo) {
	r := bufio.NewReader(in)
	for {
		line, got := readRequestLine(r)
		if got == lineEnd {
			return
		}
		if got == lineOK && blank(line) {
			continue
		}
		t0, c0 := wallNs(), cpuNs()
		if req, sel, err := checkRequest(line, got, a, rows); err != nil {
			emitError(libName, "", "", "bad_request", err.Error())
		} else {
			L.run(req, sel, memo)
		}
		wall, cpu := wallNs()-t0, cpuNs()-c0 // the answer's own time, before the clock's probe
		emitEndCPU(measureFreqHzAfter(L.freqHz), wall, cpu)
	}
}

// checkRequest: the request of one line as bench's arguments and the rows it times, or
// why it cannot be run.
func checkRequest(line []byte, got lineKind, serve *args, rows []row) (*args, []*row, error) {
	if got == lineLong {
		return nil, nil, fmt.Errorf("request longer than %d bytes", maxRequest)
	}
	if err := requestText(line); err != nil {
		return nil, nil, err
	}
	req, err := parseRequest(line, serve)
	if err != nil {
		return nil, nil, err
	}
	sel, err := validateBench(req, rows)
	if err != nil {
		return nil, nil, err
	}
	return req, sel, nil
}
