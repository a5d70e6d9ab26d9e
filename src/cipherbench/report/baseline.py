# SPDX-License-Identifier: GPL-3.0-or-later
"""The reference series of a post chart and each dot's factor against it (pure).

``--baseline SERIES`` names a series by its label (``libgcrypt 1.10.1``), its library when
that library has one series (``nettle``), or a prefix of one label; without it, a chart in
which exactly one library has several settings (an old and a new build, a variant column
``libgcrypt@noasm`` counting as libgcrypt) takes the oldest of them (the first drawn on a
tie). Each other dot in a row the reference has gets ``factor`` = its speed / the
reference's, with the interval ``[low / ref high, high / ref low]`` (the factor is not told
apart from 1 when that interval holds 1: drawn ``~`` and grey).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from cipherbench.report.evidence import version_key

if TYPE_CHECKING:
    from cipherbench.report.post import DotChart


def _plain(label: str) -> str:
    """A label without its runs: ``libgcrypt 1.10.1 (run 3)`` -> ``libgcrypt 1.10.1``."""
    return label.split(" (run")[0].strip().lower()


def resolve(chart: "DotChart", wanted: str | None) -> str | None:
    """The key of the reference series (None: the chart has none). Raises ``BadBaseline``
    when ``wanted`` names no series, or more than one."""
    from cipherbench.report.post import BadBaseline
    series = chart.series
    if wanted is None:
        by_lib: dict[str, list] = {}
        for st in series:
            by_lib.setdefault(st.lib.split("@")[0], []).append(st)
        several = [sts for sts in by_lib.values() if len(sts) > 1]
        if len(several) != 1:
            return None
        return min(several[0], key=lambda st: version_key(st.version)).key
    w = wanted.strip().lower()
    for test in (lambda st: _plain(st.label) == w or st.label.lower() == w,
                 lambda st: st.lib.lower() == w,
                 lambda st: _plain(st.label).startswith(w)):
        hits = [st for st in series if test(st)]
        if len(hits) == 1:
            return hits[0].key
        if len(hits) > 1:
            raise BadBaseline(f"--baseline {wanted}: names {len(hits)} series ("
                              + "; ".join(_plain(st.label) for st in hits)
                              + "): give the whole label")
    raise BadBaseline(f"--baseline {wanted}: no such series in this chart; its series: "
                      + "; ".join(_plain(st.label) for st in series))


def apply(chart: "DotChart", key: str) -> None:
    """Each dot's factor against the reference series ``key`` in its row; the reference's
    legend entry and a note say which it is."""
    ref = next(st for st in chart.series if st.key == key)
    ref.baseline = True
    chart.baseline = key
    for p in chart.panels:
        for (row, k), d in p.dots.items():
            base = p.dots.get((row, key))
            if k == key or base is None:
                continue
            d.factor = d.value / base.value
            if (d.low is not None and d.high is not None and base.low is not None
                    and base.high is not None):
                d.factor_low, d.factor_high = d.low / base.high, d.high / base.low
    chart.notes.insert(0, f"the factor beside each dot: its speed over {_plain(ref.label)}'s "
                          "in the same row (above 1: faster); ~ and grey where the two "
                          "intervals overlap")
