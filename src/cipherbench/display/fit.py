# SPDX-License-Identifier: GPL-3.0-or-later
"""Tables of text that fit the terminal without cutting a figure or breaking a name.

Rich shrinks a column below its longest word when a table is too wide and then folds words
(``libtomcryp`` / ``t,``). Here the widths are chosen first: each column between the longest
piece of its cells (a word, or a name's part up to a separator: ``display.names``) and its
natural width, the widest shrunk first; when even the narrowest widths do not fit, the columns
are split over parts that each repeat the first ``keep`` columns. Cells are then broken at
spaces and separators only, and drawn in columns of exactly those widths.
"""
from __future__ import annotations

from typing import Sequence

from rich import box as rich_box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from cipherbench.display.names import pieces

#: The widest a column of figures grows: a rate fits, a message in its place wraps.
FIGURE_CAP = 14
#: Parts a table is split in before its names are wrapped at their separators instead.
MAX_PARTS = 2
#: The width long names are wrapped to before they are wrapped as narrow as they go.
NAME_WRAP = 22
#: Columns whose text is longer than this are narrowed before the short ones.
LONG = 24


def _lines(plain: str) -> list[str]:
    return plain.split("\n")


def longest_piece(plain: str) -> int:
    """The narrowest width ``plain`` breaks into at spaces and separators."""
    return max((len(p.rstrip()) for line in _lines(plain) for p in pieces(line)), default=0)


def natural(plain: str) -> int:
    return max((len(line) for line in _lines(plain)), default=0)


def breaks(plain: str, width: int) -> list[int]:
    """Offsets in ``plain`` where lines of at most ``width`` start (after a space or a
    separator; a newline already in the text is kept). A piece wider than ``width`` is a
    line of its own, never cut."""
    offsets: list[int] = []
    pos = 0
    for n, line in enumerate(_lines(plain)):
        if n:
            offsets.append(pos)
        used = 0
        for p in pieces(line):
            if used and used + len(p.rstrip()) > width:
                offsets.append(pos)
                used = 0
            used += len(p)
            pos += len(p)
        pos += 1   # the newline
    return offsets


def wrap_text(cell: Text, width: int) -> Text:
    """``cell`` broken into lines of at most ``width`` (styles and spans kept)."""
    plain = cell.plain
    if "\n" not in plain and len(plain) <= width:
        return cell
    parts = cell.divide(breaks(plain, width))
    out = Text(style=cell.style, justify=cell.justify)
    for n, part in enumerate(parts):
        part.rstrip()   # the space or newline the line ended at
        if n:
            out.append("\n")
        out.append_text(part)
    return out


def _as_text(cell: str | Text) -> Text:
    return cell if isinstance(cell, Text) else Text(cell)


def overhead(console: Console, make, n_columns: int) -> int:
    """What a table's borders, dividers and padding add to its columns' widths (``make()``
    makes an empty table of the kind)."""
    t = make()
    for _ in range(n_columns):
        t.add_column("", width=1, no_wrap=True)
    return console.measure(t, options=console.options.update_width(10_000)).maximum - n_columns


def widths_for(naturals: Sequence[int], minimums: Sequence[int], caps: Sequence[int | None],
               room: int) -> list[int] | None:
    """Column widths within ``room``: each starts at its natural width (or its cap, never below
    its minimum); the columns of long texts are narrowed first, the widest of them first, none
    below its minimum. None when the minimums alone do not fit."""
    widths = [max(mn, min(nat, cap)) if cap else nat
              for nat, mn, cap in zip(naturals, minimums, caps)]
    widths = [max(w, mn) for w, mn in zip(widths, minimums)]
    if sum(minimums) > room:
        return None
    while sum(widths) > room:   # long texts give way first, short columns last
        i = max((i for i in range(len(widths)) if widths[i] > minimums[i]),
                key=lambda i: (naturals[i] > LONG, widths[i]))
        widths[i] -= 1
    return widths


