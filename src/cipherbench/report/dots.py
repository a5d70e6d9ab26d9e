# SPDX-License-Identifier: GPL-3.0-or-later
"""Dot charts of throughput (the release-post charts of ``report.post``).

One row per algorithm, one dot per series (library and version): dots that would cover each
other are moved apart vertically within their row, never along the value axis. The axis
(``chart.axis``, from ``report.axis``) is logarithmic only where the range demands it, with
several labelled ticks (1-2-5 per decade when the range allows) in decimal rate units; else
linear from zero, the outliers drawn at its end (a right-pointing marker and their value).
With ``pairs`` each dot is joined to its hollow twin (the same point with the CPU features
off) and the factor between them is written beside; with a reference series each other dot
has its factor against it beside. A series too imprecise to rank is hollow; a hardware-off
setting beside others half filled. The caption (machine, versions, commands) closes it.
Sized to be read at 800 px wide (8 inches at 100 dpi, no font under 8 points).
"""
from __future__ import annotations

import math
import textwrap

from matplotlib import rc_context
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import (FixedLocator, FuncFormatter, LogLocator, MaxNLocator,
                               NullFormatter)

from cipherbench.report.axis import AxisPlan
from cipherbench.report.charts import GRID, MUTED, STYLE, TEXT, _new, colour_of
from cipherbench.report.post import Dot, DotChart, Panel, SeriesStyle

MARKERS = ("o", "s", "D", "^", "v", "P")
#: The Go core's library is a triangle, the Rust core's are squares and diamonds.
LIB_MARKER = {"go": "^", "ring": "s", "rustcrypto": "s", "aws-lc": "D"}
ROW_IN = 0.30          # height of a row holding one line of dots (inches)
SLOT_IN = 0.085        # vertical step between dots moved apart
DOT_IN = 0.085         # a dot's diameter
PANEL_W = {1: 6.3, 2: 3.3, 3: 2.1}   # width of a panel's axes by the number of columns
FONT = 8.5             # labels and factors; the title is larger, nothing smaller than 8
SMALL = 8.0


def rate_text(v: float) -> str:
    """``500 MB/s``, ``1.5 GB/s``: a tick label."""
    for scale, unit in ((1e9, "GB/s"), (1e6, "MB/s"), (1e3, "kB/s")):
        if v >= scale * 0.999:
            return f"{v / scale:g} {unit}"
    return f"{v:g} B/s"


#: Tick multipliers per decade, finest first.
TICK_STEPS = ((1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9), (1, 1.5, 2, 3, 5, 7), (1, 2, 5),
              (1, 3), (1,))


def ticks(lo: float, hi: float, at_most: int = 10) -> list[float]:
    """Labelled ticks between ``lo`` and ``hi``: the finest of 1-2-5, 1-3 or 1 per decade
    (or finer, on a narrow range) that gives no more than ``at_most``, and at least two."""
    best: list[float] = []
    for mults in TICK_STEPS:
        out = [m * 10.0 ** e for e in range(math.floor(math.log10(lo)) - 1,
                                            math.ceil(math.log10(hi)) + 1)
               for m in mults if lo <= m * 10.0 ** e <= hi]
        if len(out) <= at_most and len(out) >= 2:
            return out
        if len(out) >= 2:
            best = out
    return best


def _place(items: list[tuple[float, float]], gap: float) -> list[int]:
    """Slots (0, -1, 1, -2, 2, ...) for items given as (left, right) in log10 units, so that
    no two items in one slot come closer than ``gap``."""
    taken: dict[int, list[tuple[float, float]]] = {}
    out = [0] * len(items)
    order = sorted(range(len(items)), key=lambda i: items[i][0])
    for i in order:
        left, right = items[i]
        k = 0
        while True:
            for slot in ((0,) if k == 0 else (-k, k)):
                if all(right + gap <= l or left >= r + gap for l, r in taken.get(slot, [])):
                    taken.setdefault(slot, []).append((left, right))
                    out[i] = slot
                    break
            else:
                k += 1
                continue
            break
    return out


def axis_of(chart: DotChart) -> AxisPlan:
    """The chart's axis (planned by ``post.build``; planned here for a chart built by
    hand)."""
    if chart.axis is None:
        from cipherbench.report import axis
        chart.axis = axis.plan(chart)
    return chart.axis


