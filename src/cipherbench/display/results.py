# SPDX-License-Identifier: GPL-3.0-or-later
"""The result table of ``run`` and ``show``, laid out for the terminal it is printed on.

A row per algorithm and a column per library while that fits in one table; else a row per
library and a column per algorithm when that fits in one; else whichever fits in two parts;
else the libraries that matter (fastest somewhere, then the quickest overall) in at most two
parts, with the others named and the command that shows them. A cell is never cut and a
name never broken inside a word (``display.names``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from cipherbench.display.format import (Cell, ResultTable, Row, cell_for_column, format_cell,
                                        format_size)
from cipherbench.display.fit import overhead
from cipherbench.display.names import longest_piece, wrap_name

GRADE_STYLE = {"recommended": "green", "acceptable": "cyan", "legacy": "yellow",
               "broken": "bold red", "ceiling": "dim", "floor": "dim"}
#: Grades as the narrow grade column shows them (the legend below the table spells them out).
SHORT_GRADE = {"recommended": "rec.", "acceptable": "acc."}
#: The op every row of a kind has unless the run asked for others: no op column then.
USUAL_OP = {"aead": "encrypt", "cipher": "encrypt", "keywrap": "encrypt", "hash": "hash",
            "mac": "mac", "ref": "ref", "": "ref"}
#: The most parts a table is drawn in; beyond, the libraries that matter are shown.
MAX_PARTS = 2

BY_ALGORITHM = "algorithms"   # a row per algorithm and op, a column per library
BY_LIBRARY = "libraries"      # a row per library, a column per algorithm and op


@dataclass(frozen=True)
class Layout:
    """How a result table is drawn: the orientation, its parts (the library columns of each
    part, or the (algorithm, op) columns of each part) and the libraries left out."""

    orientation: str
    parts: tuple[tuple, ...]
    shown: tuple[str, ...]
    hidden: tuple[str, ...] = ()
    with_op: bool = False
    leader: bool = False    # a "fastest" column naming each row's fastest library


def short_grade(grade: str) -> str:
    return SHORT_GRADE.get(grade, grade)


def needs_op(table: ResultTable) -> bool:
    """An op column only when some row's op is not the usual one of its kind (decrypt)."""
    return any(row.op != USUAL_OP.get(row.kind, row.op) and row.grade not in ("ceiling", "floor")
               for row in table.rows)


def importance(table: ResultTable) -> list[str]:
    """Libraries by how much they matter to the answer: fastest beyond the noise in more rows
    first, then by their mean rank among the libraries of each row, then the table's order."""
    leads = {c: 0 for c in table.columns}
    ranks: dict[str, list[int]] = {c: [] for c in table.columns}
    for row in table.rows:
        cells = [(lib, cell) for lib, cell in row.cells.items() if lib in leads]
        for rank, (lib, cell) in enumerate(sorted(cells, key=lambda lc: lc[1].ns_per_op)):
            ranks[lib].append(rank)
            leads[lib] += cell.fastest
    order = {c: i for i, c in enumerate(table.columns)}
    return sorted(table.columns, key=lambda c: (-leads[c], sum(ranks[c]) / len(ranks[c])
                                                if ranks[c] else 1e9, order[c]))


def _cell_text(cell: Cell | None, row: Row) -> Text:
    text = Text(format_cell(cell, sep="\n"))
    if cell is not None and cell.fastest:
        text.stylize("bold")
    elif row.grade in ("ceiling", "floor"):
        text.stylize("dim")
    return text


def _grade_text(grade: str) -> Text:
    return Text(short_grade(grade), style=GRADE_STYLE.get(grade, ""))


def _new_table(title: str | None = None) -> Table:
    return Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                 show_edge=False, padding=(0, 1, 0, 0))


def _figure_width(table: ResultTable) -> int:
    """The widest line of any cell: a column of figures is at least this wide."""
    return max([len(line) for row in table.rows for cell in row.cells.values()
                for line in format_cell(cell, sep="\n").splitlines()] + [9])


