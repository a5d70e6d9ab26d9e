# SPDX-License-Identifier: GPL-3.0-or-later
"""The answer as a record: what the evidence decided, before any sentence is written.

``decide`` turns the ranked rows of one target, the layer that decides and the tool's default
into an ``AnswerVerdict``: its ``state`` (what the answer does), the choice it names, and the
comparison with the default with its statistics. ``advise.wording`` renders every sentence
from this record alone, so two runs whose verdicts agree print the same headline and the
same conclusion.

The rules:

- nothing allowed measured in any layer -> ``not measured``: nothing is recommended;
- the policy allows none of the candidates -> ``none allowed``;
- the default is allowed and measured in the deciding layer: another choice is named only
  when its verdict against the default says faster (the paired verdict of the run that
  measured both, else their 95% intervals); otherwise the answer keeps the default;
- among the choices that cannot be told apart from the fastest of them, the family's fixed
  order of preference decides (noise between equals never changes the name);
- the default unknown (its tool could not be asked), not measured in that layer, or not
  allowed: the fastest allowed choice, and the state says which of these it is.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from cipherbench.advise.evidence import Rate
from cipherbench.advise.families import Default, LayerEvidence
from cipherbench.advise.rank import Ranked, indistinct
from cipherbench.analysis import verdict as V

# -- what the answer does ----------------------------------------------------------------------
NOT_MEASURED = "not measured"
NONE_ALLOWED = "none allowed"
KEEP_DEFAULT = "keep the default"
USE = "use"

# -- how the choice stands against the default -------------------------------------------------
IS_DEFAULT = "is the default"
FASTER = "faster than the default"
NOT_FASTER = "not measurably faster than the default"
DEFAULT_UNKNOWN = "default not read"
DEFAULT_NOT_MEASURED = "default not measured"
DEFAULT_NOT_ALLOWED = "default not allowed"
ONLY_CHOICE = "the only choice measured"


@dataclass(frozen=True)
class Comparison:
    """B against A: the verdict, what it was judged on (``paired rounds of run N`` or ``95%
    intervals``) and the figure (``cpu_s``, ``wall_s``; None for intervals)."""

    verdict: V.Verdict
    basis: str
    figure: str | None = None


@dataclass(frozen=True)
class AnswerVerdict:
    """The decision for one target. ``choice``/``default`` are labels (the names the config
    lines use); ``versus``: the choice against the default (``FASTER``), or the closest
    allowed choice against the kept default (``KEEP_DEFAULT``); ``layer``: the title of the
    deciding layer, ``runs`` its runs."""

    target: str
    state: str
    against_default: str | None = None
    choice: str | None = None
    default: str | None = None
    default_source: str = ""
    default_reason: str = ""     # why the default is not allowed
    closest: str | None = None   # the allowed choice nearest the kept default
    versus: Comparison | None = None
    choice_rate: Rate | None = None
    layer: str = ""
    layer_key: str = ""
    runs: tuple[int, ...] = ()
    policy: str = ""
    remedy: str = ""
    #: the layers above the deciding one that hold nothing allowed for this target
    above: tuple[str, ...] = ()

    @property
    def recommends(self) -> bool:
        return self.state in (USE, KEEP_DEFAULT)


def interval_verdict(a: Rate, b: Rate) -> V.Verdict:
    """B against A from their 95% intervals (no shared rounds): faster or slower only when
    the intervals do not overlap, the ratio's interval from their far ends."""
    ra, rb = a.rel_ci or 0.0, b.rel_ci or 0.0
    ratio = b.bps / a.bps
    low = b.bps * (1 - rb) / (a.bps * (1 + ra))
    high = b.bps * (1 + rb) / (a.bps * (1 - ra)) if ra < 1 else float("inf")
    if not b.overlaps(a):
        return V.Verdict(V.FASTER if ratio > 1 else V.SLOWER, ratio, low, high, 0)
    within = max(V.DEFAULT_MARGIN, high - 1, 1 / low - 1 if low > 0 else 1.0)
    return V.Verdict(V.CANNOT_TELL, ratio, low, high, 0, within=within)


def compare(dflt: Ranked, row: Ranked, layer: LayerEvidence, default_key: str | None
            ) -> Comparison:
    """The row against the default: the deciding run's own paired verdict where it measured
    both against this very default, else their intervals."""
    run = layer.runs[0] if layer.runs else None
    if row.vs_default is not None:       # ssh: ``rank`` took it from the run's rounds
        return Comparison(row.vs_default, f"paired rounds of run {run}", row.vs_default_figure)
    v = layer.versus.get(row.cand.key)
    if v is not None and layer.reference == default_key:
        return Comparison(v, f"paired rounds of run {run}", layer.figure.get(row.cand.key))
    assert dflt.rate is not None and row.rate is not None
    return Comparison(interval_verdict(dflt.rate, row.rate), "95% intervals")


def decide(target: str, rows: list[Ranked], layers: list[LayerEvidence], dflt: Default,
           policy: str, remedy: str, preference: Callable) -> tuple[AnswerVerdict, Ranked | None]:
    """The verdict and the row it names (None: it names none)."""
    base = AnswerVerdict(target, NOT_MEASURED, policy=policy, remedy=remedy,
                         default_source=dflt.fact.source)
    if not any(r.allowed for r in rows):
        return replace(base, state=NONE_ALLOWED), None
    measured = [(r, r.rate) for r in rows if r.allowed and r.cand.available and r.rate]
    if not measured:
        return base, None
    top = min(rate.authority for _, rate in measured)
    layer = layers[top]
    ok = [r for r, rate in measured if rate.authority == top]
    d = next((r for r in rows if r.is_default), None)
    base = replace(base, layer=layer.layer.title, layer_key=layer.layer.key, runs=layer.runs,
                   above=tuple(le.layer.title for le in layers[:top]),
                   default=d.cand.label if d is not None else dflt.fact.name)
    if d is not None and d in ok:
        versus = {id(r): compare(d, r, layer, dflt.key) for r in ok if r is not d}
        faster = [r for r in ok if r is not d and versus[id(r)].verdict.state == V.FASTER]
        if not faster:
            near = max((r for r in ok if r is not d), key=_bps, default=None)
            return replace(base, state=KEEP_DEFAULT, against_default=IS_DEFAULT,
                           choice=d.cand.label, choice_rate=d.rate,
                           closest=near.cand.label if near else None,
                           versus=versus[id(near)] if near else None), d
        pick = _first_of_equals(faster, preference)
        return replace(base, state=USE, against_default=FASTER, choice=pick.cand.label,
                       choice_rate=pick.rate, versus=versus[id(pick)]), pick
    pick = _first_of_equals(ok, preference)
    if len(ok) == 1 and (d is None or d is pick):
        state = ONLY_CHOICE
    elif d is None:
        state = DEFAULT_UNKNOWN
    elif not d.allowed:
        state = DEFAULT_NOT_ALLOWED
        base = replace(base, default_reason=d.verdict.reason)
    else:
        state = DEFAULT_NOT_MEASURED
    return replace(base, state=USE, against_default=state, choice=pick.cand.label,
                   choice_rate=pick.rate), pick


def _bps(r: Ranked) -> float:
    return r.rate.bps if r.rate is not None else 0.0


def _first_of_equals(rows: list[Ranked], preference: Callable) -> Ranked:
    """Of the rows that cannot be told apart from the fastest, the first by the family's
    fixed preference."""
    fastest = max(rows, key=_bps)
    equals = [r for r in rows if r is fastest or indistinct(fastest, r)]
    return min(equals, key=lambda r: (preference(r.cand), -_bps(r)))
