# SPDX-License-Identifier: GPL-3.0-or-later
"""Statistics of repeated samples: pure functions, no timing, no I/O.

A *sample* is one number measured once (for primitives: nanoseconds per operation, from one
``point`` record sample ``wall_ns / iters``; for a scenario: seconds for one transfer, ...).
Every function here takes plain sequences of floats, so scenarios use them too.

Public API:

- ``median(xs)``
- ``median_ci(xs, confidence=0.95) -> (low, high)``: distribution-free interval from order
  statistics (no assumption of normality; benchmark timings are skewed).
- ``cv(xs)``: coefficient of variation, sample standard deviation / mean.
- ``outliers(xs, k=1.5) -> list[bool]``: Tukey fences on the interquartile range.
- ``summarize(xs) -> Summary``: all of the above at once.
- ``until_stable(sample, precision=..., budget_s=..., estimator=summarize) -> Stability``:
  adaptive repetition; keeps asking ``sample(n)`` for more samples until the confidence
  interval of the figure is narrow enough or the time budget is spent.

For samples disturbed by one-sided noise (other work only ever adds time):

- ``lost_cpu(wall, cpu, min_share=MIN_CPU_SHARE) -> CpuFilter``: which samples lost the CPU
  while they ran (CPU time below ``min_share`` of wall time), counted and listed.
- ``best_of_groups(xs, best_of) -> list[float]``: the fastest of each group of consecutive
  samples.
- ``robust(xs, best_of=None, keep=None) -> Robust``: the figure is the median of the groups'
  fastest samples among those kept; its interval is the median's interval over those group
  minima (computed on what is reported), the spread of the rest is kept beside it.
- ``robust_summary(xs) -> Summary``: the same as a ``Summary`` (``median`` is the figure), for
  ``until_stable(estimator=robust_summary)`` and every caller of ``Summary``.
- ``best_point(wall_ns, cpu_ns, iters) -> Best``: a core ``point``'s figure: its fastest
  sample (ns per operation) among those that kept the CPU. Load that lasts longer than a few
  samples (a busy sibling thread, a stolen virtual CPU) moves any median; it moves the fastest
  sample least. Measured in interleaved rounds, the figure of a cell is then
  ``robust(per_round_bests, best_of=1)``: the median of the rounds' bests with its interval.
- ``best_of_rounds(per_round_bests) -> Robust``: a cell measured in interleaved rounds: the
  best round is the figure (on a machine busy most of the time, only the best rounds ran
  undisturbed; the median round moves with the load), the interval spans the two best
  rounds and ``spread`` says how far the median round sits above the best.
- ``robust_point(wall_ns, cpu_ns, iters, best_of=None) -> Robust``: one point alone, with an
  interval: the median of the fastest of each group of ``best_of`` consecutive samples.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

#: The default target: the 95% CI half-width of the median at most 1% of the median.
DEFAULT_PRECISION = 0.01

#: A sample whose CPU time is below this share of its wall time lost the CPU while it ran
#: (preempted, or its virtual CPU stolen): it says nothing about the code (as the core's
#: CB_MIN_CPU_SHARE).
MIN_CPU_SHARE = 0.95
#: Samples per group when the record does not say (as the core's BEST_OF).
DEFAULT_BEST_OF = 8
#: The fewest groups whose median has a real 95% interval (order statistics need 6).
MIN_GROUPS = 6


def median(xs: Sequence[float]) -> float:
    """The median of ``xs`` (mean of the two middle values for an even count)."""
    if not xs:
        raise ValueError("median of no samples")
    s = sorted(xs)
    n = len(s)
    mid = n // 2
    return float(s[mid]) if n % 2 else (s[mid - 1] + s[mid]) / 2.0


def _binom_cdf_half(k: int, n: int) -> float:
    """P(B <= k) for B ~ Binomial(n, 1/2)."""
    if k < 0:
        return 0.0
    total = 0
    for i in range(0, min(k, n) + 1):
        total += math.comb(n, i)
    return total / 2.0**n


def median_ci_ranks(n: int, confidence: float = 0.95) -> tuple[int, int]:
    """0-based ranks (lo, hi) of the order statistics that bound the median with at least
    ``confidence`` coverage. Coverage of [x_(r), x_(n+1-r)] (1-based r) is
    1 - 2 P(B <= r-1), B ~ Bin(n, 1/2); the largest such r is chosen. For samples too small to
    reach the coverage (n < 6 at 95%), the whole range (0, n-1) is returned."""
    if n <= 0:
        raise ValueError("confidence interval of no samples")
    alpha = 1.0 - confidence
    r = 0  # 1-based rank; 0 = none qualifies
    # P(B <= r-1) grows with r; walk up while it stays within alpha/2.
    for cand in range(1, n // 2 + 1):
        if _binom_cdf_half(cand - 1, n) <= alpha / 2:
            r = cand
        else:
            break
    if r == 0:
        return 0, n - 1
    return r - 1, n - r


def median_ci(xs: Sequence[float], confidence: float = 0.95) -> tuple[float, float]:
    """Distribution-free ``confidence`` interval of the median of ``xs`` (order statistics)."""
    s = sorted(xs)
    lo, hi = median_ci_ranks(len(s), confidence)
    return float(s[lo]), float(s[hi])


def mean(xs: Sequence[float]) -> float:
    """Arithmetic mean."""
    if not xs:
        raise ValueError("mean of no samples")
    return math.fsum(xs) / len(xs)


def stdev(xs: Sequence[float]) -> float:
    """Sample standard deviation (n-1); 0 for fewer than two samples."""
    n = len(xs)
    if n < 2:
        return 0.0
    m = mean(xs)
    return math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (n - 1))


def cv(xs: Sequence[float]) -> float:
    """Coefficient of variation: sample standard deviation divided by the mean."""
    m = mean(xs)
    return stdev(xs) / m if m else 0.0


def quantile(xs: Sequence[float], q: float) -> float:
    """Linear-interpolated quantile (the same rule as numpy's default)."""
    s = sorted(xs)
    if not s:
        raise ValueError("quantile of no samples")
    pos = (len(s) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def outliers(xs: Sequence[float], k: float = 1.5) -> list[bool]:
    """Mark each sample outside Tukey's fences [Q1 - k IQR, Q3 + k IQR]. The median is robust to
    them, so they are counted and reported, not removed."""
    if len(xs) < 4:
        return [False] * len(xs)
    q1, q3 = quantile(xs, 0.25), quantile(xs, 0.75)
    iqr = q3 - q1
    low, high = q1 - k * iqr, q3 + k * iqr
    return [x < low or x > high for x in xs]


@dataclass(frozen=True)
class Summary:
    """What is kept of a list of samples."""

    n: int
    median: float
    ci_low: float
    ci_high: float
    mean: float
    stdev: float
    cv: float
    n_outliers: int
    minimum: float
    maximum: float

    @property
    def half_width(self) -> float:
        """Half the width of the confidence interval of the median."""
        return (self.ci_high - self.ci_low) / 2.0

    @property
    def rel_half_width(self) -> float:
        """Half-width relative to the median (0.01 = the interval is +-1%)."""
        return self.half_width / self.median if self.median else math.inf


def summarize(xs: Sequence[float], confidence: float = 0.95) -> Summary:
    """Median, its confidence interval, mean, standard deviation, CV and outlier count."""
    lo, hi = median_ci(xs, confidence)
    return Summary(
        n=len(xs), median=median(xs), ci_low=lo, ci_high=hi, mean=mean(xs), stdev=stdev(xs),
        cv=cv(xs), n_outliers=sum(outliers(xs)), minimum=float(min(xs)), maximum=float(max(xs)),
    )


@dataclass
class Stability:
    """The outcome of ``until_stable``: every sample taken and why sampling stopped.

    ``reason`` is ``"precision"`` (the target was met: ``stable`` is True), ``"budget"`` (the
    time budget ran out first) or ``"max_samples"``."""

    samples: list[float]
    summary: Summary
    stable: bool
    reason: str
    rounds: int = 0
    elapsed_s: float = 0.0
    requests: list[int] = field(default_factory=list)


def is_precise(summary: Summary, precision: float) -> bool:
    """True when the CI half-width is at most ``precision`` times the median and the interval
    has real 95% coverage (enough samples for order statistics: n >= 6)."""
    if summary.n < 6:
        return False
    return summary.half_width <= precision * abs(summary.median)


@dataclass(frozen=True)
class CpuFilter:
    """Which samples kept the CPU. ``applied`` is False when there were no CPU times, or when
    no sample kept the CPU (then all are kept: a figure is never invented from nothing)."""

    kept: tuple[int, ...]
    dropped: tuple[int, ...]
    applied: bool

    @property
    def n_dropped(self) -> int:
        return len(self.dropped)

    def mask(self, n: int) -> list[bool]:
        """``keep`` flags for ``n`` samples."""
        k = set(self.kept)
        return [i in k for i in range(n)]


def lost_cpu(wall: Sequence[float], cpu: Sequence[float] | None,
             min_share: float = MIN_CPU_SHARE) -> CpuFilter:
    """Samples whose CPU time is below ``min_share`` of their wall time lost the CPU while they
    ran; they are listed in ``dropped`` (to be counted and stored), the rest in ``kept``."""
    n = len(wall)
    if not cpu or len(cpu) != n:
        return CpuFilter(tuple(range(n)), (), False)
    dropped = tuple(i for i in range(n) if cpu[i] < min_share * wall[i])
    if len(dropped) == n:
        return CpuFilter(tuple(range(n)), (), False)
    gone = set(dropped)
    return CpuFilter(tuple(i for i in range(n) if i not in gone), dropped, True)


def default_best_of(n: int) -> int:
    """Samples per group for ``n`` samples: DEFAULT_BEST_OF when that leaves MIN_GROUPS groups,
    fewer otherwise (down to 1: then the figure is the plain median)."""
    return max(1, min(DEFAULT_BEST_OF, n // MIN_GROUPS))


def best_of_groups(xs: Sequence[float], best_of: int,
                   keep: Sequence[bool] | None = None) -> list[float]:
    """The smallest kept sample of each group of ``best_of`` consecutive samples (a group with
    none kept gives nothing)."""
    if best_of < 1:
        raise ValueError("best_of must be at least 1")
    out = []
    for g in range(0, len(xs), best_of):
        vals = [xs[i] for i in range(g, min(g + best_of, len(xs))) if keep is None or keep[i]]
        if vals:
            out.append(float(min(vals)))
    return out


@dataclass(frozen=True)
class Robust:
    """The figure of samples under one-sided noise, and what was left out.

    ``figure`` is the median of the groups' fastest kept samples; ``ci_low``/``ci_high`` its
    distribution-free interval over those group minima; ``spread`` how far the median of all
    kept samples sits above the figure (relative: the noise that was set aside);
    ``cv`` and ``stdev`` those of the group minima; ``mean`` the mean of the kept samples."""

    figure: float
    ci_low: float
    ci_high: float
    n: int
    n_kept: int
    dropped: tuple[int, ...]
    best_of: int
    n_groups: int
    spread: float
    cv: float
    stdev: float
    mean: float
    minimum: float
    maximum: float

    @property
    def n_dropped(self) -> int:
        return len(self.dropped)

    @property
    def rel_half_width(self) -> float:
        """Half-width of the interval relative to the figure."""
        return (self.ci_high - self.ci_low) / 2.0 / self.figure if self.figure else math.inf

    def summary(self) -> "Summary":
        """As a ``Summary``: ``median`` is the figure and ``n`` the number of groups, so
        ``is_precise`` judges the interval that was computed."""
        return Summary(n=self.n_groups, median=self.figure, ci_low=self.ci_low,
                       ci_high=self.ci_high, mean=self.mean, stdev=self.stdev, cv=self.cv,
                       n_outliers=self.n_dropped,
                       minimum=self.minimum, maximum=self.maximum)


def robust(xs: Sequence[float], best_of: int | None = None, keep: Sequence[bool] | None = None,
           confidence: float = 0.95) -> Robust:
    """The robust figure of ``xs`` (see ``Robust``). ``keep`` flags the samples to use (from
    ``lost_cpu``); ``best_of`` defaults to ``default_best_of`` of the samples kept."""
    if not xs:
        raise ValueError("robust figure of no samples")
    if keep is None:
        keep = [True] * len(xs)
    kept = [float(x) for x, k in zip(xs, keep) if k]
    if not kept:
        raise ValueError("robust figure of no kept samples")
    g = best_of or default_best_of(len(kept))
    mins = best_of_groups(xs, g, keep)
    lo, hi = median_ci(mins, confidence)
    fig = median(mins)
    dropped = tuple(i for i, k in enumerate(keep) if not k)
    return Robust(figure=fig, ci_low=lo, ci_high=hi, n=len(xs), n_kept=len(kept),
                  dropped=dropped, best_of=g, n_groups=len(mins),
                  spread=(median(kept) - fig) / fig if fig else 0.0, cv=cv(mins),
                  stdev=stdev(mins), mean=mean(kept), minimum=float(min(kept)), maximum=float(max(kept)))


def robust_summary(xs: Sequence[float]) -> Summary:
    """``robust(xs).summary()``: the robust figure where a ``Summary`` is expected."""
    return robust(xs).summary()


@dataclass(frozen=True)
class Best:
    """The fastest kept sample of a point (ns per operation) and what was left out."""

    figure: float
    n: int
    n_kept: int
    dropped: tuple[int, ...]

    @property
    def n_dropped(self) -> int:
        return len(self.dropped)


def best_point(wall_ns: Sequence[float], cpu_ns: Sequence[float] | None, iters: int = 1,
               min_share: float = MIN_CPU_SHARE) -> Best:
    """The fastest sample of a core ``point`` (ns per operation) among those that kept the
    CPU; the samples that lost it are counted and listed."""
    if not wall_ns:
        raise ValueError("best of no samples")
    f = lost_cpu(wall_ns, cpu_ns, min_share)
    fig = min(wall_ns[i] for i in f.kept) / (iters or 1)
    return Best(float(fig), len(wall_ns), len(f.kept), f.dropped)


def best_of_rounds(per_round: Sequence[float]) -> Robust:
    """The figure of a cell from its rounds' figures (each a ``best_point``): the best round,
    with the two best rounds as its interval (they agree when the best was not luck) and
    the median round's distance above it as ``spread``."""
    if not per_round:
        raise ValueError("best of no rounds")
    s = sorted(float(x) for x in per_round)
    fig = s[0]
    return Robust(figure=fig, ci_low=fig, ci_high=s[1] if len(s) > 1 else fig, n=len(s),
                  n_kept=len(s), dropped=(), best_of=len(s), n_groups=len(s),
                  spread=(median(s) - fig) / fig if fig else 0.0, cv=cv(s), stdev=stdev(s),
                  mean=mean(s), minimum=fig, maximum=s[-1])


def robust_point(wall_ns: Sequence[float], cpu_ns: Sequence[float] | None, iters: int = 1,
                 best_of: int | None = None, min_share: float = MIN_CPU_SHARE) -> Robust:
    """A core ``point``'s samples as ns per operation: samples that lost the CPU left out,
    the rest grouped by ``best_of`` (the record's ``best_of`` when it has one)."""
    f = lost_cpu(wall_ns, cpu_ns, min_share)
    per = [w / (iters or 1) for w in wall_ns]
    n_kept = len(f.kept)
    g = best_of or default_best_of(n_kept)
    # Too few groups left for an interval: smaller groups, never fewer than MIN_GROUPS.
    if n_kept // g < MIN_GROUPS:
        g = default_best_of(n_kept)
    return robust(per, g, f.mask(len(per)))


def until_stable(
    sample: Callable[[int], Sequence[float]],
    *,
    precision: float = DEFAULT_PRECISION,
    budget_s: float = 2.0,
    initial: Sequence[float] = (),
    min_samples: int = 6,
    max_samples: int = 1000,
    elapsed_s: float = 0.0,
    clock: Callable[[], float] = time.monotonic,
    estimator: Callable[[Sequence[float]], Summary] = summarize,
) -> Stability:
    """Adaptive repetition: ask for more samples until the median is known well enough.

    ``sample(n)`` must measure and return ``n`` (or at least one) new samples. It is called
    first to reach ``min_samples``, then with batches that grow with the count taken (half of
    it again, so the number of calls stays logarithmic), until either

    - the 95% CI half-width of the median is <= ``precision`` x median (``reason="precision"``),
    - the time spent (``elapsed_s`` already spent by the caller, e.g. on ``initial``, plus the
      clock time of this call) reaches ``budget_s`` (``reason="budget"``), or
    - ``max_samples`` are taken (``reason="max_samples"``).

    ``initial`` are samples the caller already has (e.g. from a first batch over all sizes).
    ``clock`` is injectable so tests never time anything. ``estimator`` makes the
    ``Summary`` judged (``robust_summary`` for samples under one-sided noise).
    """
    start = clock()
    samples = [float(x) for x in initial]
    requests: list[int] = []
    rounds = 0

    def spent() -> float:
        return elapsed_s + (clock() - start)

    while True:
        if len(samples) >= min_samples:
            summ = estimator(samples)
            if is_precise(summ, precision):
                return Stability(samples, summ, True, "precision", rounds, spent(), requests)
            if len(samples) >= max_samples:
                return Stability(samples, summ, False, "max_samples", rounds, spent(), requests)
            if spent() >= budget_s:
                return Stability(samples, summ, False, "budget", rounds, spent(), requests)
            want = max(min_samples, len(samples) // 2)
        else:
            # Too few to judge; the budget still bounds us once we have any samples at all.
            if samples and spent() >= budget_s:
                summ = estimator(samples)
                return Stability(samples, summ, False, "budget", rounds, spent(), requests)
            want = min_samples - len(samples)
        want = min(want, max_samples - len(samples))
        got = list(sample(want))
        rounds += 1
        requests.append(want)
        if not got:
            if not samples:
                raise RuntimeError("the sampler returned no samples")
            summ = estimator(samples)
            return Stability(samples, summ, is_precise(summ, precision), "budget", rounds,
                             spent(), requests)
        samples.extend(float(x) for x in got)
