# SPDX-License-Identifier: GPL-3.0-or-later
"""The core's clock: its estimate from the probes in the records, and whether cycles per byte
can be trusted. Pure: record fields in, numbers and reasons out.

The core times chains of dependent additions (one cycle each) as many short probes, each with
its wall and CPU time (docs/protocol.md: ``freq_cycles``, ``freq_wall_ns``, ``freq_cpu_ns`` in
``preamble``, ``point`` and ``end``), interleaved with the samples. Other work only ever slows a
probe, so, as libgcrypt's bench-slope does in its auto mode, the run's clock is read from the
fastest probes that kept the CPU, pooled over the whole run: a busy machine loses many probes
but leaves enough fast ones. The clock is withheld only for a true reason: too few probes kept
the CPU, the fastest ones disagree, or the clock moved between the two halves of the run.
Cycles per byte is a slope times this clock: when the clock cannot be trusted, c/B is withheld
with the reason, never printed wrong.

Public API:

- ``ClockProbes.from_record(rec) -> ClockProbes | None``
- ``estimate(probes, best_of=4) -> ClockEstimate``; ``ClockEstimate.bare(freq_hz)`` for a
  record of an older core that has only ``freq_hz``.
- ``trust(estimates, ...) -> ClockTrust``: one clock for the run (its fastest probes that kept
  the CPU), or the reason there is none.
- ``cycles_per_byte(slope_ns_per_byte, trust) -> (value, reason)``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from cipherbench.analysis import stats

#: Probes per group; the clock of a group is its fastest probe that kept the CPU.
PROBES_PER_GROUP = 4
#: Relative spread of the group bests above which the clock is not trusted.
MAX_SPREAD = 0.03
#: Relative change between the clock estimates of one run above which it is not trusted.
MAX_DRIFT = 0.05
#: The fewest probes of a run that must have kept the CPU.
MIN_KEPT = 8
#: The run's clock is the median of its this many fastest probes that kept the CPU; their
#: spread says whether the fastest agree.
TOP = 5


@dataclass(frozen=True)
class ClockProbes:
    """The raw probes of one record."""

    cycles: int
    wall_ns: tuple[float, ...]
    cpu_ns: tuple[float, ...]

    @classmethod
    def from_record(cls, rec: Mapping) -> "ClockProbes | None":
        """The probes of a ``preamble``, ``point`` or ``end`` record; None when it has none."""
        cycles, wall, cpu = rec.get("freq_cycles"), rec.get("freq_wall_ns"), rec.get("freq_cpu_ns")
        if not cycles or not wall:
            return None
        return cls(int(cycles), tuple(float(w) for w in wall),
                   tuple(float(c) for c in cpu) if cpu and len(cpu) == len(wall) else ())


@dataclass(frozen=True)
class ClockEstimate:
    """One clock estimate: ``freq_hz`` (None: unknown), the relative ``spread`` (width of the
    interval of the group bests; None: fewer than two groups, or no probes), the probes taken
    and kept."""

    freq_hz: float | None
    spread: float | None
    n: int
    n_kept: int
    #: the frequency each probe that kept the CPU gives (pooled over the run by ``trust``)
    kept_hz: tuple[float, ...] = ()

    @classmethod
    def bare(cls, freq_hz: float | None) -> "ClockEstimate":
        """An estimate from ``freq_hz`` alone (an older core without probes)."""
        return cls(freq_hz if freq_hz and freq_hz > 0 else None, None, 0, 0)

    @property
    def has_probes(self) -> bool:
        return self.n > 0


def estimate(probes: ClockProbes, best_of: int = PROBES_PER_GROUP) -> ClockEstimate:
    """The clock of ``probes``: probes that lost the CPU are left out; per group of
    ``best_of`` consecutive probes the fastest gives a frequency; the estimate is the median of
    those and the spread is the width of its 95% interval relative to it (order statistics:
    one disturbed group does not move it, a machine that disturbed most of them does)."""
    f = stats.lost_cpu(probes.wall_ns, probes.cpu_ns or None, stats.MIN_CPU_SHARE)
    keep = f.mask(len(probes.wall_ns))
    walls = [w if w > 0 else float("inf") for w in probes.wall_ns]
    bests = stats.best_of_groups(walls, best_of, keep)
    freqs = [probes.cycles * 1e9 / w for w in bests if w != float("inf")]
    kept_hz = tuple(probes.cycles * 1e9 / walls[i] for i in f.kept if walls[i] != float("inf"))
    if not freqs:
        return ClockEstimate(None, None, len(walls), 0)
    med = stats.median(freqs)
    lo, hi = stats.median_ci(freqs)
    spread = (hi - lo) / med if len(freqs) >= 2 else None
    return ClockEstimate(med, spread, len(walls), len(f.kept), kept_hz)


def record_estimate(rec: Mapping) -> ClockEstimate:
    """The estimate of a record: from its probes, else its bare ``freq_hz``."""
    p = ClockProbes.from_record(rec)
    return estimate(p) if p else ClockEstimate.bare(rec.get("freq_hz"))


@dataclass(frozen=True)
class ClockTrust:
    """The run's clock, or why there is none: ``trusted`` with ``freq_hz``, or ``reason``."""

    trusted: bool
    freq_hz: float | None
    reason: str | None
    spread: float | None = None


