// SPDX-License-Identifier: GPL-3.0-or-later
package main

import (
	"bufio"
	"strings"
	"testing"
)

func serveArgs() *args {
	return &args{cmd: "serve", lib: libName, cpu: -1, vectors: "../vectors"}
}

// Every kind of refusal of the C core's request.c, each with its message.
func TestRequestRefusals(t *testing.T) {
	many := `"a"` + strings.Repeat(`,"a"`, maxAlgos)
	long := `"` + strings.Repeat("x", 2100) + `"`
	sizes65 := "1" + strings.Repeat(",1", maxSizes)
	cases := []struct{ line, want string }{
		{`{not json`, "is not one JSON object"},
		{`{"algo":["chacha20"],"op":"encrypt"} x`, "is not one JSON object"},
		{``, "is not one JSON object"},
		{`["algo"]`, "must be a JSON object"},
		{`"algo"`, "must be a JSON object"},
		{`{"algo":["chacha20"],"op":"encrypt","speed":1}`, `unknown field "speed"; valid: algo, op, sizes`},
		{`{"` + strings.Repeat("é", 40) + `":1}`, `unknown field "` + strings.Repeat("é", 32) + `"`},
		{`{"algo":["chacha20"],"op":"encrypt","op":"decrypt"}`, `field "op" given twice`},
		{`{"algo":"chacha20","op":"encrypt"}`, `"algo" must be a list of 1 to 128`},
		{`{"algo":[],"op":"encrypt"}`, `"algo" must be a list of 1 to 128`},
		{`{"algo":[` + many + `],"op":"encrypt"}`, `"algo" must be a list of 1 to 128`},
		{`{"algo":[""],"op":"encrypt"}`, "non-empty strings"},
		{`{"algo":[1],"op":"encrypt"}`, "non-empty strings"},
		{`{"algo":[` + long + `,` + long + `],"op":"encrypt"}`, "too long together"},
		{`{"algo":["chacha20"],"op":7}`, `"op" must be a string`},
		{`{"algo":["chacha20"],"op":""}`, `"op" must be a string`},
		{`{"algo":["chacha20"],"op":"encrypt","sizes":1024}`, `"sizes" must be a list of 1 to 64`},
		{`{"algo":["chacha20"],"op":"encrypt","sizes":[]}`, `"sizes" must be a list of 1 to 64`},
		{`{"algo":["chacha20"],"op":"encrypt","sizes":[` + sizes65 + `]}`, `"sizes" must be a list of 1 to 64`},
		{`{"algo":["chacha20"],"op":"encrypt","sizes":[0]}`, "every size must be a whole number of bytes from 1 to 67108864"},
		{`{"algo":["chacha20"],"op":"encrypt","sizes":[67108865]}`, "from 1 to 67108864"},
		{`{"algo":["chacha20"],"op":"encrypt","sizes":[16.5]}`, "from 1 to 67108864"},
		{`{"algo":["chacha20"],"op":"encrypt","sizes":["16"]}`, "from 1 to 67108864"},
		{`{"algo":["chacha20"],"op":"encrypt","sizes":[1e400]}`, "from 1 to 67108864"},
		{`{"algo":["chacha20"],"op":"encrypt","samples":0}`, `"samples" must be a whole number from 1 to 1000`},
		{`{"algo":["chacha20"],"op":"encrypt","samples":1001}`, `"samples" must be a whole number from 1 to 1000`},
		{`{"algo":["chacha20"],"op":"encrypt","samples":"3"}`, `"samples" must be`},
		{`{"algo":["chacha20"],"op":"encrypt","samples":null}`, `"samples" must be`},
		{`{"algo":["chacha20"],"op":"encrypt","min_sample_ms":0}`, `"min_sample_ms" must be milliseconds from 0.001 to 10000`},
		{`{"algo":["chacha20"],"op":"encrypt","min_sample_ms":10001}`, `"min_sample_ms" must be milliseconds`},
		{`{"algo":["chacha20"],"op":"encrypt","min_sample_ms":true}`, `"min_sample_ms" must be milliseconds`},
		{`{"algo":["chacha20"],"op":"encrypt","misalign":64}`, `"misalign" must be a whole number of bytes from 0 to 63`},
		{`{"algo":["chacha20"],"op":"encrypt","misalign":-1}`, `"misalign" must be`},
		{`{"algo":["chacha20"]}`, `the request needs "algo" and "op"`},
		{`{"op":"encrypt"}`, `the request needs "algo" and "op"`},
		{`{}`, `the request needs "algo" and "op"`},
	}
	for _, c := range cases {
		req, err := parseRequest([]byte(c.line), serveArgs())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.80s: got %v %v, want an error with %q", c.line, req, err, c.want)
		}
	}
}

