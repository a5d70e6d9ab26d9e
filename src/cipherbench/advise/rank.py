# SPDX-License-Identifier: GPL-3.0-or-later
"""Ranking: fastest first among everything measured, the policy's verdict beside each row.

Two rows are told apart by the paired verdict of the ssh run both were measured in when they
were (``rounds``: the ssh scenario's own rows, ``scenarios.ssh.tables.paired_verdict``), else
by their 95% intervals. With paired rounds the tool's default goes ahead of every row that is
not measurably faster than it, and behind every row that is (whatever the rates say, when the
verdict was judged on CPU time), so the recommendation names another choice exactly when its
paired verdict against the default says faster.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

from cipherbench import catalog
from cipherbench.analysis import verdict as V
from cipherbench.advise import policy as pol
from cipherbench.advise.candidates import Candidate
from cipherbench.advise.evidence import Rate
from cipherbench.scenarios.ssh import tables
from cipherbench.analysis.verdict import CANNOT_TELL

_GRADE_ORDER = {g: i for i, g in enumerate(catalog.GRADES)}


@dataclass
class Ranked:
    """One row of the candidates table."""

    cand: Candidate
    rate: Rate | None
    verdict: pol.Verdict
    rank: int | None = None          # 1 = fastest measured (None: no rate); ties share one
    is_default: bool = False
    #: how far apart this row and the one above may be ("cannot tell here, within N%"): set
    #: when their paired verdict cannot tell them apart, or without paired rounds when their
    #: 95% intervals overlap, so the order between them is noise, not a ranking
    tie_within: float | None = None
    #: why the paired rounds gave no verdict against the row above (too few rounds)
    tie_reason: str | None = None
    #: the ssh scenario's row of this candidate when its rate comes from an ssh run's rounds
    rounds: tables.Row | None = None
    #: paired verdict of this row against the default's (same rounds; None without them)
    vs_default: V.Verdict | None = None
    #: what that verdict was judged on (``cpu_figure.CPU`` or ``WALL``, as ssh's table)
    vs_default_figure: str | None = None

    @property
    def tied(self) -> bool:
        return self.tie_within is not None or self.tie_reason is not None

    @property
    def vs_baseline(self) -> V.Verdict | None:
        """The ssh table's own paired verdict of this row against the cleartext baseline."""
        return self.rounds.vs_baseline if self.rounds is not None else None

    def tie_text(self) -> str:
        """``cannot tell apart from the row above here (within 4%)``."""
        if self.tie_reason:
            return f"{CANNOT_TELL} apart from the row above: {self.tie_reason}"
        n = math.ceil((self.tie_within or 0.0) * 100 - 1e-9)
        return f"{CANNOT_TELL} apart from the row above here (within {n:.0f}%)"

    @property
    def allowed(self) -> bool:
        """The policy allows it."""
        return self.verdict.allowed


def _key(r: Ranked) -> tuple:
    tls13 = bool(getattr(r.cand.names.get("suite"), "tls13", False))
    # the layers in their order of authority first: a lower layer never ranks above a higher
    return (r.rate is None, r.rate.authority if r.rate else 0, -(r.rate.bps if r.rate else 0.0),
            _GRADE_ORDER.get(r.cand.grade.level, 9), not r.cand.aead, not tls13,
            catalog.order_key(r.cand.cipher), r.cand.key)


