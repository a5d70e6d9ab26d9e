// SPDX-License-Identifier: GPL-3.0-or-later
// kat.go - known answers, checked as the C core's kat.c checks them: the expected
// output, inputs left unchanged, a context giving the same answer twice, AEAD decryption
// refusing forgeries of each vector, the must-fail vectors of invalid/ refused, and a
// cipher continuing its stream or chain across two calls.
package main

import (
	"bytes"
	"fmt"
)

type verdict int

const (
	vPass verdict = iota
	vFail
	vSkip
)

// katCtx collects the first failure's message of a file.
type katCtx struct {
	r   *row
	msg string
}

func (c *katCtx) verdict(v verdict, vec, what string) verdict {
	if v != vPass && c.msg == "" {
		c.msg = vec + ": " + what
	}
	return v
}

// statusVerdict: a refusal of the parameters skips the vector; anything else fails it.
func (c *katCtx) statusVerdict(st status, vec, stage string) verdict {
	v := vFail
	if st == statusParam {
		v = vSkip
	}
	return c.verdict(v, vec, stage+" returned "+statusNames[st])
}

// withRoom returns a copy of b with cap spare bytes after it (an AEAD tag's room).
func withRoom(b []byte, spare int) []byte {
	c := make([]byte, len(b), len(b)+spare)
	copy(c, b)
	return c
}

func (c *katCtx) aeadVector(v *vector) verdict {
	n := len(v.pt.b)
	tl := len(v.tag.b)
	s := setup{key: v.key.b, iv: v.iv.b, tagLen: tl}
	enc, st := c.r.initRuled(&s)
	if st != statusOK {
		return c.statusVerdict(st, v.name, "encrypt init")
	}
	// Twice on one context: each call is a whole message with its own nonce.
	for round := 0; round < 2; round++ {
		in := withRoom(v.pt.b, tl)
		out := make([]byte, n, n+tl)
		tag := make([]byte, tl)
		m := msg{in: in, out: out, nonce: v.iv.b, aad: v.aad.b, tag: tag}
		if st := enc.run(&m); st != statusOK {
			return c.statusVerdict(st, v.name, "encrypt")
		}
		again := ""
		if round > 0 {
			again = " on a second message"
		}
		switch {
		case !bytes.Equal(out, v.ct.b):
			return c.verdict(vFail, v.name, "ciphertext differs"+again)
		case !bytes.Equal(tag, v.tag.b):
			return c.verdict(vFail, v.name, "tag differs"+again)
		case !bytes.Equal(in, v.pt.b):
			return c.verdict(vFail, v.name, "encrypt changed its input")
		}
	}
	s.decrypt = true
	dec, st := c.r.initRuled(&s)
	if st != statusOK {
		return c.statusVerdict(st, v.name, "decrypt init")
	}
	// Rounds 0 and 1 decrypt; the rest are forgeries that must be refused: a flipped bit
	// in the first, a middle and the last tag byte (a library comparing part of the tag
	// lets one through), then in the ciphertext and in the AAD.
	forged := []string{"the first tag byte", "a middle tag byte", "the last tag byte", "the ciphertext", "the AAD"}
	for round := 0; round < 7; round++ {
		f := round - 2
		if (f == 3 && n == 0) || (f == 4 && len(v.aad.b) == 0) || (f >= 0 && f <= 2 && tl == 0) {
			continue
		}
		in := withRoom(v.ct.b, tl)
		tag := append([]byte(nil), v.tag.b...)
		aad := append([]byte(nil), v.aad.b...)
		switch f {
		case 0:
			tag[0] ^= 0x01
		case 1:
			tag[tl/2] ^= 0x80
		case 2:
			tag[tl-1] ^= 0x01
		case 3:
			in[n-1] ^= 0x01
		case 4:
			aad[0] ^= 0x01
		}
		out := make([]byte, n, n+tl)
		m := msg{in: in, out: out, nonce: v.iv.b, aad: aad, tag: tag}
		st := dec.run(&m)
		if f >= 0 {
			if st != statusAuth {
				return c.verdict(vFail, v.name, "decrypt accepted a forgery (a bit flipped in "+forged[f]+")")
			}
		} else if st != statusOK {
			return c.statusVerdict(st, v.name, "decrypt")
		} else if !bytes.Equal(out, v.pt.b) {
			return c.verdict(vFail, v.name, "decrypted plaintext differs")
		}
	}
	return vPass
}

