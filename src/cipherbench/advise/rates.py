# SPDX-License-Identifier: GPL-3.0-or-later
"""A rate for every candidate from the evidence: the real path where measured, else the
primitive stand-in (cipher, and for cipher + MAC the two costs added per byte).

Without AES instructions (``--assume-no-aes`` when the store has no run with AES switched
off), AES-based rates are estimated from the known relation: software AES-GCM runs about 3x
slower than ChaCha20-Poly1305 on CPUs without AES instructions (Google Security Blog,
"Speeding up and strengthening HTTPS connections for Chrome on Android", April 2014: ChaCha20-
Poly1305 "three times faster"; libgcrypt's and OpenSSL's own benchmarks put the gap at 3-10x
depending on the CPU's vector units). So an AES candidate gets at most a third of the
ChaCha20-Poly1305 rate of the same source, or a third of its own rate where nothing to compare
with was measured. Every such figure is marked an estimate.
"""
from __future__ import annotations

from dataclasses import replace

from cipherbench.advise.candidates import Candidate
from cipherbench.advise.evidence import Evidence, Rate, rel_ci
from cipherbench.units import format_bytes

#: ChaCha20-Poly1305 / software AES, the conservative end of the 3-10x range.
NO_AES_FACTOR = 3.0
NO_AES_SOURCE = ("estimate: without AES instructions AES runs about 3x slower than "
                 "ChaCha20-Poly1305 (Google Security Blog, April 2014; 3-10x in libgcrypt's "
                 "and OpenSSL's benchmarks)")


def combined(cipher_bps: float, mac_bps: float | None) -> float:
    """Rate of cipher then MAC over the same bytes (their times per byte add up)."""
    if not mac_bps:
        return cipher_bps
    return 1.0 / (1.0 / cipher_bps + 1.0 / mac_bps)


def primitive_rate(ev: Evidence, cand: Candidate, libs: list[str], why: str) -> Rate | None:
    """The stand-in: the candidate's cipher (and MAC) as primitives, in the first of ``libs``
    that has them (else any library that does)."""
    pool = list(dict.fromkeys(libs + sorted({l for (l, _a, _o) in ev.primitive})))
    got = ev.primitive_bps(cand.cipher, pool)
    if got is None:
        return None
    bps, p = got
    runs = {p.run.id}
    rel = rel_ci(p.result)
    detail = f"{p.result.lib} {cand.cipher} at {format_bytes(p.result.size or 0)}"
    if cand.mac:
        m = ev.primitive_bps(cand.mac, [p.result.lib] + pool, "mac")
        if m is None:
            return None
        bps = combined(bps, m[0])
        runs.add(m[1].run.id)
        mrel = rel_ci(m[1].result)
        # the sum of two times is known to no better than the worse of the two
        rel = None if rel is None or mrel is None else max(rel, mrel)
        detail += f" + {m[1].result.lib} {cand.mac}"
    return Rate(bps, "primitive", tuple(sorted(runs)), f"{detail} ({why})", stand_in=True,
                rel_ci=rel)


def rates_for(family: str, ev: Evidence, cands: list[Candidate], lib: str
              ) -> dict[str, Rate | None]:
    """Candidate key -> rate from the highest evidence layer that measured it (``families``),
    None where nothing was measured."""
    from cipherbench.advise.families import FAMILIES, Ask, merged
    from cipherbench.advise.targets import TARGETS
    target = next(t for t in TARGETS.values() if t.family == family)
    got = merged(FAMILIES[family].layers(target, ev, cands, Ask(lib=lib)))
    return {c.key: got.get(c.key) for c in cands}


def uses_aes(algo: str) -> bool:
    """True for AES-based algorithms (fast only with AES instructions)."""
    return algo.startswith("aes-") or "-aes-" in algo


def without_aes(cands: list[Candidate], rates: dict[str, Rate | None]) -> dict[str, Rate | None]:
    """Rates as estimated for a CPU without AES instructions (see the module docstring)."""
    chacha: dict[str, float] = {}
    for c in cands:
        r = rates.get(c.key)
        if r is not None and c.cipher == "chacha20-poly1305":
            chacha[r.source] = max(chacha.get(r.source, 0.0), r.bps)
    out: dict[str, Rate | None] = {}
    for c in cands:
        r = rates.get(c.key)
        if r is None or not uses_aes(c.cipher):
            out[c.key] = r
            continue
        ref = chacha.get(r.source)
        est = min(r.bps / NO_AES_FACTOR, ref / NO_AES_FACTOR) if ref else r.bps / NO_AES_FACTOR
        out[c.key] = replace(r, bps=est, detail=f"{r.detail}; {NO_AES_SOURCE}",
                             estimated=True, rel_ci=None)
    return out
