# SPDX-License-Identifier: GPL-3.0-or-later
"""The answer of a primitive run, computed from its stored results (pure) and put in lines.

Per kind of algorithm (AEAD, cipher, MAC, hash): which library is fastest beyond the noise and
how often, the fastest sound choice (a recommended or acceptable algorithm in the catalog) with
the libraries inside its noise, and a broken or legacy algorithm that is faster, named as not
a choice. ``run`` and ``show`` print it last; the HTML report opens with it.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass

from cipherbench.display.format import Cell, ResultTable, format_rate, format_results, \
    format_size
from cipherbench.store import Result

#: Grades a choice may have; the others are named only when they are faster.
SOUND = ("recommended", "acceptable")
#: Kinds in the order of the answer, with the words it uses for them.
KIND_LABEL = {"aead": "AEAD", "cipher": "cipher", "mac": "MAC", "hash": "hash",
              "keywrap": "key wrap"}
#: For each algorithm the op that stands for it: encryption for ciphers, unless only the
#: other was measured.
OP_ORDER = ("encrypt", "hash", "mac", "decrypt")


@dataclass(frozen=True)
class Choice:
    """An algorithm in a library at the headline size, and the libraries inside its noise."""

    algo: str
    op: str
    lib: str
    bytes_per_s: float
    grade: str
    within: tuple[str, ...] = ()   # (algorithm in library) pairs not told apart from it


@dataclass(frozen=True)
class KindAnswer:
    """The answer for one kind of algorithm."""

    kind: str
    algorithms: int                        # measured algorithms of this kind
    leads: tuple[tuple[str, int], ...]     # (library, rows it is fastest in beyond the noise)
    sound: Choice | None                   # the fastest recommended or acceptable choice
    faster_unsound: Choice | None          # a legacy or broken one faster than ``sound``


@dataclass(frozen=True)
class RunAnswer:
    """The answer of a primitive run at its headline size."""

    size: int
    kinds: tuple[KindAnswer, ...]


def _interval(cell: Cell) -> tuple[float, float]:
    """A cell's time per operation as an interval (its CI; the figure alone without one)."""
    rel = cell.ci_rel or 0.0
    return cell.ns_per_op * (1 - rel), cell.ns_per_op * (1 + rel)


def _pick(entries: list[tuple[str, str, str, str, Cell]]) -> Choice | None:
    """The fastest of (algo, op, lib, grade, cell) entries, with those whose interval
    overlaps its own (not told apart from it)."""
    rated = [(e, bps) for e in entries if (bps := e[4].bytes_per_s)]
    if not rated:
        return None
    best, best_bps = max(rated, key=lambda r: r[1])
    _, hi = _interval(best[4])
    within = tuple(f"{a} in {l}" if a != best[0] else l for (a, _, l, _, c), _ in rated
                   if c is not best[4] and _interval(c)[0] <= hi)
    return Choice(best[0], best[1], best[2], best_bps, best[3], within)


def answer_of_table(table: ResultTable) -> RunAnswer:
    """The answer from a result table (``format_results``)."""
    kinds: list[KindAnswer] = []
    for kind in KIND_LABEL:
        rows = [r for r in table.rows if r.kind == kind]
        first_op: dict[str, str] = {}
        for r in sorted(rows, key=lambda r: OP_ORDER.index(r.op) if r.op in OP_ORDER else 9):
            first_op.setdefault(r.algo, r.op)
        rows = [r for r in rows if first_op[r.algo] == r.op]
        if not rows:
            continue
        leads: dict[str, int] = {}
        for r in rows:
            for lib, cell in r.cells.items():
                if cell.fastest:
                    leads[lib] = leads.get(lib, 0) + 1
        entries = [(r.algo, r.op, lib, r.grade, cell) for r in rows for lib, cell in
                   r.cells.items()]
        sound = _pick([e for e in entries if e[3] in SOUND])
        unsound = _pick([e for e in entries if e[3] not in SOUND])
        faster = unsound if unsound and (sound is None or
                                         unsound.bytes_per_s > sound.bytes_per_s) else None
        kinds.append(KindAnswer(kind, len(rows), tuple(sorted(leads.items(),
                                                               key=lambda kv: -kv[1])),
                                sound, faster))
    return RunAnswer(table.size, tuple(kinds))


def run_answer(results: list[Result], headline: int) -> RunAnswer | None:
    """The answer of a stored primitive run (None when it stored no point)."""
    table = format_results(results, headline)
    return answer_of_table(table) if table is not None else None


def _names(items: tuple[str, ...], most: int = 3) -> str:
    shown = ", ".join(items[:most])
    return shown + (f" and {len(items) - most} more" if len(items) > most else "")


def kind_lines(k: KindAnswer) -> list[str]:
    """One kind's sentences (unwrapped)."""
    out: list[str] = []
    if k.sound is not None:
        s = k.sound
        out.append(f"fastest sound choice: {s.algo} in {s.lib}, {format_rate(s.bytes_per_s)}"
                   + (f", {s.grade}" if s.grade != "recommended" else "")
                   + (f"; not told apart from {_names(s.within)}" if s.within else
                      "; ahead beyond the noise"))
    else:
        out.append("no sound choice measured")
    if k.faster_unsound is not None:
        u = k.faster_unsound
        out.append(f"{u.algo} ({u.grade}, {format_rate(u.bytes_per_s)} in {u.lib}) is faster "
                   "but not a choice")
    if k.leads:
        out.append("fastest library beyond the noise: " + ", ".join(
            f"{lib} in {n} of {k.algorithms}" for lib, n in k.leads[:3])
            + (f" and {len(k.leads) - 3} more" if len(k.leads) > 3 else ""))
    else:
        out.append("no library is ahead beyond the noise")
    return out


def answer_lines(answer: RunAnswer, width: int, advise_targets: tuple[str, ...] = (),
                 advise_extra: str = "") -> list[str]:
    """The answer in lines of at most ``width`` characters: a heading, each kind, and the
    `advise` command that answers for the user's task."""
    width = max(width, 40)
    lines = [f"The answer at {format_size(answer.size)} (grades from `cipherbench list`):"]
    label_w = max((len(KIND_LABEL[k.kind]) for k in answer.kinds), default=0) + 4
    for k in answer.kinds:
        label = f"  {KIND_LABEL[k.kind]:<{label_w - 4}}  "
        for n, sentence in enumerate(kind_lines(k)):
            lines += textwrap.wrap(sentence, width, initial_indent=label if n == 0 else
                                   " " * label_w, subsequent_indent=" " * (label_w + 2),
                                   break_on_hyphens=False, break_long_words=False)
    if advise_targets:   # the command whole on its line: it is pasted
        lines.append(f"For your task: cipherbench advise --for TARGET{advise_extra}")
        lines += textwrap.wrap("TARGET: " + ", ".join(advise_targets) + " or all", width,
                               initial_indent="  ", subsequent_indent="    ",
                               break_on_hyphens=False, break_long_words=False)
    return lines
