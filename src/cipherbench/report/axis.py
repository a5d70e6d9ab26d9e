# SPDX-License-Identifier: GPL-3.0-or-later
"""The value axis of a post chart (pure): linear or logarithmic, and which dots are capped.

A few rows far faster than the rest (a CRC among hashes, AES with its instructions among
the other block ciphers) would squeeze every other row into a corner of a linear axis. So:

1. The rows ranked by their fastest dot: where a row is more than ``OUTLIER`` times the next
   one, and the rows above that gap are at most a fifth of them, those rows are outliers:
   the axis stops at ``cap`` (a round number above everything else) and their dots are
   drawn at the cap, marked, their values written (and named in a note:
   ``crc32 13 GB/s (openssl 3.0.19)``).
2. What is left decides the scale: a dot chart goes logarithmic only when its largest value
   is more than ``LOG_RANGE`` times its smallest (``auto``); then nothing is capped (a log
   axis holds every value). Bars always stand on a linear axis from zero (a bar's length is
   its value).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cipherbench.report.post import DotChart

#: A row whose fastest dot is this many times the median row's is an outlier.
OUTLIER = 3.0
#: Outliers are capped only when they are at most this share of the rows.
OUTLIER_SHARE = 0.2
#: ``auto``: a dot chart is drawn on a log axis when its values span more than this factor.
LOG_RANGE = 25.0


@dataclass
class AxisPlan:
    """The axis: ``log`` or linear from zero, its limits, the cap (None: nothing capped)
    and what was capped, one text each."""

    log: bool
    lo: float
    hi: float
    cap: float | None = None
    capped: list[str] = field(default_factory=list)

    def shown(self, value: float) -> float:
        """Where a value is drawn: at the cap when beyond it."""
        return min(value, self.cap) if self.cap is not None else value


def _nice_above(x: float) -> float:
    """The smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of ten at or above x."""
    e = math.floor(math.log10(x))
    for m in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if m * 10 ** e >= x * 0.999:
            return m * 10 ** e
    return 10 ** (e + 1)


def plan(chart: "DotChart", style: str = "dots", axis: str = "auto") -> AxisPlan:
    """The axis of ``chart`` for ``style`` (dots or bars) and ``axis`` (auto, log,
    linear)."""
    from cipherbench.report.dots import rate_text
    rows: dict[tuple[int, str], float] = {}
    values = []
    for i, p in enumerate(chart.panels):
        for (row, _), d in p.dots.items():
            v = max(x for x in (d.value, d.off) if x)
            rows[(i, row)] = max(rows.get((i, row), 0.0), v)
            values += [x for x in (d.value, d.off) if x]
    lo, hi = min(values), max(values)
    if axis == "log":
        return AxisPlan(True, lo / 1.35, hi * _room(chart, True))
    out: set[tuple[int, str]] = set()
    if len(rows) >= 4:
        ranked = sorted(rows, key=lambda k: -rows[k])
        for n in range(1, max(1, int(OUTLIER_SHARE * len(rows))) + 1):
            if rows[ranked[n - 1]] > OUTLIER * rows[ranked[n]]:
                out = set(ranked[:n])       # the first wide gap from the top
                break
    rest = max(v for k, v in rows.items() if k not in out)
    if axis == "auto" and style == "dots" and rest / lo > LOG_RANGE:
        # what is left still spans too much for a linear axis: log, nothing capped
        return AxisPlan(True, lo / 1.35, hi * _room(chart, True))
    if not out:
        return AxisPlan(False, 0.0, hi * _room(chart, False))
    cap = _nice_above(rest * 1.15)
    labels = {s.key: s.label for s in chart.series}
    capped = []
    for i, p in enumerate(chart.panels):
        for (row, key), d in p.dots.items():
            if (i, row) in out and max(x for x in (d.value, d.off) if x) > cap:
                who = labels.get(key, key)
                capped.append(f"{row} {rate_text(d.value)}"
                              + (f" ({who})" if len(chart.series) > 1 else ""))
    return AxisPlan(False, 0.0, cap * _room(chart, False), cap, capped)


def _room(chart: "DotChart", log: bool) -> float:
    """Room right of the fastest dot for the text written beside it (factors, capped
    values)."""
    if log:
        return 2.4 if chart.factors else 1.35
    return 1.3 if chart.factors else 1.12
