# SPDX-License-Identifier: GPL-3.0-or-later
"""Config lines per output family: one module each, ``lines(ctx) -> list[ConfigLine]``.

Each module composes exact lines from the allowed candidates in rank order, asks the
validator which names the installed tool accepts (leaving out, with a comment, what it does
not offer), and attaches to every line the check that ``validate`` runs before printing.
"""
from __future__ import annotations

import importlib

from cipherbench.advise.configs.base import ConfigLine, Context

FAMILIES = ("ssh", "tls", "nginx", "nzbget", "stunnel", "caddy", "traefik", "gpg", "age",
            "luks")


def lines_for(family: str, ctx: Context) -> list[ConfigLine]:
    """The lines of one family."""
    if family not in FAMILIES:
        raise ValueError(f"unknown config family {family!r}")
    return importlib.import_module(f"cipherbench.advise.configs.{family}").lines(ctx)


__all__ = ["ConfigLine", "Context", "FAMILIES", "lines_for"]