// refused: is st a refusal of an invalid vector (an authentication failure, or the sizes
// refused)? Anything else fails the vector, with what happened.
func (c *katCtx) refused(st status, vec, stage string) verdict {
	if st == statusAuth || st == statusParam {
		return vPass
	}
	what := "failed with a library error (not a refusal) on"
	if st == statusOK {
		what = "accepted"
	}
	return c.verdict(vFail, vec, stage+" "+what+" an invalid vector")
}

// aeadInvalid: a vector that must not decrypt (a forged or truncated tag, a wrong length).
func (c *katCtx) aeadInvalid(v *vector) verdict {
	n, tl := len(v.ct.b), len(v.tag.b)
	s := setup{key: v.key.b, iv: v.iv.b, tagLen: tl, decrypt: true}
	dec, st := c.r.initRuled(&s)
	if st != statusOK {
		return c.refused(st, v.name, "decrypt init")
	}
	m := msg{in: withRoom(v.ct.b, tl), out: make([]byte, n, n+tl), nonce: v.iv.b, aad: v.aad.b,
		tag: append([]byte(nil), v.tag.b...)}
	return c.refused(dec.run(&m), v.name, "decrypt")
}

// macInvalid: the MAC of msg must not be the vector's mac (a verifier comparing the whole
// tag refuses it), or the sizes are refused; a mac shorter than the tag never passes.
func (c *katCtx) macInvalid(v *vector) verdict {
	tlen := max(len(v.mac.b), c.r.alg.tagLen)
	s := setup{key: v.key.b, tagLen: tlen}
	if v.iv.present {
		s.iv = v.iv.b
	}
	r, st := c.r.initRuled(&s)
	if st != statusOK {
		return c.refused(st, v.name, "init")
	}
	tag := make([]byte, tlen)
	if st := r.run(&msg{in: append([]byte(nil), v.msg.b...), nonce: s.iv, tag: tag}); st != statusOK {
		return c.refused(st, v.name, "mac")
	}
	if len(v.mac.b) == tlen && bytes.Equal(tag, v.mac.b) {
		return c.verdict(vFail, v.name, "gave the mac of an invalid vector")
	}
	return vPass
}

// cipherPass runs from -> want on a fresh context, in one call or cut at split.
func (c *katCtx) cipherPass(v *vector, decrypt bool, split int) verdict {
	from, want, stage := v.pt.b, v.ct.b, "encrypt"
	if decrypt {
		from, want, stage = v.ct.b, v.pt.b, "decrypt"
	}
	n := len(from)
	in := append([]byte(nil), from...)
	out := make([]byte, n)
	s := setup{key: v.key.b, iv: v.iv.b, decrypt: decrypt}
	if !v.iv.present {
		s.iv = nil
	}
	r, st := c.r.initRuled(&s)
	if st != statusOK {
		return c.statusVerdict(st, v.name, stage+" init")
	}
	cuts := []int{n}
	if split > 0 {
		cuts = []int{split, n - split}
	}
	off := 0
	for _, l := range cuts {
		m := msg{in: in[off : off+l], out: out[off : off+l]}
		if st := r.run(&m); st != statusOK {
			return c.statusVerdict(st, v.name, stage)
		}
		off += l
	}
	if !bytes.Equal(out, want) {
		what := stage + " output differs"
		if split > 0 {
			what += " when the message is given in two calls"
		}
		return c.verdict(vFail, v.name, what)
	}
	if !bytes.Equal(in, from) {
		return c.verdict(vFail, v.name, "the input was changed")
	}
	return vPass
}

