"""The slope method: a least-squares line through (size, time per operation).

The slope is the bulk cost (ns per byte), the intercept the per-message cost (ns: nonce,
key schedule, tag, call overhead). Pure: points in, numbers out.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

#: Sizes below this are dominated by per-message cost and left out of the fit.
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
