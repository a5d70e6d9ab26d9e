// SPDX-License-Identifier: GPL-3.0-or-later
// lib_go.go - the library "go": Go's standard library and golang.org/x/crypto, each
// through the API a Go program uses (crypto/cipher's AEAD, BlockMode and Stream; the
// one-shot digest functions; crypto/hmac).
package main

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"hash"

	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/blake2s"
	"golang.org/x/crypto/chacha20"
	"golang.org/x/crypto/chacha20poly1305"
	"golang.org/x/crypto/nacl/secretbox"
)

const libName = "go"

// ---- AEAD ----

type aeadRunner struct {
	a       cipher.AEAD
	decrypt bool
}

func (r *aeadRunner) run(m *msg) status {
	n := len(m.in)
	if len(m.nonce) != r.a.NonceSize() || len(m.tag) != r.a.Overhead() {
		return statusParam
	}
	if r.decrypt {
		// Open takes the tag after the ciphertext: the harness leaves room for it.
		ct := m.in[:n+len(m.tag)]
		copy(ct[n:], m.tag)
		if _, err := r.a.Open(m.out[:0], m.nonce, ct, m.aad); err != nil {
			return statusAuth
		}
		return statusOK
	}
	// Seal appends the tag after the ciphertext (out has the room).
	res := r.a.Seal(m.out[:0], m.nonce, m.in, m.aad)
	copy(m.tag, res[n:])
	return statusOK
}

func aeadRow(alg algorithm, mk func(key []byte) (cipher.AEAD, error)) row {
	return row{alg, func(s *setup) (runner, status) {
		if len(s.key) != alg.keyLen || s.tagLen != alg.tagLen {
			return nil, statusParam
		}
		a, err := mk(s.key)
		if err != nil {
			return nil, statusErr
		}
		return &aeadRunner{a, s.decrypt}, statusOK
	}}
}

func newAESGCM(key []byte) (cipher.AEAD, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(b)
}

// ---- NaCl's secretbox (XSalsa20 and Poly1305, no associated data) ----
// secretbox.Seal writes the tag before the ciphertext and has no detached form, while the
// harness keeps ciphertext and tag apart: the box is made in the runner's buffer and the
// ciphertext copied out (and for Open the box assembled), a copy of the message a caller
// of Seal and Open would not make, which a peer comparison must allow for.

type secretboxRunner struct {
	key     [32]byte
	nonce   [24]byte
	decrypt bool
	box     []byte // tag || ciphertext
}

func (r *secretboxRunner) run(m *msg) status {
	if len(m.nonce) != len(r.nonce) || len(m.tag) != secretbox.Overhead || len(m.aad) != 0 {
		return statusParam
	}
	copy(r.nonce[:], m.nonce)
	if r.decrypt {
		r.box = append(append(r.box[:0], m.tag...), m.in...)
		if _, ok := secretbox.Open(m.out[:0], r.box, &r.nonce, &r.key); !ok {
			return statusAuth
		}
		return statusOK
	}
	r.box = secretbox.Seal(r.box[:0], m.in, &r.nonce, &r.key)
	copy(m.tag, r.box[:secretbox.Overhead])
	copy(m.out, r.box[secretbox.Overhead:])
	return statusOK
}

func secretboxRow(alg algorithm) row {
	return row{alg, func(s *setup) (runner, status) {
		if len(s.key) != alg.keyLen || s.tagLen != alg.tagLen {
			return nil, statusParam
		}
		r := &secretboxRunner{decrypt: s.decrypt}
		copy(r.key[:], s.key)
		return r, statusOK
	}}
}

// ---- ciphers ----

type blockModeRunner struct{ m cipher.BlockMode }

func (r *blockModeRunner) run(m *msg) status {
	r.m.CryptBlocks(m.out, m.in)
	return statusOK
}

type streamRunner struct{ s cipher.Stream }

func (r *streamRunner) run(m *msg) status {
	r.s.XORKeyStream(m.out, m.in)
	return statusOK
}

