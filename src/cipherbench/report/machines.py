# SPDX-License-Identifier: GPL-3.0-or-later
"""The page's section of machines side by side: the machine x candidate table, the fleet's
sentence and the config lines per group (``advise.fleet``), and a chart of the candidates'
rates with one bar per machine. Each machine is its own series, its rates from its own
runs: a ``run --host`` run never joins this machine's bars."""
from __future__ import annotations

from collections.abc import Sequence
from html import escape

from cipherbench.advise import fleet as F
from cipherbench.report import data as D
from cipherbench.report import html_page as H
from cipherbench.units import format_rate


def bars(answers: Sequence[F.MachineAnswer], colours: Sequence[str]) -> D.Bars:
    """The chart's data: candidates along x, one bar per machine measured (each in its own
    colour, in table order)."""
    table = F.machine_table(answers)
    values = {(row.machine, col): rate for row in table.rows
              for col, rate in zip(table.columns, row.rates) if rate is not None}
    series = [row.machine for row in table.rows if any(r is not None for r in row.rates)]
    runs = sorted({i for row in table.rows for i in row.runs})
    return D.Bars(
        key=f"machines-{table.target}",
        title=f"{table.target}: the fastest choices on each machine",
        subtitle="each machine's own runs (" + ", ".join(map(str, runs)) + "); the "
                 "rates its answer was decided on",
        ylabel="", groups=list(table.columns), series=series, values=values,
        colours={m: colours[i % len(colours)] for i, m in enumerate(series)})


def section_parts(answers: Sequence[F.MachineAnswer]) -> list[str]:
    """The HTML before and after the chart: the sentence, the table, the groups' lines."""
    table = F.machine_table(answers)
    summary = F.summarize(answers)
    hosts = {a.machine.name: a.machine.host for a in answers}
    rows = [[(r.machine, r.machine),
             *((("-", 0.0) if x is None else (format_rate(x), x)) for x in r.rates),
             (r.use, r.use), (r.against_default, r.against_default),
             (", ".join(map(str, r.runs)) or "none", r.runs[0] if r.runs else 0)]
            for r in table.rows]
    parts = [f"<p><strong>{escape(F.sentence(summary))}</strong></p>",
             H.table(["machine", *table.columns, "use", "against its default", "runs"], rows,
                     numeric=tuple(range(1, 1 + len(table.columns))))]
    for a in answers:
        if a.verdict.state == "not measured":
            parts.append(f"<p class=muted>not measured: {escape(a.machine.name)}: run "
                         f"<code>{escape(a.verdict.remedy)}</code></p>")
    for g in summary.groups:
        if g.lines and g.state not in ("not measured", "none allowed"):
            text = "\n".join(F.fill(g.lines, g.machines, hosts))
            parts.append(f"<p class=muted>config for {escape(', '.join(g.machines))} "
                         f"({escape(str(g.choice))})</p><pre>{escape(text)}</pre>")
    return parts
