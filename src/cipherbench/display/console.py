"""Printing with rich: ``display_*`` take what ``format_*`` computed and draw it."""
from __future__ import annotations

from typing import Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from cipherbench.display.format import (ListView, ResultTable, cell_for_column, format_cell,
                                        format_size)
from cipherbench.store import Run
from cipherbench.warnings import BenchWarning

GRADE_STYLE = {"recommended": "green", "acceptable": "cyan", "legacy": "yellow",
               "broken": "bold red", "ceiling": "dim", "floor": "dim"}


def display_results(console: Console, table: ResultTable, title: str | None = None) -> None:
    """The result table; the fastest library of each row in bold. When the library columns do
    not fit the console's width, they are split over several tables with the same rows, so
    no cell is ever cut."""
    title = title or (f"throughput at {format_size(table.size)}, cycles/byte from the slope "
                      "(* fastest)")
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