def draw_fitted(console: Console, header: Sequence[str], rows: Sequence[Sequence[str | Text]],
                *, title: str | None = None, keep: int = 1, right: Sequence[str] = (),
                cap: int | None = 30, row_styles: Sequence[str | None] | None = None,
                boxed: bool = False, one_part: bool = False) -> None:
    """Draw ``rows`` under ``header`` in as few parts as fit the console (see the module);
    ``right`` columns hold figures (right-aligned, at most ``FIGURE_CAP`` wide unless a word
    needs more); ``cap`` bounds the other columns (None: their natural width); ``boxed``:
    rich's default box instead of the light one; ``one_part``: a long list is better in one
    table with narrower columns than in two parts of every row. Plain strings are text, never
    markup."""
    cells = [[_as_text(c) for c in r] for r in rows]
    heads = [Text(h) for h in header]
    n = len(header)
    # a figure column's header wraps at its spaces ("16 KiB" / "writes"), its figures never
    nat = [max([longest_piece(heads[i].plain) if header[i] in right else
                natural(heads[i].plain)] + [natural(r[i].plain) for r in cells])
           for i in range(n)]
    caps = [FIGURE_CAP if header[i] in right else cap for i in range(n)]
    # whole cells (up to the cap) where the parts allow, else names wrapped at separators
    whole = [min(w, c) if c else w for w, c in zip(nat, caps)]
    pieces_min = [max([longest_piece(heads[i].plain)] +
                      [longest_piece(r[i].plain) for r in cells]) for i in range(n)]
    # a figure is never wrapped (a message in its place is, at the cap)
    pieces_min = [whole[i] if header[i] in right else m for i, m in enumerate(pieces_min)]
    whole = [max(w, m) for w, m in zip(whole, pieces_min)]
    # between the two: long names in lines of at most NAME_WRAP, at their separators
    middle = [max(min(w, NAME_WRAP), m) for w, m in zip(whole, pieces_min)]

    def make() -> Table:
        if boxed:
            return Table()
        return Table(box=rich_box.SIMPLE_HEAD, pad_edge=False, show_edge=False,
                     padding=(0, 1, 0, 0))

    def fits(indexes: list[int], mins: list[int]) -> list[int] | None:
        room = console.width - overhead(console, make, len(indexes))
        return widths_for([nat[i] for i in indexes], [mins[i] for i in indexes],
                          [caps[i] for i in indexes], room)

    def split(mins: list[int]) -> list[list[int]] | None:
        """Column groups that each fit at ``mins``; None when one column alone does not."""
        groups: list[list[int]] = []
        current = list(range(min(keep, n)))
        for i in range(len(current), n):
            if len(current) > keep and fits(current + [i], mins) is None:
                groups.append(current)
                current = list(range(keep))
            current.append(i)
        groups.append(current)
        return groups if all(fits(g, mins) is not None for g in groups) else None

    found = None
    if one_part:
        found = next((g for g in map(split, (whole, middle, pieces_min))
                      if g is not None and len(g) == 1), None)
        mins = whole if found is None else pieces_min   # the widths start from natural anyway
    if found is None:
        for mins in (whole, middle, pieces_min):
            found = split(mins)
            if found is not None and len(found) <= MAX_PARTS:
                break
    groups = found or [list(range(n))]   # nothing fits: one table, as narrow as it goes
    for part, indexes in enumerate(groups):
        label = "" if len(groups) == 1 else f"{part + 1}/{len(groups)}"
        part_title = " ".join(t for t in (title, f"({label})" if label else "") if t) \
            if not part else f"continued ({label})"
        widths = fits(indexes, mins) or [mins[i] for i in indexes]
        if part:
            console.print()
        if part_title:   # above the table, wrapped to the terminal rather than to the table
            console.print(Text(part_title))
        t = make()
        for i, w in zip(indexes, widths):
            t.add_column(wrap_text(heads[i], w), width=w, no_wrap=True,
                         justify="right" if header[i] in right else "left")
        for k, r in enumerate(cells):
            t.add_row(*(wrap_text(r[i], w) for i, w in zip(indexes, widths)),
                      style=row_styles[k] if row_styles else None)
        console.print(t)
