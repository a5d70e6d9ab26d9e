"""What each library offers against what cipherbench measures (``cipherbench list --missing``).

The core's ``list --offered`` walks each library's own enumeration (OpenSSL's providers,
libgcrypt's algorithm ids and modes, Nettle's lists, GnuTLS's lists, LibTomCrypt's descriptor
tables; for libsodium, which has none, a table of its documented primitives) and names, for every algorithm, the row that
measures it or none. Libraries without an enumeration are reported as such, never as complete.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from cipherbench.core_client import Core


@dataclass(frozen=True)
class Offered:
    """One algorithm a library lists: its kind, the library's own name, and the canonical
    name of the row measuring it ("" when none does)."""

    kind: str
    name: str
    algo: str


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
            entry.offered.append(Offered(rec["kind"], rec["name"], rec["algo"] or ""))
    return list(libs.values())


def format_missing(offers: list[LibraryOffer]) -> list[str]:
    """Plain lines: per library, how many of its offered algorithms are not measured, then
    their names by kind; libraries without an enumeration say so."""
    lines: list[str] = []
    for o in offers:
        head = f"{o.lib} {o.version}".strip()
        if not o.enumerates:
            lines.append(f"{head}: the library does not enumerate what it offers")
            continue
        lines.append(f"{head}: {len(o.missing)} of {len(o.offered)} offered algorithms "
                     "not measured")
        for kind in ("aead", "cipher", "keywrap", "hash", "mac"):
            names = [m.name for m in o.missing if m.kind == kind]
            if names:
                lines.append(f"  {kind}: " + ", ".join(names))
    return lines
