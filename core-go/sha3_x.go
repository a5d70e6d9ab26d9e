// SPDX-License-Identifier: GPL-3.0-or-later
//go:build !go1.24

// sha3_x.go - SHA-3 and SHAKE from golang.org/x/crypto/sha3 on a Go older than 1.24, which
// has no crypto/sha3 (Debian 12's Go from bookworm-backports is 1.23).
package main

import "golang.org/x/crypto/sha3"

func sha3Sum256(p []byte) [32]byte { return sha3.Sum256(p) }
func sha3Sum512(p []byte) [64]byte { return sha3.Sum512(p) }
func newShake128() shakeHash       { return sha3.NewShake128() }
