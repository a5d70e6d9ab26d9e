# SPDX-License-Identifier: GPL-3.0-or-later
"""What each library offers against what cipherbench measures (``cipherbench list --missing``).

The core's ``list --offered`` walks each library's own enumeration (OpenSSL's providers,
libgcrypt's algorithm ids and modes, Nettle's lists, GnuTLS's lists, LibTomCrypt's descriptor
tables; for libsodium, which has none, a table of its documented primitives) and names, for every algorithm, the row that
measures it or none, and for what no row measures on purpose the reason (the core's
``unmeasured.c``). Libraries without an enumeration are reported as such, never as complete.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

from cipherbench.cores.core_client import Core


WIDTH = 96   # a reason's lines fit an 80-100 column terminal

@dataclass(frozen=True)
class Offered:
    """One algorithm a library lists: its kind, the library's own name, the canonical
    name of the row measuring it ("" when none does) and, when none does on purpose, why."""

    kind: str
    name: str
    algo: str
    why: str = ""


@dataclass
class LibraryOffer:
    """A library's enumeration; ``enumerates`` is False when the library cannot list what it
    offers (then ``offered`` is empty and nothing can be said to be missing)."""

    lib: str
    version: str
    enumerates: bool = False
    offered: list[Offered] = field(default_factory=list)

    @property
    def missing(self) -> list[Offered]:
        """What the library offers and no row measures, in the library's order."""
        return [o for o in self.offered if not o.algo]

    @property
    def gaps(self) -> list[Offered]:
        """What is missing with no reason: the gaps still to close."""
        return [o for o in self.missing if not o.why]


def gather(core: Core, lib: str | None = None) -> list[LibraryOffer]:
    """Runs ``cipherbench-core list --offered`` and groups its records by library."""
    args = ["list", "--offered"] + (["--lib", lib] if lib else []) + core.common_args
    libs: dict[str, LibraryOffer] = {}
    for rec in core.run_lines(args):
        if rec["type"] == "library":
            libs[rec["lib"]] = LibraryOffer(rec["lib"], rec.get("version") or "")
        elif rec["type"] == "offered":
            entry = libs.setdefault(rec["lib"], LibraryOffer(rec["lib"], ""))
            entry.enumerates = True
            entry.offered.append(Offered(rec["kind"], rec["name"], rec["algo"] or "",
                                         rec.get("why") or ""))
    return list(libs.values())


def format_missing(offers: list[LibraryOffer]) -> list[str]:
    """Plain lines: per library, how many of its offered algorithms are not measured, then
    the gaps' names by kind and, one line per reason, what is left out on purpose and why;
    libraries whose backend does not enumerate them say so."""
    lines: list[str] = []
    for o in offers:
        head = f"{o.lib} {o.version}".strip()
        if not o.enumerates:
            lines += _wrap(f"{head}: what it offers is not listed (its backend does not enumerate "
                           "the library's algorithms)", "")
            continue
        on_purpose = [m for m in o.missing if m.why]
        count = f"{len(o.missing)} of {len(o.offered)} offered algorithms not measured"
        if on_purpose:
            count += f" ({len(on_purpose)} on purpose, why below)"
        lines += _wrap(f"{head}: {count}", "")
        for kind in ("aead", "cipher", "keywrap", "hash", "mac"):
            names = [m.name for m in o.gaps if m.kind == kind]
            if names:
                lines += _wrap(f"{kind}: " + ", ".join(names))
        for why, names in _by_reason(on_purpose).items():
            lines += _wrap(f"not measured: {', '.join(names)}: {why}")
    return lines


def _by_reason(entries: list[Offered]) -> dict[str, list[str]]:
    """The names left out for each reason, reasons in the order first given (a family such as
    MULTI2's five modes shares one line)."""
    out: dict[str, list[str]] = {}
    for m in entries:
        out.setdefault(m.why, []).append(m.name)
    return out


def _wrap(text: str, indent: str = "  ") -> list[str]:
    """One entry in lines of at most ``WIDTH`` columns, indented under its library; names
    such as GOST28147_MESH/CBC or all-zero are never broken."""
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent="    ",
                         break_on_hyphens=False, break_long_words=False)
