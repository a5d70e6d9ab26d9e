# SPDX-License-Identifier: GPL-3.0-or-later
"""CSV export: one line per result, the columns a spreadsheet wants; ``host`` is the machine
measured (the ``--host`` destination, else its host name)."""
from __future__ import annotations

import csv
import io


from cipherbench.export.base import RunBundle, result_grade

COLUMNS = ["run_id", "scenario", "lib", "algo", "op", "size", "metric", "unit", "median",
           "ci_low", "ci_high", "n_samples", "cv", "grade", "bytes_per_s", "cycles_per_byte", "host"]


def _num(x: float | None) -> str:
    return "" if x is None else repr(float(x)) if isinstance(x, float) else str(x)


class CsvExporter:
    """``--format csv``."""

    name = "csv"
    extension = "csv"

    def render(self, bundle: RunBundle, headline: int = 16384) -> str:
        """Header line, then the results in stored order."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(COLUMNS)
        m = bundle.run.metadata
        host = m.get("host") or m.get("hostname") or ""   # the ssh destination, else the name
        for r in bundle.results:
            w.writerow([bundle.run.id, r.scenario, r.lib, r.algo, r.op,
                        "" if r.size is None else r.size, r.metric, r.unit, _num(r.median),
                        _num(r.ci_low), _num(r.ci_high), r.n_samples, _num(r.cv),
                        result_grade(r), _num(r.extra.get("bytes_per_s")),
                        _num(r.extra.get("cycles_per_byte")), host])
        return buf.getvalue()
