// SPDX-License-Identifier: GPL-3.0-or-later
// algorithms.go - what an algorithm row is, and how a library's operation is called.
// Sizes are those of core/algorithms.c (and vectors/README.md for the rows only
// these cores have).
package main

type kind int

const (
	kindAEAD kind = iota
	kindCipher
	kindHash
	kindMAC
)

var kindNames = [...]string{"aead", "cipher", "hash", "mac"}

func (k kind) String() string { return kindNames[k] }

// ops the protocol allows for each kind.
func (k kind) ops() []string {
	switch k {
	case kindAEAD, kindCipher:
		return []string{"encrypt", "decrypt"}
	case kindHash:
		return []string{"hash"}
	}
	return []string{"mac"}
}

type algorithm struct {
	name                            string
	kind                            kind
	keyLen, ivLen, tagLen, blockLen int
	perMessageNonce                 bool // a fresh nonce for every message (AEADs)
}

// noAAD: the AEADs that take no associated data (NaCl's secretbox), as core/algorithms.c's
// cb_aad_len: their messages are timed and checked with none.
var noAAD = map[string]bool{"xsalsa20-poly1305": true}

// aadLen: the associated data a timed message of a carries (13 bytes for an AEAD, as in a
// TLS record; none for secretbox and every other kind).
func (a *algorithm) aadLen() int {
	if a.kind != kindAEAD || noAAD[a.name] {
		return 0
	}
	return tlsAADLen
}

// status of an init or a run, as the C core's cb_status.
type status int

const (
	statusOK    status = iota
	statusErr          // the library failed
	statusAuth         // the tag did not verify
	statusParam        // the library refuses these sizes
)

var statusNames = [...]string{"ok", "library error", "tag did not verify", "parameters refused"}

// setup keys a context: key, the IV of a cipher, the tag length, the direction.
type setup struct {
	key, iv []byte
	tagLen  int
	decrypt bool
}

// msg is one operation: in -> out (ciphers), the tag written (encrypt, hash, mac) or
// checked (decrypt). For an AEAD decryption, in has capacity for the tag after it.
type msg struct {
	in, out, nonce, aad, tag []byte
}

// runner is a keyed context; run performs one operation on it.
type runner interface {
	run(m *msg) status
}

// row is one algorithm of one library and how to key it.
type row struct {
	alg  algorithm
	init func(s *setup) (runner, status)
}
