// SPDX-License-Identifier: GPL-3.0-or-later
package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The bench inputs are the C core's: splitmix64 from the same seed (values from an
// independent splitmix64 written in Python).
func TestPrngMatchesTheCCore(t *testing.T) {
	seed := uint64(benchSeed)
	b := make([]byte, 12)
	prngFill(&seed, b)
	if got := hex.EncodeToString(b); got != "f8047c13cf0cfa7f6999cb97" {
		t.Fatalf("prng bytes %s", got)
	}
}

func TestFit(t *testing.T) {
	s, i, r2, ok := fitLinear([]float64{1024, 2048, 4096}, []float64{110, 210, 410})
	if !ok || s < 0.0976 || s > 0.0977 || i < 9 || i > 11 || r2 < 0.9999 {
		t.Fatalf("fit %v %v %v %v", s, i, r2, ok)
	}
	if _, _, _, ok := fitLinear([]float64{1024}, []float64{1}); ok {
		t.Fatal("a fit of one point")
	}
}

func TestAlignedBuf(t *testing.T) {
	for _, mis := range []int{0, 5, 63} {
		b := alignedBuf(100, mis, 16)
		if len(b) != 100 || cap(b) != 116 || addr(b)%64 != uint64(mis) {
			t.Fatalf("misalign %d: len %d cap %d addr%%64 %d", mis, len(b), cap(b), addr(b)%64)
		}
	}
}

func repoVectors(t *testing.T) *vecSet {
	set, err := loadVectors(filepath.Join("..", "vectors"), goRows)
	if err != nil || len(set.bad) > 0 {
		t.Fatalf("vectors: %v %v", err, set)
	}
	return set
}

