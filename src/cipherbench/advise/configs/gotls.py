# SPDX-License-Identifier: GPL-3.0-or-later
"""What the Go programs' families share (Caddy, Traefik): Go's crypto/tls takes IANA suite
names for TLS 1.2 and has no setting for the TLS 1.3 suites."""
from __future__ import annotations

from cipherbench.advise.configs.base import ConfigLine, Context, comment
from cipherbench.advise.configs.tlsnames import suites


def tls12_names(ctx: Context) -> list[str]:
    """The allowed TLS 1.2 suites Go implements, in rank order (IANA names, as Go spells
    them)."""
    return [s.iana for s in suites(ctx) if not s.tls13]


def tls13_note(ctx: Context) -> ConfigLine:
    """Why no TLS 1.3 line, and what Go picks instead."""
    first = next((s.iana for s in suites(ctx) if s.tls13), None)
    best = f"; the fastest allowed here is {first}" if first else ""
    return comment("TLS 1.3: Go's crypto/tls has no suite setting: it prefers AES-GCM when "
                   "both ends have AES instructions, else ChaCha20-Poly1305" + best)
