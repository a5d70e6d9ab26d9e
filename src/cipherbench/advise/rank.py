"""Ranking: fastest first among everything measured, the policy's verdict beside each row."""
from __future__ import annotations

from dataclasses import dataclass

from cipherbench import catalog
from cipherbench.advise import policy as pol
from cipherbench.advise.candidates import Candidate
from cipherbench.advise.evidence import Rate

_GRADE_ORDER = {g: i for i, g in enumerate(catalog.GRADES)}


@dataclass
class Ranked:
    """One row of the candidates table."""

    cand: Candidate
    rate: Rate | None
    verdict: pol.Verdict
    rank: int | None = None          # 1 = fastest measured (None: no rate)
    is_default: bool = False

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
    n = 0
    for r in rows:
        if r.rate is not None:
            n += 1
            r.rank = n
    return rows


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