def leader_of(row: Row) -> str:
    """The library marked fastest beyond the noise in ``row`` ("" when none is)."""
    return next((lib for lib, cell in row.cells.items() if cell.fastest), "")


def table_by_algorithm(table: ResultTable, libs: Sequence[str], with_op: bool,
                       title: str | None = None, leader: bool = False) -> Table:
    """A row per algorithm (and op), a column per library of ``libs``; with ``leader``, a
    column naming the fastest library of each row (when not every library is shown)."""
    t = _new_table(title)
    t.add_column("algorithm", no_wrap=True)
    if with_op:
        t.add_column("op", no_wrap=True)
    t.add_column("grade", no_wrap=True)
    if leader:
        t.add_column("fastest *", no_wrap=True)
    fig = _figure_width(table)
    for lib in libs:
        t.add_column("\n".join(wrap_name(lib, max(fig, longest_piece(lib)))), justify="right",
                     no_wrap=True)
    for row in table.rows:
        cells = [_cell_text(cell_for_column(row, lib, list(libs)), row) for lib in libs]
        t.add_row(row.algo, *([row.op] if with_op else []), _grade_text(row.grade),
                  *([Text(leader_of(row), style="bold")] if leader else []), *cells)
    return t


def _algo_header(row: Row, with_op: bool, width: int) -> Text:
    lines = wrap_name(row.algo, max(width, longest_piece(row.algo)))
    if with_op:
        lines.append(row.op)
    text = Text("\n".join(lines) + "\n")
    text.append(short_grade(row.grade), style=GRADE_STYLE.get(row.grade, ""))
    return text


def measured_rows(table: ResultTable) -> list[Row]:
    """The rows of libraries' algorithms (the reference rows are the same for every library:
    a note below the table in the row-per-library layout)."""
    return [row for row in table.rows if row.grade not in ("ceiling", "floor")]


def table_by_library(table: ResultTable, keys: Sequence[tuple[str, str]], with_op: bool,
                     title: str | None = None) -> Table:
    """A row per library, a column per (algorithm, op) of ``keys``."""
    rows = {(r.algo, r.op): r for r in measured_rows(table)}
    fig = _figure_width(table)
    t = _new_table(title)
    t.add_column("library", no_wrap=True)
    for key in keys:
        t.add_column(_algo_header(rows[key], with_op, fig), justify="right", no_wrap=True)
    for lib in table.columns:
        t.add_row(lib, *(_cell_text(rows[k].cells.get(lib), rows[k]) for k in keys))
    return t


def _cell_width(cell) -> int:
    plain = cell.plain if isinstance(cell, Text) else str(cell)
    return max((cell_len(line) for line in plain.split("\n")), default=0)


def _width(console: Console, t: Table) -> int:
    """The natural width of ``t``: its widest cells and what the light box adds (counted
    here rather than measured by rich, which is slow for the many trial layouts)."""
    widths = [max([_cell_width(c.header)] + [_cell_width(x) for x in c._cells])
              for c in t.columns]
    return sum(widths) + overhead(console, _new_table, len(widths))


