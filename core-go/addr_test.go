// SPDX-License-Identifier: GPL-3.0-or-later
package main

import "unsafe"

func addr(b []byte) uint64 { return uint64(uintptr(unsafe.Pointer(&b[0]))) }
