"""Printing with rich: ``display_*`` take what ``format_*`` computed and draw it."""
from __future__ import annotations

from typing import Callable, Sequence

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from cipherbench.display.format import (ListView, ResultTable, cell_for_column, format_cell,
                                        format_size)
from cipherbench.store import Run
from cipherbench.run_warnings import BenchWarning

GRADE_STYLE = {"recommended": "green", "acceptable": "cyan", "legacy": "yellow",
               "broken": "bold red", "ceiling": "dim", "floor": "dim"}


def display_results(console: Console, table: ResultTable, title: str | None = None) -> None:
    """The result table; the fastest library of each row in bold. When the library columns do
    not fit the console's width, they are split over several tables with the same rows, so
    no cell is ever cut."""
    title = title or (f"throughput at {format_size(table.size)}, cycles/byte from the slope "
                      "(* fastest beyond the noise)")
    groups = _column_groups(console.width, table)
    for i, columns in enumerate(groups):
        part = f" ({i + 1}/{len(groups)})" if len(groups) > 1 else ""
        _display_result_columns(console, table, columns, title + part)


def _column_groups(width: int, table: ResultTable) -> list[list[str]]:
    """Library columns in groups that fit ``width`` beside the algorithm, op and grade."""
    algo_w = max([len("algorithm")] + [len(r.algo) for r in table.rows])
    fixed = algo_w + len("decrypt") + len("recommended") + 3 * 3 + 4
    per_col = [max(len(c), len("10.4 GB/s *")) + 3 for c in table.columns]
    groups: list[list[str]] = [[]]
    used = fixed
    for c, w in zip(table.columns, per_col):
        if groups[-1] and used + w > width:
            groups.append([])
            used = fixed
        groups[-1].append(c)
        used += w
    return groups


def _display_result_columns(console: Console, table: ResultTable, columns: list[str],
                            title: str) -> None:
    t = Table(title=title, title_justify="left", show_lines=True)
    t.add_column("algorithm", no_wrap=True)
    t.add_column("op", no_wrap=True)
    t.add_column("grade", no_wrap=True)
    for c in columns:
        t.add_column(c, justify="right", no_wrap=True)
    for row in table.rows:
        cells = []
        for c in columns:
            cell = cell_for_column(row, c, columns)
            text = format_cell(cell, sep="\n")
            if cell is not None and cell.fastest:
                text = f"[bold]{text}[/bold]"
            elif row.grade in ("ceiling", "floor"):
                text = f"[dim]{text}[/dim]"
            cells.append(text)
        style = GRADE_STYLE.get(row.grade, "")
        grade = f"[{style}]{row.grade}[/{style}]" if style else row.grade
        t.add_row(row.algo, row.op, grade, *cells)
    console.print(t)


def display_rows(console: Console, header: Sequence[str], rows: Sequence[Sequence[str]],
                 title: str | None = None) -> None:
    """A plain table of text rows, printed as they are: a program's message such as gpg's
    "[stdin]" is text, not rich markup."""
    t = Table(title=title, title_justify="left")
    for h in header:
        t.add_column(h, overflow="fold")   # a narrow console wraps names, never cuts them
    for r in rows:
        t.add_row(*(Text(c) for c in r))
    console.print(t)


def display_pairs(console: Console, pairs: Sequence[tuple[str, str]]) -> None:
    """``label: value`` lines."""
    width = max((len(k) for k, _ in pairs), default=0)
    for k, v in pairs:
        console.print(f"{k:>{width}}: {v}", markup=False)


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


#: The widest a column of figures grows: a rate fits, a message in its place wraps.
FIGURE_CAP = 14


def split_columns(console: Console, header: Sequence[str], keep: int,
                  table: Callable[[list[int]], Table]) -> list[list[int]]:
    """Column indexes in groups that each fit ``console.width``: the first ``keep`` columns
    (the row's name) in every group, the others added in order while the table built by
    ``table(indexes)`` still fits at its natural width."""
    wide = console.options.update_width(10_000)   # the natural width, not the console's
    groups: list[list[int]] = []
    current = list(range(min(keep, len(header))))
    for i in range(len(current), len(header)):
        trial = current + [i]
        if len(current) > keep and console.measure(table(trial), options=wide).maximum > \
                console.width:
            groups.append(current)
            trial = list(range(keep)) + [i]
        current = trial
    groups.append(current)
    return groups


def display_fitted(console: Console, header: Sequence[str], rows: Sequence[Sequence[str | Text]],
                   *, title: str | None = None, keep: int = 1, right: Sequence[str] = (),
                   cap: int = 30, row_styles: Sequence[str | None] | None = None) -> None:
    """A table of text rows that fits the console: a long cell wraps at ``cap`` characters
    (``FIGURE_CAP`` in the ``right``-aligned columns of figures, where a rate always fits),
    and when the columns still do not fit, they are
    split over several tables that each repeat the first ``keep`` columns, so no cell is ever
    cut to "…". Plain strings are printed as they are, never as rich markup."""
    def build(indexes: list[int], part: str = "") -> Table:
        t = Table(title=part if part.startswith("continued") else
                  (title or "") + (f" ({part})" if part else "") or None,
                  title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False,
                  padding=(0, 1, 0, 0))
        for i in indexes:
            t.add_column(header[i], overflow="fold",
                         max_width=FIGURE_CAP if header[i] in right else cap,
                         justify="right" if header[i] in right else "left")
        for n, r in enumerate(rows):
            t.add_row(*(r[i] if isinstance(r[i], Text) else Text(r[i]) for i in indexes),
                      style=row_styles[n] if row_styles else None)
        return t

    groups = split_columns(console, header, keep, build)
    for n, indexes in enumerate(groups):
        part = "" if len(groups) == 1 else f"{n + 1}/{len(groups)}"
        if n:
            console.print()
        console.print(build(indexes, f"continued ({part})" if n else part))
