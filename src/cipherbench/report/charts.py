# SPDX-License-Identifier: GPL-3.0-or-later
"""Charts with matplotlib (Agg, no display needed): one function per chart type, each taking
the plain data of ``report.data`` (or a ``compare.Comparison``) and returning a Figure.

Style: a title that says what, a grey subtitle that says where (machine, run, date), units on
the axes, one colour per library that is the same in every chart, light grid lines only
where they help read values, no frames, no 3-D, no decoration.
"""
from __future__ import annotations

import io
import math
import re
from typing import TYPE_CHECKING, Any

import matplotlib

matplotlib.use("Agg")
from matplotlib import rc_context  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator  # noqa: E402

from cipherbench import compare as cmpmod  # noqa: E402
from cipherbench.report.data import (LIB_ORDER, Bars, PathBars, SizeLines,  # noqa: E402
                                     _size_text, format_rate, lib_sort_key)

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

#: Tableau's ten colours: distinct, legible on white, reasonably colour-blind safe in pairs.
PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
           "#ff9da7", "#9c755f", "#bab0ac")
EXTRA = ("#2f4b7c", "#a05195", "#665191", "#d45087", "#003f5c")
#: The Go and Rust cores' libraries: colours apart from the palette's.
EXTRA_COLOUR = {"go": "#17becf", "ring": "#393b79", "rustcrypto": "#b7410e", "aws-lc": "#8c6d31"}
GRADE_COLOUR = {"recommended": "#2166ac", "acceptable": "#67a9cf", "legacy": "#ef8a62",
                "broken": "#b2182b", "reference": "#555555", "unknown": "#8c8c8c", "": "#8c8c8c"}
MARK_COLOUR = {cmpmod.FASTER: "#2166ac", cmpmod.SLOWER: "#d6604d", cmpmod.SAME: "#8c8c8c",
               cmpmod.UNKNOWN: "#c7c7c7"}
TEXT = "#222222"
MUTED = "#666666"
GRID = "#e6e6e6"

STYLE: dict[RcKeyType, Any] = {
    "font.size": 9,
    "font.family": "DejaVu Sans",
    "axes.edgecolor": "#999999",
    "axes.labelcolor": TEXT,
    "axes.titlesize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "xtick.color": "#444444",
    "ytick.color": "#444444",
    "legend.frameon": False,
    "svg.fonttype": "none",        # text stays text in the SVG: small and selectable
    "svg.hashsalt": "cipherbench",  # stable element ids, so reports are reproducible
    "figure.dpi": 100,
}


def colour_of(lib: str) -> str:
    """The colour of a library, the same in every chart."""
    if lib in LIB_ORDER:
        return PALETTE[LIB_ORDER.index(lib)]
    if lib in EXTRA_COLOUR:
        return EXTRA_COLOUR[lib]
    return EXTRA[sum(map(ord, lib)) % len(EXTRA)]


def _rate_scale(max_bps: float) -> tuple[float, str]:
    for scale, unit in ((1e9, "GB/s"), (1e6, "MB/s"), (1e3, "kB/s")):
        if max_bps >= scale:
            return scale, unit
    return 1.0, "B/s"


def _titles(fig: Figure, title: str, subtitle: str) -> None:
    h = fig.get_figheight()
    fig.text(0.01, 1 - 0.06 / h, title, ha="left", va="top", fontsize=11, fontweight="bold",
             color=TEXT)
    fig.text(0.01, 1 - 0.32 / h, subtitle, ha="left", va="top", fontsize=8.5, color=MUTED)


def _new(width: float, height: float) -> Figure:
    # A bare Figure (not pyplot's): nothing global to keep or close.
    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    return fig


def _frac(fig: Figure, inches: float) -> float:
    """A height in inches as a fraction of the figure's height."""
    return inches / fig.get_figheight()


