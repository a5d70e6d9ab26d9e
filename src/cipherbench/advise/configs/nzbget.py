# SPDX-License-Identifier: GPL-3.0-or-later
"""NZBGet: ``ServerX.Cipher`` for both TLS builds at once (``--lib`` narrows it to one).

NZBGet passes the option to the TLS library it was built with: with OpenSSL it is a cipher
list (``SSL_CTX_set_cipher_list``), which governs TLS 1.2 only (a TLS 1.3 connection uses
OpenSSL's own TLS 1.3 suites, which the line does not change); with GnuTLS it is a priority
string, which selects the TLS 1.3 suites by the same ciphers. Each line is checked by its own
tool (``openssl ciphers``, ``gnutls-cli --priority ... -l``).
"""
from __future__ import annotations

from cipherbench.advise.configs.base import ConfigLine, Context, comment
from cipherbench.advise.configs.tlsnames import (gnutls_expected, gnutls_priority,
                                                 openssl_parts)


def lines(ctx: Context) -> list[ConfigLine]:
    """``Server1.Cipher=...`` per build (the same value for every ServerX)."""
    out: list[ConfigLine] = []
    if ctx.lib in (None, "openssl"):
        ok12, _ok13, notes = openssl_parts(ctx)
        out.append(comment("nzbget.conf, NZBGet built with OpenSSL (repeat for each ServerX)"))
        if ok12:
            out.append(ConfigLine(f"Server1.Cipher={':'.join(ok12)}",
                                  ("openssl-ciphers", ":".join(ok12))))
            out.append(comment("this list governs TLS 1.2; with TLS 1.3 OpenSSL uses its own "
                               "TLS 1.3 suites (all AEAD), which this line does not change"))
        else:
            out.append(comment("no TLS 1.2 suite allowed: leave Server1.Cipher empty"))
        out += notes
    if ctx.lib in (None, "gnutls"):
        prio = gnutls_priority(ctx)
        out.append(comment("nzbget.conf, NZBGet built with GnuTLS (repeat for each ServerX; "
                           "covers TLS 1.3 too)"))
        out.append(ConfigLine(f"Server1.Cipher={prio}",
                              ("gnutls-priority", (prio, gnutls_expected(ctx)))))
    return out