// aesIVRow: an AES mode keyed with a key of alg's length and a one-block IV; mk makes its runner.
func aesIVRow(alg algorithm, mk func(b cipher.Block, s *setup) runner) row {
	return row{alg, func(s *setup) (runner, status) {
		if len(s.key) != alg.keyLen || len(s.iv) != aes.BlockSize {
			return nil, statusParam
		}
		b, err := aes.NewCipher(s.key)
		if err != nil {
			return nil, statusErr
		}
		return mk(b, s), statusOK
	}}
}

func aesCBCRow(alg algorithm) row {
	return aesIVRow(alg, func(b cipher.Block, s *setup) runner {
		if s.decrypt {
			return &blockModeRunner{cipher.NewCBCDecrypter(b, s.iv)}
		}
		return &blockModeRunner{cipher.NewCBCEncrypter(b, s.iv)}
	})
}

func aesCTRRow(alg algorithm) row {
	return aesIVRow(alg, func(b cipher.Block, s *setup) runner {
		return &streamRunner{cipher.NewCTR(b, s.iv)}
	})
}

func chacha20Row(alg algorithm) row {
	return row{alg, func(s *setup) (runner, status) {
		if len(s.key) != chacha20.KeySize || len(s.iv) != chacha20.NonceSize {
			return nil, statusParam
		}
		c, err := chacha20.NewUnauthenticatedCipher(s.key, s.iv)
		if err != nil {
			return nil, statusErr
		}
		return &streamRunner{c}, statusOK
	}}
}

// ---- hashes: the one-shot functions, the fastest call each package documents ----

type sumRunner struct {
	sum     func(dst, data []byte) []byte
	scratch [64]byte
}

func (r *sumRunner) run(m *msg) status {
	d := r.sum(r.scratch[:0], m.in)
	if len(m.tag) > len(d) {
		return statusParam
	}
	copy(m.tag, d)
	return statusOK
}

func sumRow(alg algorithm, sum func(dst, data []byte) []byte) row {
	return row{alg, func(s *setup) (runner, status) {
		if s.tagLen > alg.tagLen {
			return nil, statusParam
		}
		return &sumRunner{sum: sum}, statusOK
	}}
}

// shakeHash: what a SHAKE hasher of crypto/sha3 or of golang.org/x/crypto/sha3 has
// (sha3_std.go or sha3_x.go, by the Go release).
type shakeHash interface {
	Reset()
	Write(p []byte) (int, error)
	Read(p []byte) (int, error)
}

// SHAKE has no one-shot call that writes into a given buffer: a reused hasher.
type shakeRunner struct{ h shakeHash }

func (r *shakeRunner) run(m *msg) status {
	r.h.Reset()
	r.h.Write(m.in)
	r.h.Read(m.tag)
	return statusOK
}

// ---- MACs ----

type hashRunner struct {
	h       hash.Hash
	scratch [64]byte
}

func (r *hashRunner) run(m *msg) status {
	r.h.Reset()
	r.h.Write(m.in)
	d := r.h.Sum(r.scratch[:0])
	if len(m.tag) > len(d) {
		return statusParam
	}
	copy(m.tag, d)
	return statusOK
}

func hmacRow(alg algorithm, h func() hash.Hash) row {
	return row{alg, func(s *setup) (runner, status) {
		if s.tagLen > alg.tagLen {
			return nil, statusParam
		}
		return &hashRunner{h: hmac.New(h, s.key)}, statusOK
	}}
}