def bars(b: Bars) -> Figure:
    """Grouped bars: algorithms along x, one bar per library, 95% intervals as thin whiskers,
    the ceiling (memcpy) as a dashed line, or named in a note when it is far off scale."""
    with rc_context(STYLE):
        n_g, n_s = len(b.groups), max(1, len(b.series))
        width = min(15.0, max(6.5, 1.6 + n_g * max(0.9, 0.17 * n_s)))
        fig = _new(width, 4.6)
        # header: title, subtitle, legend (0.95 in); footer: rotated labels (0.8 in)
        ax = fig.add_axes((0.75 / width, _frac(fig, 0.8), 1 - 0.95 / width,
                           1 - _frac(fig, 0.8 + 1.0)))
        top = max(b.values.values())
        subtitle = b.subtitle
        if b.lower_is_better:
            scale, unit = 1.0, ""
        else:
            scale, unit = _rate_scale(top)
        bw = 0.82 / n_s
        for i, lib in enumerate(b.series):
            xs, ys, lo, hi = [], [], [], []
            for g, algo in enumerate(b.groups):
                v = b.values.get((lib, algo))
                if v is None:
                    continue
                xs.append(g - 0.41 + bw * (i + 0.5))
                ys.append(v / scale)
                e = b.errors.get((lib, algo))
                lo.append(max(0.0, (v - e[0]) / scale) if e else 0.0)
                hi.append(max(0.0, (e[1] - v) / scale) if e else 0.0)
            ax.bar(xs, ys, bw * 0.92, color=b.colours.get(lib) or colour_of(lib), label=lib,
                   zorder=2)
            if any(lo) or any(hi):
                ax.errorbar(xs, ys, yerr=[lo, hi], fmt="none", ecolor="#333333",
                            elinewidth=0.7, capsize=0, zorder=3)
        ax.set_xticks(range(n_g))
        # slanted when many, or when long names would run into each other
        slant = n_g > 5 or max(map(len, b.groups), default=0) * 0.075 > width / max(n_g, 1)
        ax.set_xticklabels(b.groups, rotation=25 if slant else 0,
                           ha="right" if slant else "center")
        ax.set_xlim(-0.6, n_g - 0.4)
        ax.set_ylabel(b.ylabel if b.lower_is_better else f"throughput ({unit})")
        ax.yaxis.grid(True, color=GRID, zorder=0)
        ax.set_axisbelow(True)
        ax.tick_params(axis="x", length=0)
        if b.ceiling and not b.lower_is_better:
            if b.ceiling <= top * 1.6:
                ax.axhline(b.ceiling / scale, color="#555555", ls="--", lw=1, zorder=1)
                ax.text(n_g - 0.45, b.ceiling / scale, f"{b.ceiling_label} ceiling",
                        ha="right", va="bottom", fontsize=8, color="#555555")
            else:
                subtitle += (f"; {b.ceiling_label} ceiling {format_rate(b.ceiling)} is off "
                             "this scale")
        ax.legend(ncol=min(n_s, 10), loc="lower left", bbox_to_anchor=(0, 1.03),
                  fontsize=8, handlelength=1.2, columnspacing=1.0, borderaxespad=0)
        _titles(fig, b.title, subtitle)
    return fig


def _size_ticks(ax, sizes: list[int]) -> None:
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(FixedLocator(sizes))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _p: _size_text(int(round(v)))))


