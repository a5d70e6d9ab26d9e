# SPDX-License-Identifier: GPL-3.0-or-later
"""Caddy (Go's crypto/tls): the ``tls`` directive's ``protocols`` and ``ciphers`` in a site
block; every line checked with ``caddy adapt --validate`` when Caddy is installed."""
from __future__ import annotations

from cipherbench.advise.configs.base import ConfigLine, Context, comment
from cipherbench.advise.configs.gotls import tls12_names, tls13_note


def lines(ctx: Context) -> list[ConfigLine]:
    """The ``tls { }`` block of a site."""
    ok, missing = ctx.validator.caddy_filter(tls12_names(ctx))
    protocols = "tls1.2 tls1.3" if ok else "tls1.3"
    check = ("caddy", (protocols, " ".join(ok)))
    out = [comment("Caddyfile, in the site block (ciphers: TLS 1.2 suites, in this order)"),
           ConfigLine("tls {", check),
           ConfigLine(f"\tprotocols {protocols}", check)]
    if ok:
        out.append(ConfigLine("\tciphers " + " ".join(ok), check))
    out.append(ConfigLine("}", check))
    if not ok:
        out.append(comment("no TLS 1.2 suite allowed: this side speaks TLS 1.3 only"))
    out.append(tls13_note(ctx))
    out += [comment(f"{n}: left out, the installed Caddy does not accept it") for n in missing]
    return out
