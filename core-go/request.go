// SPDX-License-Identifier: GPL-3.0-or-later
// request.go - one request of serve: a JSON object on one line naming what to time, e.g.
// {"algo":["aes-128-gcm"],"op":"encrypt","sizes":[1024],"samples":20}, parsed as strictly
// as the C core's request.c (docs/protocol.md, "serve").
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// maxRequest: the longest request line read; a longer one is refused whole.
const maxRequest = 65536

// algoBytes: the room of the C core's algorithm names (args.h algo_buf), each with its NUL.
const algoBytes = 4096

const validFields = "algo, op, sizes, samples, min_sample_ms, misalign"

// lineKind: what readRequestLine found.
type lineKind int

const (
	lineEnd  lineKind = iota // the end of the input
	lineOK                   // a line (without its newline)
	lineLong                 // a line longer than maxRequest, read to its end and dropped
)

// readRequestLine reads one line of any bytes, NUL included. At most maxRequest bytes of a
// line are kept, so a long line costs no more memory than a short one.
func readRequestLine(in *bufio.Reader) ([]byte, lineKind) {
	var line []byte
	n := 0
	newline := false
	for {
		chunk, err := in.ReadSlice('\n')
		n += len(chunk)
		if len(line) <= maxRequest {
			line = append(line, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		newline = err == nil
		break // the line's end, or the input's (EOF or an error reading it)
	}
	if n == 0 {
		return nil, lineEnd
	}
	if newline {
		n--
	}
	if n > maxRequest {
		return nil, lineLong
	}
	return line[:n], lineOK
}

// blank: only spaces, tabs and carriage returns (ignored between requests).
func blank(line []byte) bool {
	return len(bytes.Trim(line, " \t\r")) == 0
}

// requestText refuses a line that is not text: a NUL byte, or bytes that are not UTF-8.
func requestText(line []byte) error {
	for i := 0; i < len(line); {
		if line[i] == 0 {
			return fmt.Errorf("the request has a NUL byte (byte %d): it must be one line of JSON text", i+1)
		}
		r, size := utf8.DecodeRune(line[i:])
		if r == utf8.RuneError && size <= 1 {
			return fmt.Errorf("the request is not UTF-8 text (byte %d is 0x%02x): it must be one line of JSON text", i+1, line[i])
		}
		i += size
	}
	return nil
}

// cutName: s cut to at most n bytes, never in the middle of a character.
func cutName(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// whole: a JSON number that is a whole number in [lo, hi].
func whole(v any, lo, hi float64) (float64, bool) {
	d, ok := number(v)
	if !ok || d != math.Floor(d) || d < lo || d > hi {
		return 0, false
	}
	return d, true
}

// number: a finite JSON number (json.Number: the decoder's UseNumber).
func number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	d, _ := strconv.ParseFloat(string(n), 64) // syntax checked by json.Valid; a range error is ±Inf
	if math.IsInf(d, 0) || math.IsNaN(d) {
		return 0, false
	}
	return d, true
}

func (req *args) requestAlgo(v any) error {
	list, ok := v.([]any)
	if !ok || len(list) < 1 || len(list) > maxAlgos {
		return fmt.Errorf("\"algo\" must be a list of 1 to %d algorithm names", maxAlgos)
	}
	room := 0
	req.algos = nil
	for _, e := range list {
		name, ok := e.(string)
		if !ok || name == "" {
			return errors.New("\"algo\" must be a list of algorithm names (non-empty strings)")
		}
		if room += len(name) + 1; room > algoBytes {
			return errors.New("\"algo\": the names are too long together")
		}
		req.algos = append(req.algos, name)
	}
	return nil
}

func (req *args) requestSizes(v any) error {
	list, ok := v.([]any)
	if !ok || len(list) < 1 || len(list) > maxSizes {
		return fmt.Errorf("\"sizes\" must be a list of 1 to %d sizes", maxSizes)
	}
	req.sizes = nil
	for _, e := range list {
		d, ok := whole(e, 1, maxSize)
		if !ok {
			return fmt.Errorf("\"sizes\": every size must be a whole number of bytes from 1 to %d", maxSize)
		}
		req.sizes = append(req.sizes, int(d))
	}
	req.sizesGiven = true
	return nil
}

// requestField sets one field of the request from its JSON value, or says what is valid.
func (req *args) requestField(name string, v any) error {
	switch name {
	case "algo":
		return req.requestAlgo(v)
	case "op":
		op, ok := v.(string)
		if !ok || op == "" {
			return errors.New("\"op\" must be a string: encrypt, decrypt, hash or mac")
		}
		req.op = op
	case "sizes":
		return req.requestSizes(v)
	case "samples":
		d, ok := whole(v, 1, maxSamples)
		if !ok {
			return fmt.Errorf("\"samples\" must be a whole number from 1 to %d", maxSamples)
		}
		req.samples = int(d)
	case "min_sample_ms":
		d, ok := number(v)
		if !ok || !(d >= minSampleMsLo && d <= minSampleMsHi) {
			return fmt.Errorf("\"min_sample_ms\" must be milliseconds from %g to %g", minSampleMsLo, minSampleMsHi)
		}
		req.minSampleMs = d
	case "misalign":
		d, ok := whole(v, 0, maxMisalign)
		if !ok {
			return fmt.Errorf("\"misalign\" must be a whole number of bytes from 0 to %d", maxMisalign)
		}
		req.misalign = int(d)
	default:
		return fmt.Errorf("unknown field \"%s\"; valid: %s", cutName(name, 64), validFields)
	}
	return nil
}

var requestFields = map[string]bool{"algo": true, "op": true, "sizes": true, "samples": true,
	"min_sample_ms": true, "misalign": true}

// parseRequest: one request line (text already checked) as the arguments of bench, with the
// library, CPU and vectors of serve and bench's defaults for the fields not given. Strict:
// a field that is not known, given twice, of the wrong type or out of its range refuses
// the whole request. Checks syntax and ranges only (validateBench does the rest).
func parseRequest(line []byte, serve *args) (*args, error) {
	req := benchDefaults()
	req.cmd, req.lib, req.cpu, req.vectors = "bench", serve.lib, serve.cpu, serve.vectors
	notJSON := fmt.Errorf("the request is not one JSON object; valid: {\"algo\":[...],\"op\":...} with %s", validFields)
	if !json.Valid(line) {
		return nil, notJSON
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("the request must be a JSON object with %s", validFields)
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		name, isKey := tok.(string)
		var v any
		if err != nil || !isKey || dec.Decode(&v) != nil {
			return nil, notJSON // not reached: the line is valid JSON
		}
		if !requestFields[name] {
			return nil, fmt.Errorf("unknown field \"%s\"; valid: %s", cutName(name, 64), validFields)
		}
		if seen[name] {
			return nil, fmt.Errorf("field \"%s\" given twice", name)
		}
		seen[name] = true
		if err := req.requestField(name, v); err != nil {
			return nil, err
		}
	}
	if !seen["algo"] || !seen["op"] {
		return nil, errors.New("the request needs \"algo\" and \"op\"")
	}
	return req, nil
}