def size_lines(s: SizeLines) -> Figure:
    """Small multiples: one panel per algorithm, throughput (log) against message size (log),
    one line per library, memcpy's rate as a dashed grey ceiling."""
    with rc_context(STYLE):
        n = len(s.panels)
        ncols = min(3, n)
        nrows = math.ceil(n / ncols)
        libs = sorted({lib for per in s.lines.values() for lib in per}, key=lib_sort_key)
        legend_rows = math.ceil((len(libs) + 1) / 6)
        head = 0.62 + 0.2 * legend_rows + 0.15    # title, subtitle, legend (inches)
        fig = _new(3.7 * ncols + 0.5, 2.8 * nrows + head + 0.2)
        gs = fig.add_gridspec(nrows, ncols, left=0.75 / fig.get_figwidth(), right=0.98,
                              bottom=_frac(fig, 0.55), top=1 - _frac(fig, head + 0.25),
                              hspace=0.6, wspace=0.25)
        every = [v for per in s.lines.values() for pts in per.values() for _, v in pts]
        scale, unit = _rate_scale(max(every))
        sizes = sorted({x for per in s.lines.values() for pts in per.values() for x, _ in pts})
        for i, algo in enumerate(s.panels):
            ax = fig.add_subplot(gs[i // ncols, i % ncols])
            for lib in libs:
                pts = s.lines[algo].get(lib)
                if not pts:
                    continue
                ax.plot([x for x, _ in pts], [v / scale for _, v in pts], marker="o", ms=3,
                        lw=1.4, color=colour_of(lib), label=lib)
            if s.ceiling:
                ax.plot([x for x, _ in s.ceiling], [v / scale for _, v in s.ceiling],
                        color="#777777", ls="--", lw=1, label="memcpy (ceiling)")
            ax.set_yscale("log")
            _size_ticks(ax, sizes)
            ax.tick_params(axis="x", labelsize=7.5)
            ax.set_title(algo, loc="left", fontsize=9.5, color=TEXT)
            ax.yaxis.grid(True, which="major", color=GRID)
            ax.set_axisbelow(True)
            if i % ncols == 0:
                ax.set_ylabel(f"throughput ({unit})")
            if i // ncols == nrows - 1:
                ax.set_xlabel("message size")
        handles = [Line2D([], [], color=colour_of(lib), lw=2, label=lib) for lib in libs]
        if s.ceiling:
            handles.append(Line2D([], [], color="#777777", ls="--", lw=1,
                                      label="memcpy (ceiling)"))
        fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(0.0, 1 - _frac(fig, 0.55)),
                   ncol=min(len(handles), 6), fontsize=8, handlelength=1.6)
        _titles(fig, s.title + " (log scales, higher is better)", s.subtitle)
    return fig


def path_bars(p: PathBars) -> Figure:
    """Horizontal bars, fastest first: each cipher coloured by its security grade, the
    cleartext baseline in dark grey with a dashed line through the chart, a cipher measured
    alone (the crypto without the tool's overhead) in light grey under it."""
    with rc_context(STYLE):
        n = len(p.labels)
        fig = _new(8.5, 1.75 + 0.26 * n)
        ax = fig.add_axes((0.34, _frac(fig, 0.5), 0.6, 1 - _frac(fig, 0.5 + 1.0)))
        ys = list(range(n))[::-1]
        colours = []
        for kind, grade in zip(p.kinds, p.grades):
            colours.append("#4d4d4d" if kind == "baseline" else "#c8c8c8" if kind == "alone"
                           else GRADE_COLOUR.get(grade, GRADE_COLOUR[""]))
        ax.barh(ys, p.values, 0.72, color=colours, zorder=2)
        pad = max(p.values) * 0.012
        for y, v, e in zip(ys, p.values, p.errors):
            if e:
                ax.plot([e[0], e[1]], [y, y], color="#222222", lw=0.8, zorder=3)
            ax.text(max(v, e[1] if e else v) + pad, y, f"{v:,.0f}" if v >= 10 else f"{v:.2g}",
                    va="center", fontsize=7.5, color=MUTED, zorder=4,
                    bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.5})
        for v, kind in zip(p.values, p.kinds):
            if kind == "baseline":
                ax.axvline(v, color="#4d4d4d", ls="--", lw=0.9, zorder=1)
        ax.set_yticks(ys)
        ax.set_yticklabels(p.labels, fontsize=8)
        ax.set_ylim(-0.6, n - 0.4)
        ax.set_xlabel(p.xlabel)
        ax.xaxis.grid(True, color=GRID, zorder=0)
        ax.tick_params(axis="y", length=0)
        ax.set_xlim(0, max([v for v in p.values] + [e[1] for e in p.errors if e]) * 1.14)
        seen = []
        for kind, grade in zip(p.kinds, p.grades):
            name = kind if kind != "measured" else (grade or "unknown")
            if name not in seen:
                seen.append(name)
        handles = [Rectangle((0, 0), 1, 1, color=(
            "#4d4d4d" if k == "baseline" else "#c8c8c8" if k == "alone" else
            GRADE_COLOUR.get(k, GRADE_COLOUR[""])),
            label={"baseline": "cleartext baseline", "alone": "cipher alone (no tool)"}
            .get(k, f"grade: {k}")) for k in seen]
        ax.legend(handles=handles, loc="lower left", bbox_to_anchor=(0, 1.0), fontsize=8,
                  ncol=len(handles), borderaxespad=0.3, handlelength=1.2)
        _titles(fig, p.title, p.subtitle)
    return fig


