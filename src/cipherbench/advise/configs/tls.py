# SPDX-License-Identifier: GPL-3.0-or-later
"""OpenSSL and GnuTLS applications: the cipher list, the TLS 1.3 suites, the priority string."""
from __future__ import annotations

from cipherbench.advise.configs.base import ConfigLine, Context, comment
from cipherbench.advise.configs.tlsnames import gnutls_expected, gnutls_priority, openssl_lines


def lines(ctx: Context) -> list[ConfigLine]:
    """Lines for ``tls-server`` / ``tls-client`` (both libraries unless ``--lib`` names one)."""
    server = ctx.target != "tls-client"
    out: list[ConfigLine] = []
    if ctx.lib in (None, "openssl"):
        out.append(comment("OpenSSL: SSL_CTX_set_cipher_list() / -cipher (TLS 1.2), "
                           "SSL_CTX_set_ciphersuites() / -ciphersuites (TLS 1.3)"
                           + (", with SSL_OP_CIPHER_SERVER_PREFERENCE" if server else "")))
        out += openssl_lines(ctx, "{}", "{}")
    if ctx.lib in (None, "gnutls"):
        out.append(comment("GnuTLS: gnutls_priority_init() / --priority"))
        prio = gnutls_priority(ctx, server=server)
        out.append(ConfigLine(prio, ("gnutls-priority", (prio, gnutls_expected(ctx)))))
    return out
