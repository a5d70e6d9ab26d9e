# SPDX-License-Identifier: GPL-3.0-or-later
"""The post charts as grouped bars on a linear axis (``report --chart NAME --style bars``).

One group per algorithm, one horizontal bar per series (the same slot for a series in every
group), each bar's 95% interval as a whisker; a bar beyond the axis's cap (``report.axis``)
ends at the cap with a marker and its value. With a reference series the factor against it
is written at each bar's end (``~`` and grey where the intervals overlap); for aes-hw each
library's bar with the features on is followed by a pale one with them off and the factor.
The header, legend, notes and caption are the dot chart's (``report.dots``).
"""
from __future__ import annotations

import math

from matplotlib import rc_context
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, MaxNLocator

from cipherbench.report import dots as D
from cipherbench.report.charts import GRID, MUTED, STYLE, TEXT, _new, colour_of
from cipherbench.report.post import DotChart, Panel

BAR_IN = 0.15        # the height of one bar's slot (inches)
GROUP_PAD_IN = 0.12  # space between groups


def draw(chart: DotChart) -> Figure:
    """The chart as grouped bars."""
    with rc_context(STYLE):
        plan = D.axis_of(chart)
        cols = chart.columns
        panel_w = D.PANEL_W.get(cols, 2.2)
        shared = cols > 1 and len({tuple(p.rows) for p in chart.panels}) == 1
        slots = 2 if chart.pairs else len(chart.series)
        heights = [len(p.rows) * (slots * BAR_IN + GROUP_PAD_IN) for p in chart.panels]
        grid_rows = math.ceil(len(chart.panels) / cols)
        row_heights = [max(heights[r * cols:(r + 1) * cols]) for r in range(grid_rows)]
        label_w = 1.35
        left_w = [label_w if (c == 0 or not shared) else 0.15 for c in range(cols)]
        width = sum(left_w) + cols * panel_w + 0.3
        n_legend = len(chart.series) if not chart.pairs else 2
        legend_lines = math.ceil(n_legend / D._legend_cols(chart, width))
        notes = D.footer_lines(chart, width)
        head = 0.62 + 0.17 * (len(D.subtitle_lines(chart, width)) - 1) + 0.21 * legend_lines \
            + 0.15
        panel_title = 0.3 if any(p.title for p in chart.panels) else 0.05
        foot = 0.55 + 0.165 * len(notes)
        band = [h + panel_title + 0.42 for h in row_heights]
        height = head + sum(band) + foot - 0.42
        fig = _new(width, height)
        top = height - head
        for i, p in enumerate(chart.panels):
            r, c = divmod(i, cols)
            y0 = top - sum(band[:r]) - panel_title
            h = heights[i]
            x0 = 0.1 + sum(left_w[:c + 1]) + c * panel_w
            ax = fig.add_axes((x0 / width, (y0 - h) / height, (panel_w - 0.25) / width,
                               h / height))
            _panel(ax, chart, p, slots, plan,
                   last_row=(r == grid_rows - 1 or i + cols >= len(chart.panels)),
                   labels=(c == 0 or not shared), at_most=max(3, int(panel_w / 0.6)))
        D._header(fig, chart, width, height)
        for k, (line, muted) in enumerate(notes):
            fig.text(0.2 / width, (foot - 0.55 - 0.165 * k) / height, line, ha="left",
                     va="top", fontsize=D.SMALL, color=MUTED if muted else TEXT)
    return fig


def _panel(ax, chart: DotChart, p: Panel, slots: int, plan, last_row: bool, labels: bool,
           at_most: int) -> None:
    group = slots * BAR_IN + GROUP_PAD_IN
    ax.set_ylim(len(p.rows) * group, 0)
    ax.set_xlim(0, plan.hi)
    shown = plan.shown
    order = {s.key: i for i, s in enumerate(chart.series)}
    styles = {s.key: s for s in chart.series}
    centres = []
    for g, row in enumerate(p.rows):
        top = g * group + GROUP_PAD_IN / 2
        centres.append(top + slots * BAR_IN / 2)
        if g % 2 == 1:
            ax.axhspan(g * group, (g + 1) * group, color="#f4f4f4", zorder=0, lw=0)
        for (r, key), d in p.dots.items():
            if r != row:
                continue
            st = styles[key]
            col = D._shade(colour_of(st.lib), st.variant)
            bars = [(d.value, d.low, d.high, False)]
            if chart.pairs and d.off:
                bars.append((d.off, d.off_low, d.off_high, True))
            for j, (v, lo, hi, is_off) in enumerate(bars):
                slot = j if chart.pairs else order[key]
                y = top + (slot + 0.5) * BAR_IN
                pale = is_off or (st.unreliable and not chart.pairs)
                ax.barh(y, shown(v), height=BAR_IN * 0.82, color="white" if pale else col,
                        edgecolor=col, linewidth=1.0, hatch="////" if st.hw_off and not
                        chart.pairs else None, zorder=3)
                if lo and hi:
                    ax.plot([shown(lo), shown(hi)], [y, y], color=TEXT, lw=0.9, alpha=0.7,
                            zorder=4, solid_capstyle="butt")
                if plan.cap is not None and v > plan.cap:
                    ax.plot([plan.cap], [y], ">", ms=5, color=col, zorder=5)
                if j == 0:
                    text = D._side_text(chart, d, plan)
                    if text:
                        end = shown(max(x for x in (v, hi) if x))
                        unsure = d.factor is not None and d.factor_unsure
                        ax.text(end + plan.hi * 0.012, y, text, va="center", ha="left",
                                fontsize=D.SMALL, color=MUTED if unsure else TEXT, zorder=6)
    ax.set_yticks(centres)
    ax.set_yticklabels(p.rows if labels else [], fontsize=D.FONT)
    ax.tick_params(axis="y", length=0)
    ax.xaxis.set_major_locator(MaxNLocator(nbins=max(3, at_most - 2), steps=[1, 2, 2.5, 5, 10]))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _p: D.rate_text(v) if v > 0 else "0"))
    ax.tick_params(axis="x", labelsize=D.SMALL)
    ax.xaxis.grid(True, color=GRID, zorder=1)
    ax.set_axisbelow(True)
    ax.spines["left"].set_visible(False)
    if plan.cap is not None:
        ax.axvline(plan.cap, color="#bbbbbb", lw=0.8, ls=(0, (2, 2)), zorder=1)
    if p.title:
        ax.set_title(p.title, loc="left", fontsize=9, color=TEXT, pad=4)
    if last_row:
        ax.set_xlabel("throughput (linear scale; longer is faster)", fontsize=D.SMALL,
                      color=MUTED)


def render(chart: DotChart) -> Figure:
    """The chart in its own style: bars here, dots otherwise."""
    return draw(chart) if chart.style == "bars" else D.draw(chart)
