# SPDX-License-Identifier: GPL-3.0-or-later
"""The slope method: a least-squares line through (size, time per operation).

The slope is the bulk cost (ns per byte), the intercept the per-message cost (ns: nonce,
key schedule, tag, call overhead). Pure: points in, numbers out.

``check_headline(fit, size, ns_per_op)`` says when a headline figure and the line disagree:
with a positive intercept the time of one message is at least ``slope x size``, so no
headline rate may exceed ``1 / slope``; and a headline far off the line was measured under
other conditions than the points the line went through.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

#: Sizes below this are dominated by per-message cost and left out of the fit. The one place
#: this is said: the fit is the front end's alone. It is made over a point's final figure (after
#: extra samples, or the median of its rounds' bests), which one batch of the core never sees;
#: so the C core writes no ``fit`` record (the Go and Rust cores still do; it is not read).
FIT_MIN_SIZE = 1024


@dataclass(frozen=True)
class Fit:
    """A fitted line ``time = intercept + slope * size``."""

    slope: float        # ns per byte
    intercept: float    # ns per message
    r2: float           # coefficient of determination (1 = a perfect line)
    sizes: tuple[int, ...]

    def cycles_per_byte(self, freq_hz: float | None) -> float | None:
        """Slope in cycles per byte at core frequency ``freq_hz`` (None if unknown)."""
        if not freq_hz or freq_hz <= 0:
            return None
        return self.slope * freq_hz / 1e9

    def max_rate(self) -> float | None:
        """1 / slope in bytes per second: the most any size can reach when the intercept is
        not negative (None for a slope that is not positive)."""
        return 1e9 / self.slope if self.slope > 0 else None

    def predict_ns(self, size: int) -> float:
        """Time of one message of ``size`` bytes on the line."""
        return self.intercept + self.slope * size


def least_squares(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float, float]:
    """Ordinary least squares; returns (slope, intercept, r2). Needs two distinct xs."""
    n = len(xs)
    if n != len(ys) or n < 2:
        raise ValueError("a line needs at least two points")
    mx = math.fsum(xs) / n
    my = math.fsum(ys) / n
    sxx = math.fsum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        raise ValueError("a line needs two distinct sizes")
    sxy = math.fsum((x - mx) * (y - my) for x, y in zip(xs, ys))
    slope = sxy / sxx
    intercept = my - slope * mx
    ss_tot = math.fsum((y - my) ** 2 for y in ys)
    ss_res = math.fsum((y - (intercept + slope * x)) ** 2 for x, y in zip(xs, ys))
    r2 = 1.0 - ss_res / ss_tot if ss_tot > 0 else 1.0
    return slope, intercept, r2


def fit_sizes(points: dict[int, float], min_size: int = FIT_MIN_SIZE) -> Fit | None:
    """Fit median ns/op against size over sizes >= ``min_size``; None with fewer than two."""
    sizes = sorted(s for s in points if s >= min_size)
    if len(sizes) < 2:
        return None
    slope, intercept, r2 = least_squares([float(s) for s in sizes], [points[s] for s in sizes])
    return Fit(slope, intercept, r2, tuple(sizes))


#: Relative disagreement between a headline and the line that is flagged.
COHERENCE_TOLERANCE = 0.05


def check_headline(fit: Fit, size: int, ns_per_op: float,
                   tolerance: float = COHERENCE_TOLERANCE) -> str | None:
    """None when the headline (``ns_per_op`` at ``size``) agrees with ``fit``; otherwise one
    line saying how they disagree (to be shown beside the figure, never instead of it)."""
    if ns_per_op <= 0 or size <= 0:
        return "the headline time is not positive"
    rate = size / ns_per_op * 1e9
    top = fit.max_rate()
    if fit.intercept >= 0 and top is not None and rate > top * (1 + tolerance):
        return (f"the headline {rate / 1e6:.0f} MB/s at {size} B exceeds 1/slope "
                f"({top / 1e6:.0f} MB/s), which a positive intercept does not allow: the "
                "figures were measured under different conditions")
    if fit.sizes and size >= fit.sizes[0]:
        pred = fit.predict_ns(size)
        if pred > 0 and abs(ns_per_op / pred - 1) > tolerance:
            return (f"the headline at {size} B is {ns_per_op / pred - 1:+.0%} off the fitted "
                    "line: the figures were measured under different conditions")
    return None


def implied_clock_hz(cycles_per_byte: float, bytes_per_s: float) -> float:
    """The clock that a c/B figure and a throughput beside it imply (c/B x B/s). Above the
    measured clock, the two cannot both be right."""
    return cycles_per_byte * bytes_per_s
