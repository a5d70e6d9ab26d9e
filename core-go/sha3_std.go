// SPDX-License-Identifier: GPL-3.0-or-later
//go:build go1.24

// sha3_std.go - SHA-3 and SHAKE from the standard library's crypto/sha3 (Go 1.24 on), the
// package a Go program of that release uses.
package main

import "crypto/sha3"

func sha3Sum256(p []byte) [32]byte { return sha3.Sum256(p) }
func sha3Sum512(p []byte) [64]byte { return sha3.Sum512(p) }
func newShake128() shakeHash       { return sha3.NewSHAKE128() }
