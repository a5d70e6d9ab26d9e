// SPDX-License-Identifier: GPL-3.0-or-later
//go:build go1.25

package main

import "crypto/tls"

// negotiatedCurve: the group the handshake used, as crypto/tls says it (Go 1.25 on).
func negotiatedCurve(state tls.ConnectionState, _ tls.CurveID) tls.CurveID { return state.CurveID }