// goRows: every algorithm of the library, in the order list prints them.
var goRows = []row{
	aeadRow(algorithm{"aes-128-gcm", kindAEAD, 16, 12, 16, 1, true}, newAESGCM),
	aeadRow(algorithm{"aes-256-gcm", kindAEAD, 32, 12, 16, 1, true}, newAESGCM),
	aeadRow(algorithm{"chacha20-poly1305", kindAEAD, 32, 12, 16, 1, true}, chacha20poly1305.New),
	aeadRow(algorithm{"xchacha20-poly1305", kindAEAD, 32, 24, 16, 1, true}, chacha20poly1305.NewX),
	secretboxRow(algorithm{"xsalsa20-poly1305", kindAEAD, 32, 24, 16, 1, true}),
	aesCBCRow(algorithm{"aes-128-cbc", kindCipher, 16, 16, 0, 16, false}),
	aesCBCRow(algorithm{"aes-192-cbc", kindCipher, 24, 16, 0, 16, false}),
	aesCBCRow(algorithm{"aes-256-cbc", kindCipher, 32, 16, 0, 16, false}),
	aesCTRRow(algorithm{"aes-128-ctr", kindCipher, 16, 16, 0, 1, false}),
	aesCTRRow(algorithm{"aes-192-ctr", kindCipher, 24, 16, 0, 1, false}),
	aesCTRRow(algorithm{"aes-256-ctr", kindCipher, 32, 16, 0, 1, false}),
	chacha20Row(algorithm{"chacha20", kindCipher, 32, 12, 0, 1, false}),
	sumRow(algorithm{"md5", kindHash, 0, 0, 16, 1, false}, func(d, p []byte) []byte { s := md5.Sum(p); return append(d, s[:]...) }),
	sumRow(algorithm{"sha1", kindHash, 0, 0, 20, 1, false}, func(d, p []byte) []byte { s := sha1.Sum(p); return append(d, s[:]...) }),
	sumRow(algorithm{"sha224", kindHash, 0, 0, 28, 1, false}, func(d, p []byte) []byte { s := sha256.Sum224(p); return append(d, s[:]...) }),
	sumRow(algorithm{"sha256", kindHash, 0, 0, 32, 1, false}, func(d, p []byte) []byte { s := sha256.Sum256(p); return append(d, s[:]...) }),
	sumRow(algorithm{"sha384", kindHash, 0, 0, 48, 1, false}, func(d, p []byte) []byte { s := sha512.Sum384(p); return append(d, s[:]...) }),
	sumRow(algorithm{"sha512", kindHash, 0, 0, 64, 1, false}, func(d, p []byte) []byte { s := sha512.Sum512(p); return append(d, s[:]...) }),
	sumRow(algorithm{"sha512-256", kindHash, 0, 0, 32, 1, false}, func(d, p []byte) []byte { s := sha512.Sum512_256(p); return append(d, s[:]...) }),
	sumRow(algorithm{"sha3-256", kindHash, 0, 0, 32, 1, false}, func(d, p []byte) []byte { s := sha3Sum256(p); return append(d, s[:]...) }),
	sumRow(algorithm{"sha3-512", kindHash, 0, 0, 64, 1, false}, func(d, p []byte) []byte { s := sha3Sum512(p); return append(d, s[:]...) }),
	{algorithm{"shake128", kindHash, 0, 0, 32, 1, false}, func(s *setup) (runner, status) {
		return &shakeRunner{newShake128()}, statusOK
	}},
	sumRow(algorithm{"blake2b-512", kindHash, 0, 0, 64, 1, false}, func(d, p []byte) []byte { s := blake2b.Sum512(p); return append(d, s[:]...) }),
	sumRow(algorithm{"blake2s-256", kindHash, 0, 0, 32, 1, false}, func(d, p []byte) []byte { s := blake2s.Sum256(p); return append(d, s[:]...) }),
	hmacRow(algorithm{"hmac-md5", kindMAC, 16, 0, 16, 1, false}, md5.New),
	hmacRow(algorithm{"hmac-sha1", kindMAC, 20, 0, 20, 1, false}, sha1.New),
	hmacRow(algorithm{"hmac-sha256", kindMAC, 32, 0, 32, 1, false}, sha256.New),
	hmacRow(algorithm{"hmac-sha512", kindMAC, 64, 0, 64, 1, false}, sha512.New),
}