class Scale:
    """Values to fractions of the axis's width, for laying dots out before drawing."""

    def __init__(self, ax: AxisPlan):
        self.ax = ax

    def __call__(self, v: float) -> float:
        a = self.ax
        v = a.shown(v)
        if a.log:
            return (math.log10(v) - math.log10(a.lo)) / (math.log10(a.hi) - math.log10(a.lo))
        return (v - a.lo) / (a.hi - a.lo)


def factor_text(f: float) -> str:
    """``2.3\u00d7``, ``1.03\u00d7``, ``31\u00d7``, ``0.37\u00d7``."""
    return f"{f:.3g}\u00d7" if f < 10 else f"{f:.0f}\u00d7"


def draw(chart: DotChart) -> Figure:
    """The chart as a Figure."""
    with rc_context(STYLE):
        ax_plan = axis_of(chart)
        scale = Scale(ax_plan)
        cols = chart.columns
        panel_w = PANEL_W.get(cols, 2.2)
        # Panels side by side share their rows (one set of labels) unless each has its own.
        shared = cols > 1 and len({tuple(p.rows) for p in chart.panels}) == 1
        label_w = 1.35
        # where every dot goes, before the size of the figure is known
        layout = [_layout(chart, p, DOT_IN / panel_w, 1 / panel_w, scale)
                  for p in chart.panels]
        if shared:
            common = [max(h) for h in zip(*(rows_h for rows_h, _ in layout))]
            layout = [(common, slots) for _, slots in layout]
        heights = [sum(rows_h) for rows_h, _ in layout]
        grid_rows = math.ceil(len(chart.panels) / cols)
        row_heights = [max(heights[r * cols:(r + 1) * cols]) for r in range(grid_rows)]
        left_w = [label_w if (c == 0 or not shared) else 0.15 for c in range(cols)]
        width = sum(left_w) + cols * panel_w + 0.3
        n_legend = len(chart.series) if not chart.pairs else 2
        legend_lines = math.ceil(n_legend / _legend_cols(chart, width))
        notes = footer_lines(chart, width)
        sub = subtitle_lines(chart, width)
        head = 0.62 + 0.17 * (len(sub) - 1) + 0.21 * legend_lines + 0.15
        panel_title = 0.3 if any(p.title for p in chart.panels) else 0.05
        foot = 0.55 + 0.165 * len(notes)
        band = [h + panel_title + 0.42 for h in row_heights]
        height = head + sum(band) + foot - 0.42
        fig = _new(width, height)
        top = height - head
        for i, (p, (rows_h, slots)) in enumerate(zip(chart.panels, layout)):
            r, c = divmod(i, cols)
            y0 = top - sum(band[:r]) - panel_title
            h = sum(rows_h)
            x0 = 0.1 + sum(left_w[:c + 1]) + c * panel_w
            ax = fig.add_axes((x0 / width, (y0 - h) / height, (panel_w - 0.25) / width,
                               h / height))
            _panel(ax, chart, p, rows_h, slots, ax_plan,
                   last_row=(r == grid_rows - 1 or i + cols >= len(chart.panels)),
                   labels=(c == 0 or not shared), at_most=max(3, int(panel_w / 0.6)))
        _header(fig, chart, width, height)
        for k, (line, muted) in enumerate(notes):
            fig.text(0.2 / width, (foot - 0.55 - 0.165 * k) / height, line, ha="left",
                     va="top", fontsize=SMALL, color=MUTED if muted else TEXT)
    return fig


def subtitle_lines(chart: DotChart, width: float) -> list[str]:
    """The subtitle wrapped to the figure's width."""
    return textwrap.wrap(chart.subtitle, int(width * 13.5)) or [""]


def footer_lines(chart: DotChart, width: float) -> list[tuple[str, bool]]:
    """The notes, then the caption, wrapped to the figure's width: (line, muted)."""
    chars = int(width * 13.5)
    out = [(line, True) for n in chart.notes for line in textwrap.wrap(n, chars)]
    out += [(line, False) for n in chart.caption
            for line in textwrap.wrap(n, chars, subsequent_indent="    ")]
    return out


def _overlap(a: tuple, b: tuple) -> bool:
    """True when two intervals (low, high) overlap; False when either is unknown."""
    if None in a or None in b:
        return False
    return a[0] <= b[1] and b[0] <= a[1]


