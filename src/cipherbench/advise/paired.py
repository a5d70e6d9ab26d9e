# SPDX-License-Identifier: GPL-3.0-or-later
"""The ssh answer from the ssh run's own paired rounds, when the recommendation was measured
in them: the same verdicts ``cipherbench ssh`` prints for that run, never re-derived here.

- against the default: ``rank`` orders and ties the rows by ``scenarios.ssh.tables
  .paired_verdict`` (the ``vs dflt`` column's verdict); ``versus_default`` words it, with the
  paired ratio and its interval as the only factor, or "cannot tell here (within N%)";
- the bottleneck: ``scenarios.ssh.tables.judge`` of the fastest allowed choice of the rounds,
  as ``ssh`` judges its fastest cipher (the recommendation, or the one the kept default
  cannot be told apart from): its time split into the cipher's own work (measured alone in
  the same run), ssh's and the waiting (``scenarios.ssh.bottleneck``); a ``--link``
  narrower than what that choice moved caps it with the interval rule of
  ``advise.bottleneck`` against the link. The paired verdict against the cleartext
  baseline is kept beside it (``share``), never what decides.

Evidence without paired rounds (ssh runs stored before the rounds, primitive stand-ins,
``--host`` primitives) keeps the interval rule of ``advise.bottleneck``.
"""
from __future__ import annotations

from cipherbench.analysis import cpu_figure
from cipherbench.analysis import verdict as V
from cipherbench.advise.bottleneck import (BASELINE, CANNOT_TELL, CRYPTO_BOUND,
                                           PATH_BOUND, PROGRAM_BOUND, SPLIT_RULE, PathVerdict,
                                           sentence, verdict)
from cipherbench.advise.evidence import Rate
from cipherbench.advise.rank import Ranked, default_row
from cipherbench.scenarios.ssh import bottleneck as ssh_bn
from cipherbench.scenarios.ssh import tables as ssh_tables
from cipherbench.units import format_rate

_STATE = {ssh_bn.CRYPTO: CRYPTO_BOUND, ssh_bn.PROGRAM: PROGRAM_BOUND, ssh_bn.PATH: PATH_BOUND,
          ssh_bn.UNKNOWN: CANNOT_TELL}


def applies(rec: Ranked | None) -> bool:
    """The recommendation was measured in an ssh run's paired rounds."""
    return rec is not None and rec.rounds is not None


def bottleneck(rows: list[Ranked], rec: Ranked, baseline: Rate | None,
               link: tuple[float, str] | None, run_id: int | None
               ) -> tuple[str, PathVerdict | None]:
    """The sentence and the verdict for a recommendation with paired rounds (``baseline``:
    the same run's cleartext baseline, None when it measured none). Judged for the fastest
    allowed choice of those rounds, as the ssh scenario judges its fastest cipher (the
    recommendation, or the default it cannot be told apart from): its time split into the
    cipher's own work, ssh's and the waiting (``scenarios.ssh.tables.judge``). A ``--link``
    narrower than what that choice moved caps it: then the link is the bottleneck."""
    top = fastest(rows) or rec
    v = top.vs_baseline
    moved = top.rate.bps if top.rate is not None else None
    if link is not None and (moved is None or link[0] < moved):
        text = sentence(rows, link, baseline, top)
        text += (" The nominal link decided: it is narrower than what the paired rounds "
                 "moved.")
        return text, verdict(rows, link, baseline, top)
    assert top.rounds is not None
    judged = ssh_tables.judge(top.rounds)
    run = f" of run {run_id}" if run_id is not None else ""
    below = f" Your {link[1]} is wider than what it moved." if link else ""
    text = f"{judged.text()} Decided by the paired rounds{run}.{below}"
    share = (v.ratio, v.low, v.high) if baseline is not None and v is not None \
        else (None, None, None)
    return text, PathVerdict(_STATE[judged.kind], *share, BASELINE,
                             baseline.bps if baseline is not None else None, SPLIT_RULE,
                             judged.split.to_dict() if judged.split else None)


def fastest(rows: list[Ranked]) -> Ranked | None:
    """The allowed choice measured in the paired rounds with the highest rate (None: none)."""
    paired = [r for r in rows if r.allowed and r.rounds is not None and r.rate is not None]
    return max(paired, key=lambda r: r.rate.bps if r.rate else 0.0, default=None)


def kept_default(rows: list[Ranked], rec: Ranked | None) -> Ranked | None:
    """When the recommendation is the default ranked ahead of faster-looking choices (their
    paired verdict against it is not "faster"): the allowed one of them with the highest
    rate; else None."""
    if rec is None or not rec.is_default or rec.rounds is None or rec.rate is None:
        return None
    above = [r for r in rows if r is not rec and r.allowed and r.rate is not None
             and r.vs_default is not None and r.rate.bps > rec.rate.bps]
    return max(above, key=lambda r: r.rate.bps if r.rate else 0.0, default=None)


def outpaced(rows: list[Ranked], rec: Ranked | None) -> bool:
    """The recommendation, ranked first by its paired verdict against the default (judged on
    CPU time), moved less in those rounds than another allowed choice: then it is not called
    "the fastest"."""
    if rec is None or rec.rounds is None or rec.rate is None:
        return False
    return any(r is not rec and r.allowed and r.rate is not None and r.rate.bps > rec.rate.bps
               for r in rows)


def kept_text(target: str, policy: str, rec: Ranked, other: Ranked) -> str:
    """The headline when the default is kept: what it cannot be told apart from."""
    assert rec.rate is not None and other.rate is not None and other.vs_default is not None
    return (f"For {target}, keep the default, {rec.cand.label} ({format_rate(rec.rate.bps)}): "
            f"no choice the {policy} policy allows is measurably faster here "
            f"({other.cand.label}, {format_rate(other.rate.bps)}, against it: "
            f"{other.vs_default.text()}).")


def versus_default(rows: list[Ranked], rec: Ranked) -> str | None:
    """The answer's clause on the default from the paired verdict: the paired ratio with its
    interval when faster, else what the verdict says. None without paired rounds of both."""
    dflt = default_row(rows)
    v = rec.vs_default
    if dflt is None or dflt is rec or v is None:
        return None
    if v.state == V.FASTER:
        assert v.ratio is not None and v.low is not None and v.high is not None
        what = ("does {r:.2f}x the work per CPU second of both ends that the default ({d}) does"
                if rec.vs_default_figure == cpu_figure.CPU else
                "moves {r:.2f}x what the default ({d}) moves")
        return (f" It {what.format(r=v.ratio, d=dflt.cand.label)} in the same rounds (95% CI "
                f"{v.low:.2f}-{v.high:.2f}, {v.n_rounds} paired rounds).")
    # the default ranks ahead of what it cannot be told from: here it is not allowed
    why = "" if dflt.allowed else f", not allowed: {dflt.verdict.reason}"
    return f" Against the default ({dflt.cand.label}{why}): {v.text()}."
