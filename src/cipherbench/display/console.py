# SPDX-License-Identifier: GPL-3.0-or-later
"""Printing with rich: ``display_*`` take what ``format_*`` computed and draw it."""
from __future__ import annotations

import textwrap
from typing import Sequence

from rich.console import Console
from rich.text import Text

from cipherbench.display import results as results_view
from cipherbench.display.fit import draw_fitted
from cipherbench.display.format import ListView, ResultTable
from cipherbench.display.results import GRADE_STYLE  # noqa: F401 - the views' one palette
from cipherbench.store import Run
from cipherbench.run_warnings import BenchWarning


def display_results(console: Console, table: ResultTable, title: str | None = None,
                    see_all: str | None = None) -> None:
    """The result table in the layout that fits the console (``display.results``)."""
    results_view.display_results(console, table, title, see_all)


def display_rows(console: Console, header: Sequence[str], rows: Sequence[Sequence[str]],
                 title: str | None = None) -> None:
    """A plain boxed table of text rows, printed as they are (a program's message such as
    gpg's "[stdin]" is text, not rich markup); a narrow console wraps cells at spaces and
    name separators, never inside a word, in one table where that fits (``display.fit``)."""
    draw_fitted(console, header, rows, title=title, cap=None, boxed=True, one_part=True)


def display_pairs(console: Console, pairs: Sequence[tuple[str, str]]) -> None:
    """``label: value`` lines; a long value wraps at its spaces under itself, not under the
    labels."""
    width = max((len(k) for k, _ in pairs), default=0)
    for k, v in pairs:
        lines = textwrap.wrap(v, max(console.width, width + 22) - 1,
                              initial_indent=f"{k:>{width}}: ",
                              subsequent_indent=" " * (width + 2), break_long_words=False,
                              break_on_hyphens=False) or [f"{k:>{width}}:"]
        for line in lines:
            console.print(line, markup=False, highlight=False, soft_wrap=True)


def display_warnings(console: Console, warnings: Sequence[BenchWarning]) -> None:
    """Warnings, one a line, each with its remedy; repeated texts are folded."""
    seen: dict[tuple[str, str], list[str]] = {}
    for w in warnings:
        seen.setdefault((w.kind, w.text if w.kind not in ("noisy", "not_stable", "steal")
                         else w.kind), []).append(w.subject)
    for (kind, text), subjects in seen.items():
        if text == kind:  # per-point warnings: show the first text and the count
            first = next(w for w in warnings if w.kind == kind)
            more = f" (and {len(subjects) - 1} more points)" if len(subjects) > 1 else ""
            console.print(f"[yellow]warning[/yellow] {first.subject}: {first.text}{more}",
                          highlight=False)
        else:
            console.print(f"[yellow]warning[/yellow] {', '.join(subjects)}: {text}",
                          highlight=False)


def display_list(console: Console, view: ListView) -> None:
    """``cipherbench list``."""
    console.print("CPU crypto features: " + (" ".join(view.cpu_flags) or "none found"),
                  markup=False)
    display_rows(console, ["library", "version", "capabilities"], view.libraries,
                 title="libraries")
    display_rows(console, ["algorithm", "kind", "grade", "why", "libraries"], view.algorithms,
                 title="algorithms")


def display_run_header(console: Console, run: Run, pairs: Sequence[tuple[str, str]]) -> None:
    """The facts of a run above its table."""
    display_pairs(console, pairs)


def display_fitted(console: Console, header: Sequence[str], rows: Sequence[Sequence[str | Text]],
                   *, title: str | None = None, keep: int = 1, right: Sequence[str] = (),
                   cap: int = 30, row_styles: Sequence[str | None] | None = None) -> None:
    """A table of text rows that fits the console: a long cell wraps at ``cap`` characters
    (``FIGURE_CAP`` in the ``right``-aligned columns of figures, where a rate always fits), at
    spaces and name separators only; when the columns still do not fit, they are split over
    several tables that each repeat the first ``keep`` columns, so no cell is ever cut to "…"
    and no name broken inside a word (``display.fit``). Plain strings are printed as they
    are, never as rich markup."""
    draw_fitted(console, header, rows, title=title, keep=keep, right=right, cap=cap,
                row_styles=row_styles)
