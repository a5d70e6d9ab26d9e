# SPDX-License-Identifier: GPL-3.0-or-later
"""The cipher's own cost inside an ssh transfer, measured alone by the core in the same run:
each cipher (and MAC) of the run as a primitive at an SSH packet's size, in the library
OpenSSH uses (libcrypto: OpenSSL), or the first other library that has it (UMAC: Nettle).
``bottleneck.split`` sets it against the CPU time both ends spent per byte, so ssh's own
work is not counted as crypto.

Stored as rows of the ssh run: metric ``cipher_bytes_per_s`` (lib the library, algo the
catalog name, op ``encrypt`` or ``mac``, size ``SIZE``), the median of the core's samples
with its interval. ``rates(results)`` reads them back; ``combo_bps`` gives a combination's
rate (the cipher's and the MAC's times per byte added).
"""
from __future__ import annotations

from typing import Iterable, Mapping

from cipherbench.analysis import stats
from cipherbench.cores.records import CoreError, Point
from cipherbench.store import Result
from cipherbench.units import rate

METRIC = "cipher_bytes_per_s"
#: OpenSSH's packets carry at most 32 KiB; a 16 KiB message stands for them.
SIZE = 16384
#: Where a cipher or MAC is measured alone: OpenSSH's own library first.
LIBS = ("openssl", "nettle", "libgcrypt", "gnutls")


def wanted(pairs: Iterable[tuple[str | None, str | None]]) -> dict[str, str]:
    """Catalog algorithm -> op (``encrypt`` for a cipher or AEAD, ``mac`` for a MAC), from
    the (cipher_algo, mac_algo) of each combination (None: not in the catalog)."""
    out: dict[str, str] = {}
    for cipher, mac in pairs:
        if cipher:
            out.setdefault(cipher, "encrypt")
        if mac:
            out.setdefault(mac, "mac")
    return out


def measure(core, algos: Mapping[str, str]) -> tuple[list[Result], list[str]]:
    """One core batch per library and op for ``algos`` (algorithm -> op); the stored rows and
    the algorithms no library of the core has."""
    inv = core.list()
    plan: dict[tuple[str, str], list[str]] = {}
    missing = []
    for algo, op in algos.items():
        lib = next((l for l in LIBS if inv.supports(l, algo, op)), None)
        if lib is None:
            missing.append(algo)
        else:
            plan.setdefault((lib, op), []).append(algo)
    out = []
    for (lib, op), names in plan.items():
        with core.bench(lib, names, op, [SIZE]) as stream:
            for rec in stream:
                if isinstance(rec, Point) and rec.algo in names:
                    s = stats.summarize(rec.per_op_ns())
                    bps, lo, hi = (rate(SIZE, s.median), rate(SIZE, s.ci_high),
                                   rate(SIZE, s.ci_low))
                    out.append(Result("ssh", lib, rec.algo, op, SIZE, METRIC, "B/s",
                                      median=bps or 0.0, ci_low=lo, ci_high=hi, n_samples=s.n,
                                      cv=s.cv, extra={"role": "cipher-cost",
                                                      "ns_per_op": s.median}))
                elif isinstance(rec, CoreError) and rec.algo in names:
                    missing.append(rec.algo)
    return out, missing


def rates(results: Iterable[Result]) -> dict[str, tuple[float, str]]:
    """Catalog algorithm -> (bytes/s alone, library) from a run's stored cost rows."""
    return {r.algo: (r.median, r.lib) for r in results
            if r.scenario == "ssh" and r.metric == METRIC and r.median > 0}


def combo_bps(cipher: str | None, mac: str | None,
              known: Mapping[str, tuple[float, str]]) -> float | None:
    """The rate of a cipher and its MAC over the same bytes (their times per byte add up);
    None unless each part was measured."""
    if not cipher or cipher not in known:
        return None
    t = 1.0 / known[cipher][0]
    if mac:
        if mac not in known:
            return None
        t += 1.0 / known[mac][0]
    return 1.0 / t