def _ghz(hz: float) -> str:
    return f"{hz / 1e9:.2f} GHz"


def trust(estimates: Sequence[ClockEstimate], *, max_spread: float = MAX_SPREAD,
          max_drift: float = MAX_DRIFT, min_kept: int = MIN_KEPT) -> ClockTrust:
    """One clock for the estimates of a run's records (preamble, every point, end), in order.

    With probes: the median of the ``TOP`` fastest probes that kept the CPU over the whole run.
    Not trusted, with the reason, when fewer than ``min_kept`` probes kept the CPU, when those
    fastest spread over more than ``max_spread``, or when the clocks of the run's two halves
    differ by more than ``max_drift`` (it moved during the run). Estimates without probes
    (records of older cores) only when no record has probes: their median, checked for
    drift."""
    probed = [e for e in estimates if e.has_probes]
    if probed:
        return _trust_probes(probed, max_spread, max_drift, min_kept)
    known = [e.freq_hz for e in estimates if e.freq_hz]
    if not known:
        return ClockTrust(False, None, "the core could not measure its clock")
    lo, hi = min(known), max(known)
    if hi > lo * (1 + max_drift):
        return _moved(lo, hi, None)
    return ClockTrust(True, stats.median(known), None, None)


def fastest(kept_hz: Sequence[float]) -> tuple[float, float] | None:
    """(clock, spread) of the ``TOP`` fastest probes, or None with fewer than that."""
    top = sorted(kept_hz, reverse=True)[:TOP]
    if len(top) < TOP:
        return None
    clock = stats.median(top)
    return clock, (top[0] - top[-1]) / clock


def _trust_probes(probed: Sequence[ClockEstimate], max_spread: float, max_drift: float,
                  min_kept: int) -> ClockTrust:
    kept = [hz for e in probed for hz in e.kept_hz]
    n = sum(e.n for e in probed)
    if len(kept) < max(min_kept, TOP):
        need = max(min_kept, TOP)
        why = (f"only {len(kept)} of the run's {n} clock probes ran without losing the CPU "
               f"({need} needed): the machine was too busy to measure the clock"
               if n >= need else
               f"the core took only {n} clock probes ({need} needed): measure more points or "
               "samples")
        return ClockTrust(False, None, why)
    clock, spread = fastest(kept)  # type: ignore[misc]
    if spread > max_spread:
        return ClockTrust(False, None, f"the {TOP} fastest of the run's clock probes spread over "
                                       f"{spread:.1%} (more than {max_spread:.0%}): the machine "
                                       "was too busy to measure the clock", spread)
    half = len(probed) // 2
    halves = [fastest([hz for e in part for hz in e.kept_hz])
              for part in (probed[:half], probed[half:])]
    if all(halves):
        lo, hi = sorted(h[0] for h in halves)  # type: ignore[index]
        if hi > lo * (1 + max_drift):
            return _moved(lo, hi, spread)
    return ClockTrust(True, clock, None, spread)


def _moved(lo: float, hi: float, spread: float | None) -> ClockTrust:
    return ClockTrust(False, None, f"the clock moved between {_ghz(lo)} and {_ghz(hi)} during "
                                   "the run (frequency scaling or a busy machine)", spread)


def cycles_per_byte(slope_ns_per_byte: float | None, clock: ClockTrust
                    ) -> tuple[float | None, str | None]:
    """(c/B, None) from a slope and a trusted clock, else (None, the reason it is withheld)."""
    if slope_ns_per_byte is None or slope_ns_per_byte <= 0:
        return None, "no positive slope to convert"
    if not clock.trusted or not clock.freq_hz:
        return None, clock.reason or "the clock is unknown"
    return slope_ns_per_byte * clock.freq_hz / 1e9, None