// Every row passes its known answers, and a wrong answer fails it.
func TestKnownAnswers(t *testing.T) {
	set := repoVectors(t)
	var buf bytes.Buffer
	out.Reset(&buf)
	defer out.Reset(os.Stdout)
	for i := range goRows {
		r := &goRows[i]
		if res, why := katAlgo(r, set); res != 1 {
			t.Errorf("%s: %s", r.alg.name, why)
		}
		// The same vectors with one output byte changed must fail.
		for fi := range set.files {
			f := set.files[fi]
			if f.alg.name != r.alg.name || f.v[0].invalid {
				continue
			}
			bad := f
			bad.v = append([]vector(nil), f.v...)
			v := &bad.v[0]
			for _, fld := range []*bytesField{&v.ct, &v.md, &v.mac, &v.tag} {
				if len(fld.b) > 0 {
					fld.b = append([]byte(nil), fld.b...)
					fld.b[len(fld.b)-1] ^= 0x80
					break
				}
			}
			if res, _ := katAlgo(r, &vecSet{files: []vecFile{bad}}); res != 0 {
				t.Errorf("%s: a wrong answer passed", r.alg.name)
			}
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil || rec["type"] != "kat" {
			t.Fatalf("not a kat record: %s", line)
		}
	}
}

// The must-fail cases of vectors/invalid/ are read and refused; a case that is in fact the
// right answer (a valid vector marked invalid) fails its algorithm, and must-fail cases
// alone (no answer checked) do not let an algorithm be timed.
func TestInvalidVectors(t *testing.T) {
	set := repoVectors(t)
	var buf bytes.Buffer
	out.Reset(&buf)
	defer out.Reset(os.Stdout)
	seen := map[string]bool{}
	for _, f := range set.files {
		if !f.v[0].invalid {
			continue
		}
		seen[f.alg.name] = true
		r := findRow(goRows, f.alg.name)
		if res := katFile(r, &f); res.failed != 0 || res.passed != len(f.v) || res.validPassed != 0 {
			t.Errorf("%s: %+v", f.path, res)
		}
		if res, _ := katAlgo(r, &vecSet{files: []vecFile{f}}); res != 0 {
			t.Errorf("%s: passed on must-fail cases alone", f.alg.name)
		}
	}
	for _, name := range []string{"aes-128-gcm", "aes-256-gcm", "chacha20-poly1305", "hmac-md5", "hmac-sha1", "hmac-sha256", "hmac-sha512"} {
		if !seen[name] {
			t.Errorf("%s: no must-fail cases read from vectors/invalid/", name)
		}
	}
	for _, f := range set.files {
		if f.v[0].invalid {
			continue
		}
		r := findRow(goRows, f.alg.name)
		if r.alg.kind != kindAEAD && r.alg.kind != kindMAC {
			continue
		}
		marked := f
		marked.v = append([]vector(nil), f.v[0])
		marked.v[0].invalid = true
		marked.v[0].pt = bytesField{}
		if res := katFile(r, &marked); res.failed != 1 {
			t.Errorf("%s: the right answer marked invalid was not caught: %+v", f.alg.name, res)
		}
	}
}

// A forgery of a valid vector (a bit flipped in the tag, the ciphertext or the AAD) that
// decrypts fails the vector: a library that checks only part of the tag is caught.
type partialTagAEAD struct{ inner runner }

func (p partialTagAEAD) run(m *msg) status {
	st := p.inner.run(m)
	if st == statusAuth && m.tag[len(m.tag)-1] != 0 { // pretends to check all but the last byte
		return statusOK
	}
	return st
}

func TestForgeriesRefused(t *testing.T) {
	set := repoVectors(t)
	r := *findRow(goRows, "aes-128-gcm")
	inner := r.init
	r.init = func(s *setup) (runner, status) {
		x, st := inner(s)
		if st != statusOK || !s.decrypt {
			return x, st
		}
		return partialTagAEAD{x}, st
	}
	for _, f := range set.files {
		if f.alg.name == "aes-128-gcm" && !f.v[0].invalid {
			if res := katFile(&r, &f); res.failed == 0 || !strings.Contains(res.message, "forgery") {
				t.Errorf("a lax tag check passed: %+v", res)
			}
		}
	}
}

// The timed call allocates nothing: no garbage collection runs inside a sample.
func TestNoAllocationPerOperation(t *testing.T) {
	key, iv := make([]byte, 64), make([]byte, 64)
	for i := range goRows {
		r := &goRows[i]
		a := r.alg
		for _, decrypt := range []bool{false, true} {
			if decrypt && a.kind != kindAEAD && a.kind != kindCipher {
				continue
			}
			s := setup{key: key[:a.keyLen], iv: iv[:a.ivLen], tagLen: a.tagLen, decrypt: decrypt}
			m := msg{in: alignedBuf(1024, 0, a.tagLen), out: alignedBuf(1024, 0, a.tagLen), nonce: iv[:a.ivLen],
				aad: make([]byte, a.aadLen()), tag: make([]byte, a.tagLen)}
			if a.kind == kindAEAD && decrypt {
				enc, _ := r.init(&setup{key: key[:a.keyLen], tagLen: a.tagLen})
				enc.run(&m)
				copy(m.in, m.out)
			}
			ctx, st := r.init(&s)
			if st != statusOK {
				t.Fatalf("%s: init %v", a.name, st)
			}
			if n := testing.AllocsPerRun(50, func() { ctx.run(&m) }); n != 0 {
				t.Errorf("%s (decrypt %v): %v allocations per operation", a.name, decrypt, n)
			}
		}
	}
}

// acceptsAnything pretends to be a library that takes any tag and nonce: it decrypts
// whatever it is given (as OpenSSL took a one-byte prefix of the right tag).
type acceptsAnything struct{}

func (acceptsAnything) run(m *msg) status { copy(m.out, m.in); return statusOK }

// The rules (rules.go) take every row's own sizes, the ones the timed loops use, and refuse
// a prefix of the tag, a nonce a byte short or long, before a library that would take them
// sees them: kat refuses each must-fail case even through a library that accepts it.
func TestRowRulesBeforeTheLibrary(t *testing.T) {
	key, iv := make([]byte, 64), make([]byte, 64)
	for i := range goRows {
		a := &goRows[i].alg
		s := setup{key: key[:a.keyLen], iv: iv[:a.ivLen], tagLen: a.tagLen}
		m := msg{in: make([]byte, 64), nonce: iv[:a.ivLen], aad: make([]byte, a.aadLen()), tag: make([]byte, a.tagLen)}
		if a.kind == kindHash || a.kind == kindCipher {
			continue
		}
		if why := setupRule(a, &s); why != "" {
			t.Errorf("%s: its own sizes refused: %s", a.name, why)
		}
		if why := msgRule(a, &m); why != "" {
			t.Errorf("%s: its own message refused: %s", a.name, why)
		}
	}
	set := repoVectors(t)
	var buf bytes.Buffer
	out.Reset(&buf)
	defer out.Reset(os.Stdout)
	tried := 0
	for _, f := range set.files {
		r := *findRow(goRows, f.alg.name)
		if !f.v[0].invalid || r.alg.kind != kindAEAD {
			continue
		}
		r.init = func(s *setup) (runner, status) { return acceptsAnything{}, statusOK }
		for _, v := range f.v {
			sized := strings.Contains(v.name, "tag cut to") || strings.Contains(v.name, "nonce one byte")
			if !sized {
				continue
			}
			tried++
			one := f
			one.v = []vector{v}
			if res := katFile(&r, &one); res.passed != 1 || res.failed != 0 {
				t.Errorf("%s: %s reached the library: %+v", f.alg.name, v.name, res)
			}
		}
	}
	if tried == 0 {
		t.Error("no must-fail case of another tag or nonce length in vectors/invalid/")
	}
}

// kat that checked nothing fails: an empty directory, or files for rows this core lacks.
func TestKatOfNothingFails(t *testing.T) {
	var buf bytes.Buffer
	out.Reset(&buf)
	defer out.Reset(os.Stdout)
	stderr := os.Stderr
	os.Stderr, _ = os.Open(os.DevNull)
	defer func() { os.Stderr = stderr }()
	empty := t.TempDir()
	if rc := cmdKat(&args{cmd: "kat", vectors: empty}, goRows); rc != 1 {
		t.Errorf("kat over an empty directory exited %d", rc)
	}
	other := t.TempDir()
	doc := `{"format": "cipherbench-vectors/1", "algo": "aes-128-kw", "source": "t", "vectors": [` +
		`{"name": "x", "key": "000102030405060708090a0b0c0d0e0f", "pt": "00112233445566778899aabbccddeeff", ` +
		`"ct": "1fa68b0a8112b447aef34bd8fb5a7b829d3e862371d2cfe5"}]}`
	if err := os.WriteFile(filepath.Join(other, "aes-128-kw.json"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	if rc := cmdKat(&args{cmd: "kat", vectors: other}, goRows); rc != 1 {
		t.Errorf("kat over a row this core lacks exited %d", rc)
	}
	if rc := cmdKat(&args{cmd: "kat", vectors: filepath.Join("..", "vectors", "sha256.json")}, goRows); rc != 0 {
		t.Errorf("kat of sha256 exited %d", rc)
	}
}
