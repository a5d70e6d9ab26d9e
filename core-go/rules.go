// SPDX-License-Identifier: GPL-3.0-or-later
// rules.go - the sizes each row takes, checked before a library sees them, as the C
// core's core/rules.c: an AEAD takes its row's key, nonce and tag lengths to the byte (a
// prefix of the right tag is a forgery, never a truncation the row measures), no
// associated data where the row takes none, whole blocks; a MAC its row's tag length and
// per-message nonce. kat keys every row through initRuled; the timed loops give each row
// its own sizes, which the rules take (core_test.go checks every row).
package main

// setupRule: "" when a takes what s keys it with, else why not.
func setupRule(a *algorithm, s *setup) string {
	switch a.kind {
	case kindAEAD:
		switch {
		case len(s.key) != a.keyLen:
			return "a key of another length than the row's"
		case s.iv != nil && len(s.iv) != a.ivLen:
			return "a nonce of another length than the row's"
		case s.tagLen != a.tagLen:
			return "a tag of another length than the row's"
		}
	case kindMAC:
		if s.tagLen != a.tagLen {
			return "a tag of another length than the row's"
		}
	}
	return ""
}

// msgRule: "" when a takes message m, else why not.
func msgRule(a *algorithm, m *msg) string {
	switch a.kind {
	case kindAEAD:
		switch {
		case len(m.nonce) != a.ivLen:
			return "a nonce of another length than the row's"
		case len(m.tag) != a.tagLen:
			return "a tag of another length than the row's"
		case len(m.aad) > 0 && a.aadLen() == 0:
			return "associated data, which the row takes none of"
		case a.blockLen > 1 && len(m.in)%a.blockLen != 0:
			return "a message of a length the row does not take"
		}
	case kindMAC:
		if a.perMessageNonce && len(m.nonce) != a.ivLen {
			return "a nonce of another length than the row's"
		}
	}
	return ""
}

// ruled is a row's keyed context behind the rules of its row.
type ruled struct {
	a     *algorithm
	inner runner
}

func (r ruled) run(m *msg) status {
	if msgRule(r.a, m) != "" {
		return statusParam
	}
	return r.inner.run(m)
}

// initRuled keys r as r.init does, refusing (statusParam) what the rules refuse before the
// library sees it, and its messages likewise.
func (r *row) initRuled(s *setup) (runner, status) {
	if setupRule(&r.alg, s) != "" {
		return nil, statusParam
	}
	inner, st := r.init(s)
	if st != statusOK {
		return inner, st
	}
	return ruled{&r.alg, inner}, statusOK
}
