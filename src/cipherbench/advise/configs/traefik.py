# SPDX-License-Identifier: GPL-3.0-or-later
"""Traefik (Go's crypto/tls): the default TLS options of the dynamic configuration (TOML)."""
from __future__ import annotations

from cipherbench.advise.configs.base import ConfigLine, Context, comment
from cipherbench.advise.configs.gotls import tls12_names, tls13_note


def lines(ctx: Context) -> list[ConfigLine]:
    """``[tls.options.default]`` with ``minVersion`` and ``cipherSuites``."""
    names = tls12_names(ctx)
    out = [comment("Traefik dynamic configuration (TOML; the same keys in YAML): the TLS "
                   "options every router uses unless it names others"),
           ConfigLine("[tls.options.default]", ("traefik", "Traefik")),
           ConfigLine('  minVersion = "VersionTLS12"' if names else
                      '  minVersion = "VersionTLS13"', ("traefik", "Traefik"))]
    if names:
        out.append(ConfigLine("  cipherSuites = [" + ", ".join(f'"{n}"' for n in names) + "]",
                              ("traefik", "Traefik")))
    else:
        out.append(comment("no TLS 1.2 suite allowed: this side speaks TLS 1.3 only"))
    out.append(tls13_note(ctx))
    return out
