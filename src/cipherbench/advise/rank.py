"""Ranking: fastest first among everything measured, the policy's verdict beside each row."""
from __future__ import annotations

import math
from dataclasses import dataclass

from cipherbench import catalog
from cipherbench.advise import policy as pol
from cipherbench.advise.candidates import Candidate
from cipherbench.advise.evidence import Rate
from cipherbench.verdict import CANNOT_TELL

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
    #: when their 95% intervals overlap, so the order between them is noise, not a ranking
    tie_within: float | None = None

    @property
    def tied(self) -> bool:
        return self.tie_within is not None

    def tie_text(self) -> str:
        """``cannot tell apart from the row above here (within 4%)``."""
        n = math.ceil((self.tie_within or 0.0) * 100 - 1e-9)
        return f"{CANNOT_TELL} apart from the row above here (within {n:.0f}%)"

    @property
    def allowed(self) -> bool:
        """The policy allows it."""
        return self.verdict.allowed


def _key(r: Ranked) -> tuple:
    tls13 = bool(getattr(r.cand.names.get("suite"), "tls13", False))
    return (r.rate is None, -(r.rate.bps if r.rate else 0.0),
            _GRADE_ORDER.get(r.cand.grade.level, 9), not r.cand.aead, not tls13,
            catalog.order_key(r.cand.cipher), r.cand.key)


def rank(cands: list[Candidate], rates: dict[str, Rate | None], policy: str, transport: bool,
         default_key: str | None = None) -> list[Ranked]:
    """Every candidate, fastest first (unmeasured last), with the policy's verdict."""
    rows = [Ranked(c, rates.get(c.key), pol.judge(policy, c, transport),
                   is_default=c.key == default_key) for c in cands]
    rows.sort(key=_key)
    n, above = 0, None
    for r in rows:
        if r.rate is None:
            continue
        if above is not None and above.rate is not None and r.rate.overlaps(above.rate):
            r.tie_within = _within(above.rate, r.rate)
        else:
            n += 1
        r.rank = n
        above = r
    return rows


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