def rank(cands: list[Candidate], rates: dict[str, Rate | None], policy: str, transport: bool,
         default_key: str | None = None, rounds: Mapping[str, tables.Row] | None = None
         ) -> list[Ranked]:
    """Every candidate, fastest first (unmeasured last), with the policy's verdict.
    ``rounds``: candidate key -> the ssh scenario's row, for the rates measured in that run's
    paired rounds."""
    rows = [Ranked(c, rates.get(c.key), pol.judge(policy, c, transport),
                   is_default=c.key == default_key,
                   rounds=(rounds or {}).get(c.key) if rates.get(c.key) else None)
            for c in cands]
    rows.sort(key=_key)
    dflt = default_row(rows)
    if dflt is not None and dflt.rounds is not None:
        for r in rows:
            if r is not dflt and r.rounds is not None:
                v = tables.paired_versus(dflt.rounds, r.rounds)
                r.vs_default, r.vs_default_figure = v.verdict, v.figure
        _default_ahead(rows, dflt)
    n, above = 0, None
    top = min((r.rate.authority for r in rows if r.rate is not None), default=0)
    for r in rows:
        if r.rate is None or r.rate.authority != top:
            continue      # ranked only within the deciding layer; the others show their layer
        pair = paired(above, r) if above is not None else None
        if pair is not None and pair.state == CANNOT_TELL:
            r.tie_within, r.tie_reason = pair.within, pair.reason
        elif pair is None and above is not None and above.rate is not None and \
                r.rate.overlaps(above.rate):
            r.tie_within = _within(above.rate, r.rate)
        else:
            n += 1
        r.rank = n
        above = r
    return rows


def paired(a: Ranked, b: Ranked) -> V.Verdict | None:
    """B against A from the paired rounds of the ssh run both were measured in (None when
    either was not)."""
    if a.rounds is None or b.rounds is None:
        return None
    return tables.paired_verdict(a.rounds, b.rounds)


def faster(a: Ranked, b: Ranked) -> bool:
    """A is measurably faster than B: by their paired verdict when they share rounds, else
    by 95% intervals that do not overlap."""
    if a.rate is None or b.rate is None:
        return False
    v = paired(b, a)
    if v is not None:
        return v.state == V.FASTER
    return a.rate.bps > b.rate.bps and not a.rate.overlaps(b.rate)


def indistinct(a: Ranked, b: Ranked) -> bool:
    """A and B cannot be told apart here (paired verdict, else overlapping intervals)."""
    if a.rate is None or b.rate is None:
        return False
    v = paired(a, b)
    if v is not None:
        return v.state == CANNOT_TELL
    return a.rate.overlaps(b.rate)


def _default_ahead(rows: list[Ranked], dflt: Ranked) -> None:
    """Order around the default by its verdicts: every row measurably faster than it goes
    ahead of it, every other row behind it, each group in rate order. An ssh verdict judged
    on CPU time can call a row faster whose wall rate came out lower (its rounds' noise):
    the row still goes first, as its "vs dflt" verdict says."""
    same = [r for r in rows if r is not dflt and r.rate is not None and dflt.rate is not None
            and r.rate.authority == dflt.rate.authority]
    ahead = [r for r in same if faster(r, dflt)]
    behind = [r for r in same if all(r is not a for a in ahead)]
    rest = [r for r in rows if r is not dflt and all(r is not x for x in same)]
    rows[:] = ahead + [dflt] + behind + rest


def _within(a: Rate, b: Rate) -> float:
    """How far apart two overlapping rates may be: the far ends of their intervals."""
    ra, rb = a.rel_ci or 0.0, b.rel_ci or 0.0
    hi, lo = max(a.bps * (1 + ra), b.bps * (1 + rb)), min(a.bps * (1 - ra), b.bps * (1 - rb))
    return max(0.01, hi / lo - 1) if lo > 0 else 1.0


def allowed(rows: list[Ranked]) -> list[Ranked]:
    """The rows the policy allows, in rank order."""
    return [r for r in rows if r.allowed]


def best(rows: list[Ranked]) -> Ranked | None:
    """The recommendation: the fastest allowed measured row; with nothing measured, the
    tool's default if allowed, else the first allowed one."""
    ok = allowed(rows)
    measured = [r for r in ok if r.rate is not None]
    if measured:
        return measured[0]
    dflt = next((r for r in ok if r.is_default), None)
    return dflt or (ok[0] if ok else None)


def default_row(rows: list[Ranked]) -> Ranked | None:
    """The row of the tool's default choice, if it is among them."""
    return next((r for r in rows if r.is_default), None)