def _groups(console: Console, items: Sequence, build) -> list[tuple]:
    """``items`` in consecutive groups whose table ``build(group)`` fits the console, as even
    in size as fits (two parts of 6 and 5 columns rather than 10 and 1)."""
    groups: list[list] = [[]]
    for item in items:
        if groups[-1] and _width(console, build(groups[-1] + [item])) > console.width:
            groups.append([])
        groups[-1].append(item)
    n = len(groups)
    if n > 1:
        size = -(-len(items) // n)
        even = [list(items[i:i + size]) for i in range(0, len(items), size)]
        if len(even) == n and all(_width(console, build(g)) <= console.width for g in even):
            groups = even
    return [tuple(g) for g in groups]


def choose_layout(console: Console, table: ResultTable) -> Layout:
    """The layout of ``table`` on ``console`` (see the module's docstring)."""
    with_op = needs_op(table)
    libs = list(table.columns)
    keys = [(r.algo, r.op) for r in measured_rows(table)]
    by_algo = _groups(console, libs, lambda g: table_by_algorithm(table, g, with_op))
    if len(by_algo) == 1:
        return Layout(BY_ALGORITHM, tuple(by_algo), tuple(libs), with_op=with_op)
    by_lib = _groups(console, keys, lambda g: table_by_library(table, g, with_op)) \
        if keys else []
    if len(by_lib) == 1:
        return Layout(BY_LIBRARY, tuple(by_lib), tuple(libs), with_op=with_op)
    if len(by_algo) <= MAX_PARTS:
        return Layout(BY_ALGORITHM, tuple(by_algo), tuple(libs), with_op=with_op)
    if by_lib and len(by_lib) <= MAX_PARTS:
        return Layout(BY_LIBRARY, tuple(by_lib), tuple(libs), with_op=with_op)
    ranked = importance(table)
    shown: list[str] = []
    for lib in ranked:
        trial = [c for c in libs if c in shown or c == lib]
        if shown and len(_groups(console, trial, lambda g: table_by_algorithm(
                table, g, with_op, leader=True))) > MAX_PARTS:
            break
        shown.append(lib)
    kept = [c for c in libs if c in shown]
    parts = _groups(console, kept, lambda g: table_by_algorithm(table, g, with_op,
                                                                leader=True))
    return Layout(BY_ALGORITHM, tuple(parts), tuple(kept),
                  tuple(c for c in libs if c not in shown), with_op, leader=True)


def table_title(table: ResultTable) -> str:
    return (f"throughput at {format_size(table.size)} (* fastest beyond the noise"
            + ("; c/B from the slope" if any(c.cycles_per_byte is not None for r in table.rows
                                              for c in r.cells.values()) else "") + ")")


def footer(table: ResultTable, layout: Layout, see_all: str | None) -> list[str]:
    """The lines below a drawn table: the reference rows (in the row-per-library layout), the
    grade legend and the libraries left out with the command that shows them."""
    lines: list[str] = []
    if layout.orientation == BY_LIBRARY:
        refs = [r for r in table.rows if r.grade in ("ceiling", "floor")]
        if refs:
            lines.append("reference: " + ", ".join(
                f"{r.algo} {format_cell(next(iter(r.cells.values())))} ({r.grade})"
                for r in refs))
    shorts = [f"{s} {g}" for g, s in SHORT_GRADE.items()
              if any(r.grade == g for r in table.rows)]
    if shorts:
        lines.append("grade: " + ", ".join(shorts) + " (`cipherbench list` says why)")
    if layout.hidden:
        leading = {leader_of(r) for r in table.rows} & set(layout.hidden)
        lines.append(f"{len(layout.hidden)} more libraries not shown ("
                     + ("the fastest column names where one of them leads"
                        if leading else "fastest in no row") + "): "
                     + ", ".join(layout.hidden)
                     + (f"; {see_all.format(libs=','.join(layout.hidden))} shows them"
                        if see_all else ""))
    return lines


def display_results(console: Console, table: ResultTable, title: str | None = None,
                    see_all: str | None = None) -> Layout:
    """Draw the result table in the layout that fits ``console``; the fastest library of each
    row in bold. ``see_all``: the command that shows left-out libraries (``{libs}`` in it)."""
    title = title or table_title(table)
    layout = choose_layout(console, table)
    for n, part in enumerate(layout.parts):
        count = f"({n + 1}/{len(layout.parts)})"
        label = (f"continued {count}" if n else f"{title} {count}") if len(layout.parts) > 1 \
            else title
        if n:
            console.print()
        # the title above the table, wrapped to the terminal rather than to a narrow table
        console.print(label, markup=False, highlight=False)
        if layout.orientation == BY_ALGORITHM:
            console.print(table_by_algorithm(table, part, layout.with_op,
                                             leader=layout.leader))
        else:
            console.print(table_by_library(table, part, layout.with_op))
    for line in footer(table, layout, see_all):
        console.print(line, markup=False, highlight=False)
    return layout
