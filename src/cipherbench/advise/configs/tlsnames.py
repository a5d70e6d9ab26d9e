# SPDX-License-Identifier: GPL-3.0-or-later
"""OpenSSL cipher lists and GnuTLS priority strings from ranked TLS suites (shared by the
tls, nginx, nzbget and stunnel families)."""
from __future__ import annotations

from cipherbench.advise.configs.base import ConfigLine, Context, comment


def suites(ctx: Context):
    """The allowed suites in rank order (``Suite`` records), without duplicates."""
    seen, out = set(), []
    for r in ctx.pick():
        s = r.cand.names["suite"]
        if s.iana not in seen:
            seen.add(s.iana)
            out.append(s)
    return out


def openssl_parts(ctx: Context) -> tuple[list[str], list[str], list[ConfigLine]]:
    """(TLS 1.2 cipher names, TLS 1.3 suite names, comments on what was left out), each
    name accepted by the installed openssl."""
    ss = suites(ctx)
    want12 = list(dict.fromkeys(s.openssl for s in ss if not s.tls13))
    want13 = [s.iana for s in ss if s.tls13]
    ok12, missing12 = ctx.validator.openssl_filter(want12, tls13=False)
    ok13, missing13 = ctx.validator.openssl_filter(want13, tls13=True)
    notes = [comment(f"{n}: left out, the installed OpenSSL does not offer it")
             for n in missing12 + missing13]
    return ok12, ok13, notes


def openssl_lines(ctx: Context, fmt12: str, fmt13: str) -> list[ConfigLine]:
    """Lines for the TLS 1.2 list and the TLS 1.3 suites, in the caller's syntax
    (``fmt12.format(list)``), each checked with ``openssl ciphers``."""
    ok12, ok13, notes = openssl_parts(ctx)
    out: list[ConfigLine] = []
    if ok12:
        out.append(ConfigLine(fmt12.format(":".join(ok12)), ("openssl-ciphers", ":".join(ok12))))
    else:
        out.append(comment("no TLS 1.2 suite allowed: this side speaks TLS 1.3 only"))
    if ok13:
        out.append(ConfigLine(fmt13.format(":".join(ok13)), ("openssl-suites", ":".join(ok13))))
    else:
        out.append(comment("no TLS 1.3 suite allowed: use --policy legacy to see why"))
    return out + notes


def gnutls_priority(ctx: Context, server: bool = False) -> str:
    """A GnuTLS priority string: the allowed ciphers in rank order, their MACs, TLS 1.3 and
    1.2, ECDHE key exchange under modern (RSA key exchange too under compat and legacy)."""
    ss = suites(ctx)
    ciphers = list(dict.fromkeys(s.gnutls_cipher for s in ss))
    macs = list(dict.fromkeys(s.gnutls_mac for s in ss))
    parts = ["NORMAL", "-VERS-ALL", "+VERS-TLS1.3", "+VERS-TLS1.2", "-CIPHER-ALL"]
    parts += [f"+{c}" for c in ciphers]
    parts += ["-MAC-ALL"] + [f"+{m}" for m in macs]
    if any(s.kx == "RSA" for s in ss):
        parts.append("+RSA")
    elif ctx.policy == "modern":
        parts += ["-KX-ALL", "+ECDHE-ECDSA", "+ECDHE-RSA"]
    if server:
        parts.append("%SERVER_PRECEDENCE")
    return ":".join(parts)


def gnutls_expected(ctx: Context) -> list[str]:
    """GnuTLS names of the suites the priority string should enable."""
    return [s.gnutls for s in suites(ctx)]