def _legend_cols(chart: DotChart, width: float) -> int:
    """As many columns as the longest label lets fit in the figure's width."""
    if chart.pairs:
        return 2
    longest = max([len(_legend_label(s)) for s in chart.series] + [8])
    return max(1, min(len(chart.series), int((width - 0.4) / (0.4 + longest * 0.066))))


def _legend_label(st: SeriesStyle) -> str:
    return st.label + (" (reference)" if st.baseline else "") + \
        (" (too imprecise to rank)" if st.unreliable else "")


def _text_in(text: str) -> float:
    """The width of a factor or value written beside a dot, in inches."""
    return 0.08 + 0.068 * len(text)


def _side_text(chart: DotChart, d: Dot, ax: AxisPlan) -> str:
    """What is written right of a dot: its factor, or its value when capped."""
    parts = []
    if ax.cap is not None and max(d.value, d.off or 0) > ax.cap:
        parts.append(rate_text(d.value))
    if d.factor is not None:
        parts.append(("~" if d.factor_unsure else "") + factor_text(d.factor))
    return " ".join(parts)


def _layout(chart: DotChart, p: Panel, gap: float, per_in: float, scale: Scale
            ) -> tuple[list[float], dict[tuple[str, str], int]]:
    """Per row its height (inches) and per dot its slot."""
    heights, slots = [], {}
    ax = scale.ax
    for row in p.rows:
        keys = [k for k in p.dots if k[0] == row]
        items = []
        for k in keys:
            d = p.dots[k]
            left = scale(min(d.value, d.off or d.value))
            right = scale(min(max(x for x in (d.value, d.off, d.high, d.off_high) if x),
                              max(d.value, d.off or 0) * 1.5))
            text = _side_text(chart, d, ax)
            if text:
                right += _text_in(text) * per_in
            items.append((left, right))
        placed = _place(items, gap) if not chart.pairs else [0] * len(items)
        for k, s in zip(keys, placed):
            slots[k] = s
        spread = (max(placed) - min(placed)) if placed else 0
        heights.append(ROW_IN + SLOT_IN * spread)
    return heights, slots


def _panel(ax, chart: DotChart, p: Panel, rows_h: list[float], slots: dict, plan: AxisPlan,
           last_row: bool, labels: bool, at_most: int) -> None:
    # y in inches from the top of the panel, downwards
    total = sum(rows_h)
    centres, y = [], 0.0
    for i, (row, h) in enumerate(zip(p.rows, rows_h)):
        keys = [k for k in p.dots if k[0] == row]
        mid = [slots[k] for k in keys] or [0]
        centre = y + h / 2 - SLOT_IN * (max(mid) + min(mid)) / 2
        centres.append(centre)
        if i % 2 == 1:
            ax.axhspan(y, y + h, color="#f4f4f4", zorder=0, lw=0)
        y += h
    ax.set_ylim(total, 0)
    if plan.log:
        ax.set_xscale("log")
    ax.set_xlim(plan.lo, plan.hi)
    shown = plan.shown
    styles = {s.key: s for s in chart.series}
    for row, centre in zip(p.rows, centres):
        for k, d in ((k, d) for k, d in p.dots.items() if k[0] == row):
            st = styles[k[1]]
            yy = centre + SLOT_IN * slots[k]
            col = _shade(colour_of(st.lib), st.variant)
            marker = marker_of(st)
            capped = plan.cap is not None and d.value > plan.cap
            if d.low and d.high:
                ax.plot([shown(d.low), shown(d.high)], [yy, yy], color=col, lw=1.1, alpha=0.8,
                        zorder=3, solid_capstyle="butt")
            if chart.pairs and d.off:
                ax.plot([shown(d.off), shown(d.value)], [yy, yy], color=col, lw=1.4,
                        alpha=0.45, zorder=2)
                ax.plot([shown(d.off)], [yy], marker, ms=5.5, mfc="white", mec=col, mew=1.3,
                        zorder=4)
            text = _side_text(chart, d, plan)
            if text:
                right = shown(min(max(x for x in (d.value, d.off, d.high, d.off_high) if x),
                                  max(d.value, d.off or 0) * 1.5))
                at = right * 1.12 if plan.log else right + (plan.hi - plan.lo) * 0.012
                unsure = d.factor is not None and d.factor_unsure
                ax.text(at, yy, text, va="center", ha="left", fontsize=FONT,
                        color=MUTED if unsure else (col if not chart.pairs else TEXT))
            fill = "full"
            mfc = col
            if st.unreliable and not chart.pairs:
                mfc = "white"
            elif st.hw_off and not chart.pairs:
                fill = "bottom"
            ax.plot([shown(d.value)], [yy], ">" if capped else marker, ms=6 if capped else 5.5,
                    color=col, mfc=mfc, mec=col, fillstyle=fill, markerfacecoloralt="white",
                    mew=1.3, zorder=5)
    ax.set_yticks(centres)
    ax.set_yticklabels(p.rows if labels else [], fontsize=FONT)
    ax.tick_params(axis="y", length=0)
    if plan.log:
        tk = ticks(plan.lo, plan.hi, at_most)
        ax.xaxis.set_major_locator(FixedLocator(tk))
        ax.xaxis.set_minor_locator(LogLocator(subs="all"))
        ax.xaxis.set_minor_formatter(NullFormatter())
    else:
        ax.xaxis.set_major_locator(MaxNLocator(nbins=max(3, at_most - 2), steps=[1, 2, 2.5, 5,
                                                                              10]))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _p: rate_text(v) if v > 0 else "0"))
    ax.tick_params(axis="x", which="major", labelsize=SMALL, labelrotation=0)
    ax.tick_params(axis="x", which="minor", length=2, color="#bbbbbb")
    ax.xaxis.grid(True, which="major", color=GRID, zorder=1)
    ax.set_axisbelow(True)
    ax.spines["left"].set_visible(False)
    if plan.cap is not None:
        ax.axvline(plan.cap, color="#bbbbbb", lw=0.8, ls=(0, (2, 2)), zorder=1)
    if p.title:
        ax.set_title(p.title, loc="left", fontsize=9, color=TEXT, pad=4)
    if last_row:
        ax.set_xlabel("throughput (" + ("log scale" if plan.log else "linear scale")
                      + "; right is faster)", fontsize=SMALL, color=MUTED)


