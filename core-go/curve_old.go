// SPDX-License-Identifier: GPL-3.0-or-later
//go:build !go1.25

package main

import (
	"crypto/tls"
	"strings"
)

// negotiatedCurve: the group the handshake used. Before Go 1.25 (Debian 12 and 13 ship 1.23
// and 1.24) crypto/tls does not say it; both sides offer exactly the one configured group,
// so a handshake that agreed on a key (TLS 1.3, or an ECDHE suite of TLS 1.2) used it.
func negotiatedCurve(state tls.ConnectionState, configured tls.CurveID) tls.CurveID {
	if state.Version == tls.VersionTLS13 || strings.Contains(tls.CipherSuiteName(state.CipherSuite), "_ECDHE_") {
		return configured
	}
	return 0
}
