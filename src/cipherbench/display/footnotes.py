# SPDX-License-Identifier: GPL-3.0-or-later
"""Long messages out of the columns of figures: ``refused [1]`` in the cell, the reason once
below the table (``[1] refused: no cipher match ...``)."""
from __future__ import annotations

from typing import Sequence

#: A message longer than this in a column of figures goes to a footnote.
LIMIT = 16


def footnote_long(header: Sequence[str], rows: Sequence[Sequence[str]], columns: Sequence[str],
                  limit: int = LIMIT) -> tuple[list[list[str]], list[str]]:
    """``rows`` with every cell of ``columns`` longer than ``limit`` replaced by its first
    word(s) up to a colon and a ``[n]`` mark, and the notes ``[n] full text`` (the same text
    shares one number)."""
    wanted = {i for i, h in enumerate(header) if h in columns}
    notes: dict[str, int] = {}
    out: list[list[str]] = []
    for row in rows:
        new = list(row)
        for i in wanted:
            cell = row[i]
            if isinstance(cell, str) and len(cell) > limit:
                n = notes.setdefault(cell, len(notes) + 1)
                head = cell.split(":", 1)[0] if ":" in cell[:limit] else ""
                new[i] = f"{head} [{n}]".strip()
        out.append(new)
    return out, [f"[{n}] {text}" for text, n in notes.items()]