def _header(fig: Figure, chart: DotChart, width: float, height: float) -> None:
    fig.text(0.2 / width, 1 - 0.08 / height, chart.title, ha="left", va="top", fontsize=11.5,
             fontweight="bold", color=TEXT)
    sub = subtitle_lines(chart, width)
    fig.text(0.2 / width, 1 - 0.36 / height, "\n".join(sub), ha="left", va="top",
             fontsize=SMALL, color=MUTED, linespacing=1.4)
    fig.legend(handles=legend_handles(chart), loc="upper left",
               bbox_to_anchor=(0.15 / width, 1 - (0.58 + 0.17 * (len(sub) - 1)) / height),
               ncol=_legend_cols(chart, width), fontsize=FONT, handletextpad=0.3,
               columnspacing=1.2, borderaxespad=0)


def legend_handles(chart: DotChart, marker_for=None) -> list[Line2D]:
    """One entry per series (filled; hollow when too imprecise; half filled when its
    hardware is off), or for pairs the filled and the hollow dot."""
    if chart.pairs:
        grey = "#555555"
        return [Line2D([], [], ls="none", marker="o", ms=6, color=grey, label=chart.on_label),
                Line2D([], [], ls="none", marker="o", ms=6, mfc="white", mec=grey, mew=1.3,
                       label=chart.off_label)]
    out = []
    for st in chart.series:
        col = _shade(colour_of(st.lib), st.variant)
        out.append(Line2D([], [], ls="none", marker=(marker_for or marker_of)(st), ms=6,
                          color=col, mfc="white" if st.unreliable else col, mec=col,
                          fillstyle="bottom" if st.hw_off and not st.unreliable else "full",
                          markerfacecoloralt="white", mew=1.3, label=_legend_label(st)))
    return out


def marker_of(st: SeriesStyle) -> str:
    """The library's marker for its first setting, another for each further one."""
    base = LIB_MARKER.get(st.lib, "o")
    if st.variant == 0:
        return base
    others = [m for m in MARKERS if m != base]
    return others[(st.variant - 1) % len(others)]


def _shade(colour: str, variant: int) -> str:
    """The library's colour, darker for its second setting, lighter for its third."""
    if variant == 0:
        return colour
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    f = (0.6, 1.35, 0.8, 1.15)[(variant - 1) % 4]
    if f < 1:
        r, g, b = (int(x * f) for x in (r, g, b))
    else:
        r, g, b = (int(x + (255 - x) * (f - 1) * 1.5) for x in (r, g, b))
    return f"#{r:02x}{g:02x}{b:02x}"
