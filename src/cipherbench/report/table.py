# SPDX-License-Identifier: GPL-3.0-or-later
"""The numbers of a post chart as CSV (pure): one line per dot, written beside its image."""
from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cipherbench.report.post import DotChart

HEADER = ["chart", "panel", "row", "series", "library", "version", "op", "size_bytes",
          "bytes_per_s", "low", "high", "off_bytes_per_s", "off_low", "off_high", "factor",
          "factor_low", "factor_high", "reference", "capped", "hollow", "runs"]


def _num(x: float | None) -> str:
    return "" if x is None else f"{x:.6g}"


def csv_text(chart: "DotChart") -> str:
    """Every dot of ``chart``: its value and interval in bytes per second, the same with the
    features off (aes-hw), the factor with its interval, and what the chart says of it."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(HEADER)
    styles = {s.key: s for s in chart.series}
    ref = styles[chart.baseline].label if chart.baseline else ("features off" if chart.pairs
                                                               else "")
    cap = chart.axis.cap if chart.axis else None
    for p in chart.panels:
        for row in p.rows:
            for (r, key), d in p.dots.items():
                if r != row:
                    continue
                st = styles[key]
                w.writerow([chart.name, p.title, row, st.label, st.lib, st.version, chart.op,
                            chart.size, _num(d.value), _num(d.low), _num(d.high), _num(d.off),
                            _num(d.off_low), _num(d.off_high), _num(d.factor),
                            _num(d.factor_low), _num(d.factor_high), ref,
                            "yes" if cap is not None and max(d.value, d.off or 0) > cap else "",
                            "yes" if st.unreliable else "",
                            " ".join(map(str, d.runs))])
    return out.getvalue()
