# SPDX-License-Identifier: GPL-3.0-or-later
"""The crypto inside gpg, measured alone by the core: each cipher in CFB mode (what OpenPGP's
encrypted-data packets use, RFC 4880 section 13.9) and SHA-1 (the modification detection code
over the plaintext), in libgcrypt, the library gpg itself uses. The difference between these
and the real gpg command is gpg's own cost: packets, buffering, pipes."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from cipherbench.analysis import stats
from cipherbench.cores.core_client import Core
from cipherbench.cores.combined import Cores
from cipherbench.cores.records import CoreError, Point
from cipherbench.errors import UserError
from cipherbench.scenarios.gpg.programs import GPG_TO_CFB
from cipherbench.units import rate

#: gpg's own library; the message size the core measures the cipher at.
LIB = "libgcrypt"
SIZE = 65536
MDC_HASH = "sha1"


@dataclass
class Alone:
    """Throughput of one core measurement (bytes/s) with its summary, or why there is none."""

    algo: str
    op: str
    summary: stats.Summary | None = None
    iters: int = 0
    error: str | None = None

    @property
    def bytes_per_s(self) -> float | None:
        """Bytes per second at the median time per operation."""
        return rate(SIZE, self.summary.median) if self.summary else None


def _bench(core: Core | Cores, algos: list[str], op: str) -> dict[str, Alone]:
    out = {a: Alone(a, op, error="not measured") for a in algos}
    if not algos:
        return out
    with core.bench(LIB, algos, op, [SIZE]) as stream:
        for rec in stream:
            if isinstance(rec, Point) and rec.algo in out:
                out[rec.algo] = Alone(rec.algo, op, stats.summarize(rec.per_op_ns()), rec.iters)
            elif isinstance(rec, CoreError) and rec.algo in out:
                out[rec.algo] = Alone(rec.algo, op, error=rec.message or rec.reason)
    return out


def measure(core: Core | Cores, gpg_algos: Iterable[str]) -> tuple[dict[str, Alone], Alone | None]:
    """CFB encryption for each gpg algorithm the core's libgcrypt backend has, and SHA-1.

    Returns ({gpg algo: Alone}, the SHA-1 Alone or None). Algorithms the backend lacks come
    back with an ``error``; a core without libgcrypt gives errors throughout."""
    inv = core.list(LIB)
    wanted = {g: GPG_TO_CFB[g.upper()] for g in gpg_algos if g.upper() in GPG_TO_CFB}
    have = [c for c in dict.fromkeys(wanted.values()) if inv.supports(LIB, c, "encrypt")]
    try:
        found = _bench(core, have, "encrypt")
        sha = _bench(core, [MDC_HASH], "hash")[MDC_HASH] \
            if inv.supports(LIB, MDC_HASH, "hash") else None
    except UserError as e:
        found, sha = {}, Alone(MDC_HASH, "hash", error=str(e))
    result = {}
    for g, c in wanted.items():
        result[g] = found.get(c) or Alone(c, "encrypt",
                                          error=f"{LIB} backend has no {c} in this build")
    return result, sha