def compare_chart(cmp: cmpmod.Comparison, entries: list[cmpmod.Entry], title: str,
                  subtitle: str) -> Figure:
    """A forest plot of speed ratios B/A on a log axis: a dot per quantity with its interval,
    a line at 1 (no change), blue where B is really faster, red where really slower, grey
    where the intervals overlap."""
    with rc_context(STYLE):
        n = len(entries)
        fig = _new(8.5, 1.6 + 0.2 * n)
        ax = fig.add_axes((0.36, _frac(fig, 0.5), 0.6, 1 - _frac(fig, 0.5 + 1.0)))
        ys = list(range(n))[::-1]
        for y, e in zip(ys, entries):
            c = MARK_COLOUR[e.mark]
            if e.low is not None and e.high is not None:
                ax.plot([e.low, e.high], [y, y], color=c, lw=1.6, solid_capstyle="butt")
            ax.plot([e.ratio], [y], "o", color=c, ms=4.5)
        ax.axvline(1.0, color="#444444", lw=0.9)
        ax.set_xscale("log")
        lo = min([e.low or e.ratio for e in entries] + [e.ratio for e in entries])
        hi = max([e.high or e.ratio for e in entries] + [e.ratio for e in entries])
        ax.set_xlim(min(lo, 1 / 1.1) / 1.25, max(hi, 1.1) * 1.25)
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{v:g}x"))
        ax.xaxis.set_minor_formatter(FuncFormatter(lambda v, _p: ""))
        ax.set_yticks(ys)
        ax.set_yticklabels([_entry_label(e) for e in entries], fontsize=7.5)
        ax.set_ylim(-0.7, n - 0.3)
        ax.tick_params(axis="y", length=0)
        ax.xaxis.grid(True, color=GRID)
        ax.set_axisbelow(True)
        ax.set_xlabel(f"speed ratio run {cmp.run_b.id} / run {cmp.run_a.id} "
                      "(log scale; right of 1: faster in B)")
        marks = [m for m in (cmpmod.FASTER, cmpmod.SLOWER, cmpmod.SAME, cmpmod.UNKNOWN)
                 if any(e.mark == m for e in entries)]
        label = {cmpmod.FASTER: "really faster", cmpmod.SLOWER: "really slower",
                 cmpmod.SAME: "no real change", cmpmod.UNKNOWN: "no interval"}
        ax.legend(handles=[Line2D([], [], color=MARK_COLOUR[m], marker="o", lw=1.6,
                                      label=label[m]) for m in marks],
                  loc="lower left", bbox_to_anchor=(0, 1.0), ncol=len(marks), fontsize=8,
                  borderaxespad=0.3)
        _titles(fig, title, subtitle)
    return fig


def _entry_label(e: cmpmod.Entry) -> str:
    size = "" if e.scenario != "primitive" else f" {_size_text(e.size)}"
    op = "" if e.op in ("ref", "transfer") else f" {e.op}"
    lib = "" if e.lib == "ref" else f"{e.lib} "
    return f"{lib}{e.algo.replace('@openssh.com', '')}{op}{size}"


# -- output ---------------------------------------------------------------------------------
_ID = re.compile(r'id="([^"]+)"')


def to_svg(fig: Figure, prefix: str) -> str:
    """The figure as an inline ``<svg>`` element: no XML prolog, its natural size (the page's
    CSS lets it shrink to narrow screens through the viewBox), every id prefixed so several
    charts share one page."""
    buf = io.StringIO()
    with rc_context(STYLE):  # the SVG options are read when saving
        fig.savefig(buf, format="svg", bbox_inches="tight", pad_inches=0.08)
    text = buf.getvalue()
    text = text[text.index("<svg"):]
    ids = set(_ID.findall(text))
    for old in sorted(ids, key=len, reverse=True):
        new = f"{prefix}-{old}"
        text = text.replace(f'id="{old}"', f'id="{new}"')
        text = text.replace(f'#{old})', f'#{new})').replace(f'"#{old}"', f'"#{new}"')
    text = text.replace("<svg", '<svg role="img" class="chart"', 1)
    return text


def to_png(fig: Figure, path) -> None:
    """Write the figure as a PNG (100 dpi: sharp enough for an issue or a post, small)."""
    with rc_context(STYLE):
        fig.savefig(path, format="png", dpi=100, bbox_inches="tight", pad_inches=0.08,
                    metadata={"Software": "cipherbench"})


def close(fig: Figure) -> None:
    """Free the figure's memory (a bare Figure needs nothing but dropping its artists)."""
    fig.clear()