// What parses takes bench's defaults for the fields not given, and whole numbers written
// as JSON writes them (1024.0, 1e3) count as whole.
func TestRequestAccepted(t *testing.T) {
	req, err := parseRequest([]byte(` {"op":"encrypt","algo":["chacha20","aes-128-gcm"]}`+"\r"), serveArgs())
	if err != nil {
		t.Fatal(err)
	}
	def := benchDefaults()
	if req.cmd != "bench" || req.lib != libName || req.cpu != -1 || req.vectors != "../vectors" ||
		req.op != "encrypt" || strings.Join(req.algos, ",") != "chacha20,aes-128-gcm" ||
		req.sizesGiven || len(req.sizes) != len(def.sizes) || req.samples != def.samples ||
		req.minSampleMs != def.minSampleMs || req.misalign != 0 {
		t.Fatalf("defaults: %+v", req)
	}
	req, err = parseRequest([]byte(`{"algo":["sha256"],"op":"hash","sizes":[1024.0,1e3,64],"samples":20,"min_sample_ms":0.5,"misalign":3}`), serveArgs())
	if err != nil {
		t.Fatal(err)
	}
	if !req.sizesGiven || len(req.sizes) != 3 || req.sizes[0] != 1024 || req.sizes[1] != 1000 ||
		req.samples != 20 || req.minSampleMs != 0.5 || req.misalign != 3 {
		t.Fatalf("fields: %+v", req)
	}
}

// A line that is not text is refused before it is parsed, naming the first bad byte.
func TestRequestText(t *testing.T) {
	cases := []struct{ line, want string }{
		{"{\"al\x00go\":1}", "NUL byte (byte 5)"},
		{"\x00", "NUL byte (byte 1)"},
		{"{\"\xff\xfe\":1}", "not UTF-8 text (byte 3 is 0xff)"},
		{"{\"\xc0\xaf\":1}", "not UTF-8 text (byte 3 is 0xc0)"},        // overlong
		{"{\"\xed\xa0\x80\":1}", "not UTF-8 text (byte 3 is 0xed)"},    // a surrogate
		{"{\"algo\":[\"é\xc3\"]}", "not UTF-8 text (byte 13 is 0xc3)"}, // a cut character
	}
	for _, c := range cases {
		if err := requestText([]byte(c.line)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.line, err, c.want)
		}
	}
	if err := requestText([]byte("{\"algo\":[\"é€😀\ufffd\"]}")); err != nil {
		t.Errorf("valid UTF-8 refused: %v", err)
	}
}

// Lines of any length are read to their end; one past the limit is refused whole, the next
// one is read as it is.
func TestRequestLines(t *testing.T) {
	atLimit := strings.Repeat("x", maxRequest)
	in := bufio.NewReader(strings.NewReader(atLimit + "\n" + atLimit + "y\n" + "a\x00b\r\n\nlast"))
	for i, want := range []struct {
		kind lineKind
		line string
	}{{lineOK, atLimit}, {lineLong, ""}, {lineOK, "a\x00b\r"}, {lineOK, ""}, {lineOK, "last"}, {lineEnd, ""}} {
		line, kind := readRequestLine(in)
		if kind != want.kind || string(line) != want.line {
			t.Fatalf("line %d: kind %d, %d bytes; want kind %d, %d bytes", i, kind, len(line), want.kind, len(want.line))
		}
	}
	if !blank([]byte(" \t\r")) || blank([]byte(" x")) {
		t.Fatal("blank")
	}
}
