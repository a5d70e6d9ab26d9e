# SPDX-License-Identifier: GPL-3.0-or-later
"""The ssh answer from the ssh run's own paired rounds, when the recommendation was measured
in them: the same verdicts ``cipherbench ssh`` prints for that run, never re-derived here.

- against the default: ``rank`` orders and ties the rows by ``scenarios.ssh.tables
  .paired_verdict`` (the ``vs dflt`` column's verdict), which ``advise.verdicts`` keeps and
  ``advise.wording`` words like every other sentence;
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

from cipherbench.advise.bottleneck import (BASELINE, CANNOT_TELL, CRYPTO_BOUND,
                                           PATH_BOUND, PROGRAM_BOUND, SPLIT_RULE, PathVerdict,
                                           sentence, verdict)
from cipherbench.advise.evidence import Rate
from cipherbench.advise.rank import Ranked
from cipherbench.scenarios.ssh import bottleneck as ssh_bn
from cipherbench.scenarios.ssh import tables as ssh_tables

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
