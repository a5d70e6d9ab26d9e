# SPDX-License-Identifier: GPL-3.0-or-later
"""Verdicts from paired rounds: faster, slower, or "cannot tell here". Pure: numbers in,
records out; nothing here times or prints.

Two candidates A and B measured in the same rounds (each round measures both, in a random
order, close together in time) give one ratio per round. Load that comes and goes moves both
members of a round alike, so the per-round ratio cancels most of it where two separate
figures would not. The ratio is a *speed* ratio B/A (above 1: B is faster); from per-round
times it is ``time_A / time_B``.

The interval is distribution-free: the median of the per-round log-ratios with the order-
statistic (sign-test) interval of ``stats.median_ci``, which assumes only that rounds are
independent. A verdict needs ``MIN_ROUNDS`` rounds (below 6 no 95% interval exists). It is
``faster`` when the whole interval lies above ``1 + margin``, ``slower`` when it lies below
``1 / (1 + margin)``, otherwise ``cannot tell here (within N%)`` where N is how far from 1 the
interval reaches: the difference, if any, is at most that here.

Public API:

- ``round_ratios(a, b, higher_is_better=False) -> list[float]``
- ``paired_ratio(a, b, higher_is_better=False, confidence=0.95) -> PairedRatio``
- ``verdict(a, b, higher_is_better=False, margin=..., min_rounds=...) -> Verdict``;
  ``judge(paired, margin, min_rounds) -> Verdict``
- ``scaling(single, multi, threads) -> Scaling``: thread-scaling efficiency from paired rounds,
  flagged when above 1.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from cipherbench.analysis import stats

FASTER, SLOWER, CANNOT_TELL = "faster", "slower", "cannot tell"

#: The fewest rounds a verdict is given from (a 95% interval of a median needs 6).
MIN_ROUNDS = 6
#: Rounds to measure when a verdict is wanted: from 9 rounds on, the interval leaves out the
#: most extreme round on each side, so one disturbed round no longer decides; on a busy
#: 2-vCPU machine 8 rounds gave the same verdict for a 20% difference in only 10 of 20 runs,
#: 12 rounds in 20 of 20 (docs/performance.md, stability).
RECOMMENDED_ROUNDS = 12
#: Differences smaller than this are never called faster or slower.
DEFAULT_MARGIN = 0.01


def round_ratios(a: Sequence[float], b: Sequence[float],
                 higher_is_better: bool = False) -> list[float]:
    """Speed ratio B/A of each round (``a[i]`` and ``b[i]`` measured in round ``i``):
    ``b/a`` for rates, ``a/b`` for times. Rounds where either is not positive are left out."""
    if len(a) != len(b):
        raise ValueError("paired rounds need as many figures of A as of B")
    out = []
    for x, y in zip(a, b):
        if x > 0 and y > 0:
            out.append(y / x if higher_is_better else x / y)
    return out


@dataclass(frozen=True)
class PairedRatio:
    """The median per-round speed ratio B/A with its interval; ``ratios`` per round."""

    ratio: float
    low: float
    high: float
    n_rounds: int
    ratios: tuple[float, ...]
    confidence: float = 0.95


def paired_ratio(a: Sequence[float], b: Sequence[float], higher_is_better: bool = False,
                 confidence: float = 0.95) -> PairedRatio:
    """Median of the per-round log-ratios and its distribution-free interval, back as ratios.
    With fewer than 6 rounds the interval is the whole range of the ratios."""
    rs = round_ratios(a, b, higher_is_better)
    if not rs:
        raise ValueError("no round has both figures")
    logs = [math.log(r) for r in rs]
    lo, hi = stats.median_ci(logs, confidence)
    return PairedRatio(math.exp(stats.median(logs)), math.exp(lo), math.exp(hi), len(rs),
                       tuple(rs), confidence)


@dataclass(frozen=True)
class Verdict:
    """``state`` is ``faster``, ``slower`` or ``cannot tell`` (B against A). ``within`` is the N
    of "cannot tell here (within N%)" as a fraction; ``reason`` says why there is no verdict
    when the rounds were too few."""

    state: str
    ratio: float | None
    low: float | None
    high: float | None
    n_rounds: int
    within: float | None = None
    reason: str | None = None

    @property
    def decided(self) -> bool:
        return self.state in (FASTER, SLOWER)

    def text(self) -> str:
        """``faster (1.23x, 95% CI 1.18-1.27, 12 rounds)``, ``cannot tell here (within 3%)``
        or ``cannot tell: 4 rounds, a verdict needs 6``."""
        if self.reason:
            return f"{CANNOT_TELL}: {self.reason}"
        if self.state == CANNOT_TELL:
            assert self.within is not None   # verdict() gives it whenever there is no reason
            return f"{CANNOT_TELL} here (within {math.ceil(self.within * 100 - 1e-9):.0f}%)"
        return (f"{self.state} ({self.ratio:.3g}x, 95% CI {self.low:.3g}-{self.high:.3g}, "
                f"{self.n_rounds} rounds)")


def judge(p: PairedRatio, margin: float = DEFAULT_MARGIN,
          min_rounds: int = MIN_ROUNDS) -> Verdict:
    """The verdict of a paired ratio (see the module's description)."""
    if p.n_rounds < min_rounds:
        return Verdict(CANNOT_TELL, p.ratio, p.low, p.high, p.n_rounds,
                       reason=f"{p.n_rounds} rounds, a verdict needs {min_rounds}")
    if p.low > 1 + margin:
        return Verdict(FASTER, p.ratio, p.low, p.high, p.n_rounds)
    if p.high < 1 / (1 + margin):
        return Verdict(SLOWER, p.ratio, p.low, p.high, p.n_rounds)
    within = max(margin, p.high - 1, 1 / p.low - 1 if p.low > 0 else math.inf)
    return Verdict(CANNOT_TELL, p.ratio, p.low, p.high, p.n_rounds, within=within)


def verdict(a: Sequence[float], b: Sequence[float], higher_is_better: bool = False,
            margin: float = DEFAULT_MARGIN, min_rounds: int = MIN_ROUNDS,
            confidence: float = 0.95) -> Verdict:
    """B against A from their figures in the same rounds."""
    return judge(paired_ratio(a, b, higher_is_better, confidence), margin, min_rounds)


#: Efficiency above this is flagged (a little above 1 happens with shared caches or turbo).
MAX_EFFICIENCY = 1.05


@dataclass(frozen=True)
class Scaling:
    """Thread-scaling efficiency: aggregate rate over ``threads`` x the single-thread rate,
    from paired rounds, with its interval; ``flag`` says why it cannot be shown as a fact."""

    efficiency: float
    low: float
    high: float
    threads: int
    n_rounds: int
    flag: str | None


def scaling(single: Sequence[float], multi: Sequence[float], threads: int,
            higher_is_better: bool = True, confidence: float = 0.95) -> Scaling:
    """Efficiency from rounds that measured one thread and ``threads`` threads together
    (rates by default). Flagged when above MAX_EFFICIENCY (the figures cannot both be right:
    the load changed between them) or from fewer than MIN_ROUNDS rounds."""
    if threads < 1:
        raise ValueError("threads must be at least 1")
    p = paired_ratio(single, multi, higher_is_better, confidence)
    eff, lo, hi = p.ratio / threads, p.low / threads, p.high / threads
    flag = None
    if p.n_rounds < MIN_ROUNDS:
        flag = f"{p.n_rounds} rounds, at least {MIN_ROUNDS} needed"
    elif eff > MAX_EFFICIENCY:
        flag = (f"efficiency {eff:.2f} is above 1: the single- and multi-thread figures were "
                "not measured under the same conditions")
    return Scaling(eff, lo, hi, threads, p.n_rounds, flag)
