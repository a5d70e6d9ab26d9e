"""NZBGet: ``ServerX.Cipher`` in the syntax of the TLS library NZBGet was built with.

With OpenSSL the option is an OpenSSL cipher list, which governs TLS 1.2 only (a TLS 1.3
connection uses OpenSSL's own suite order); with GnuTLS it is a priority string, which covers
TLS 1.3 too.
"""
from __future__ import annotations

from cipherbench.advise.configs.base import ConfigLine, Context, comment
from cipherbench.advise.configs.tlsnames import (gnutls_expected, gnutls_priority,
                                                 openssl_parts)


def lines(ctx: Context) -> list[ConfigLine]:
    """``Server1.Cipher=...`` (the same value for every ServerX)."""
    if ctx.lib == "gnutls":
        prio = gnutls_priority(ctx)
        return [comment("nzbget.conf, NZBGet built with GnuTLS (repeat for each ServerX)"),
                ConfigLine(f"Server1.Cipher={prio}",
                           ("gnutls-priority", (prio, gnutls_expected(ctx))))]
    ok12, _ok13, notes = openssl_parts(ctx)
    out = [comment("nzbget.conf, NZBGet built with OpenSSL (repeat for each ServerX; "
                   "--lib gnutls for a GnuTLS build)")]
    if ok12:
        out.append(ConfigLine(f"Server1.Cipher={':'.join(ok12)}",
                              ("openssl-ciphers", ":".join(ok12))))
        out.append(comment("this list governs TLS 1.2; a server speaking TLS 1.3 picks from "
                           "OpenSSL's TLS 1.3 suites, all of them AEAD"))
    else:
        out.append(comment("no TLS 1.2 suite allowed: leave Server1.Cipher empty"))
    return out + notes