func (c *katCtx) cipherVector(v *vector) verdict {
	res := c.cipherPass(v, false, 0)
	if res == vPass {
		res = c.cipherPass(v, true, 0)
	}
	unit := 16
	if c.r.alg.blockLen > unit {
		unit = c.r.alg.blockLen
	}
	split := len(v.pt.b) / 2 / unit * unit
	if res == vPass && split > 0 && !c.r.alg.perMessageNonce {
		res = c.cipherPass(v, false, split)
	}
	return res
}

// digestVector: the digest of msg, twice on one context. A MAC vector may give a prefix.
func (c *katCtx) digestVector(v *vector, mac bool) verdict {
	want, stage := v.md.b, "hash"
	if mac {
		want, stage = v.mac.b, "mac"
	}
	tlen := len(want)
	if mac && c.r.alg.tagLen > tlen {
		tlen = c.r.alg.tagLen
	}
	in := append([]byte(nil), v.msg.b...)
	s := setup{key: v.key.b, tagLen: tlen}
	if v.iv.present {
		s.iv = v.iv.b
	}
	r, st := c.r.initRuled(&s)
	if st != statusOK {
		return c.statusVerdict(st, v.name, "init")
	}
	for round := 0; round < 2; round++ {
		tag := make([]byte, tlen)
		m := msg{in: in, nonce: s.iv, tag: tag}
		if st := r.run(&m); st != statusOK {
			return c.statusVerdict(st, v.name, stage)
		}
		if !bytes.Equal(tag[:len(want)], want) {
			what := "digest differs"
			if mac {
				what = "mac differs"
			}
			if round > 0 {
				what = "differs on a second call with the same context"
			}
			return c.verdict(vFail, v.name, what)
		}
		if !bytes.Equal(in, v.msg.b) {
			return c.verdict(vFail, v.name, "the input was changed")
		}
	}
	return vPass
}

type katResult struct {
	passed, failed, skipped int
	validPassed             int // of passed: vectors with an answer (not must-fail cases)
	message                 string
}

// katFile checks every vector of a file; a panic of the library is a failure of that vector.
func katFile(r *row, f *vecFile) katResult {
	var res katResult
	c := &katCtx{r: r}
	for i := range f.v {
		v := &f.v[i]
		var out verdict
		func() {
			defer func() {
				if p := recover(); p != nil {
					out = c.verdict(vFail, v.name, fmt.Sprintf("the library panicked: %v", p))
				}
			}()
			switch {
			case v.invalid && r.alg.kind == kindAEAD:
				out = c.aeadInvalid(v)
			case v.invalid:
				out = c.macInvalid(v)
			}
			if v.invalid {
				return
			}
			switch r.alg.kind {
			case kindAEAD:
				out = c.aeadVector(v)
			case kindCipher:
				out = c.cipherVector(v)
			case kindHash:
				out = c.digestVector(v, false)
			case kindMAC:
				out = c.digestVector(v, true)
			}
		}()
		switch out {
		case vPass:
			res.passed++
			if !v.invalid {
				res.validPassed++
			}
		case vSkip:
			res.skipped++
		default:
			res.failed++
		}
	}
	res.message = c.msg
	return res
}

// katAlgo checks every file of r's algorithm (its answers, then its must-fail cases) and
// emits a kat record per file. Returns 1 when it passed (at least one answer right, every
// must-fail case refused, nothing failed), 0 when it failed, -1 when there are no
// vectors; why says what went wrong.
func katAlgo(r *row, set *vecSet) (int, string) {
	files, passed, failed := 0, 0, 0
	why := ""
	for i := range set.files {
		f := &set.files[i]
		if f.alg.name != r.alg.name {
			continue
		}
		res := katFile(r, f)
		files++
		passed += res.validPassed
		failed += res.failed
		if res.failed > 0 && why == "" {
			why = f.path + ": " + res.message
		}
		emitKat(libName, r.alg.name, res.passed, res.failed, res.skipped, f.source, res.message)
	}
	switch {
	case files == 0:
		return -1, "no known-answer vectors for " + r.alg.name
	case failed > 0:
		return 0, why
	case passed == 0:
		return 0, fmt.Sprintf("%s refused the parameters of every %s vector with an answer", libName, r.alg.name)
	}
	return 1, ""
}
