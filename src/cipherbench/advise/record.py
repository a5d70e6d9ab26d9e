# SPDX-License-Identifier: GPL-3.0-or-later
"""Store the advice as a run, so ``cipherbench report`` and ``show`` can find it.

Format: a run with command ``advise``; ``args`` = {"for", "policy", "link", "lib", "host",
"assume_no_aes", "ssh_config", "via"}; metadata = the machine's (``metadata.collect()``) plus
``advice_schema`` (``SCHEMA``) and ``evidence_runs``. Per target, results with
scenario ``advise`` and lib = the target name:

- one row op ``recommend``: algo = the recommended choice's key (``""`` if none), metric
  ``bytes_per_s``/``B/s``, median = its rate (0 when not measured), extra = the target's whole
  JSON (answer, bottleneck, candidates, config lines, notes, evidence runs);
- one row per ranked candidate, op ``candidate``: algo = the candidate's key, size = its rank
  (None when not measured), median = its rate (0 when not measured), extra = {grade, allowed,
  why_not, source, estimated, stand_in, label}.
"""
from __future__ import annotations

from cipherbench.machine import metadata
from cipherbench.advise.engine import Advice, Options
from cipherbench.store import Result, Store

#: The ``advise --json`` document (``export/advise.schema.json``). History:
#: 1: first version. 2: each ``measured`` entry names the run it stored and its status (the
#: advisor measures through the scenarios, not the command line). 3: ``ssh_config`` and
#: ``via``, the options the ssh measurement was given; each target's ``bottleneck_verdict``
#: (state, share of the path with its interval, which path). 4: each candidate's
#: ``vs_default`` and ``vs_baseline``, the paired verdicts of the ssh run's rounds it was
#: measured in (null otherwise), each with the ``figure`` it was judged on (``cpu_s``, ``wall_s``,
#: as the ssh table's); ``bottleneck_verdict.rule`` names what decided (``paired``:
#: the ssh run's verdict against its baseline, ``share`` then the paired ratio; ``interval``;
#: ``link``). 5: the ssh bottleneck from the paired rounds is decided by the fastest choice's
#: time split (rule ``split``, ``bottleneck_verdict.parts``: the cipher's own share measured
#: alone, ssh's, the waiting), its state may be ``program-bound``, and ``share`` (the paired
#: ratio to the baseline, beside it) is null without a baseline; the gpg target's ``backup``
#: (the whole backup's wall-clock and CPU time, and what decides it).
SCHEMA = "cipherbench-advise/6"
SCENARIO = "advise"


def store_advice(store: Store, target_arg: str, opts: Options, advice: list[Advice]) -> int:
    """Write the advice as a complete run; returns its id."""
    runs = sorted({i for a in advice for i in a.evidence_runs})
    args = {"for": target_arg, "policy": opts.policy,
            "link": opts.link[1] if opts.link else None, "link_bytes_per_s":
            opts.link[0] if opts.link else None, "lib": opts.lib, "host": opts.host,
            "assume_no_aes": opts.assume_no_aes, "ssh_config": opts.ssh_config,
            "via": opts.via}
    meta = metadata.collect()
    meta.update({"advice_schema": SCHEMA, "evidence_runs": runs})
    run_id = store.begin_run("advise", args=args, metadata=meta)
    try:
        for a in advice:
            rec = a.recommended
            store.add_result(run_id, Result(
                SCENARIO, a.target.name, rec.cand.key if rec else "", "recommend", None,
                "bytes_per_s", "B/s", rec.rate.bps if rec and rec.rate else 0.0,
                extra=a.to_json()))
            for r in a.rows:
                store.add_result(run_id, Result(
                    SCENARIO, a.target.name, r.cand.key, "candidate", r.rank, "bytes_per_s",
                    "B/s", r.rate.bps if r.rate else 0.0, extra={
                        "label": r.cand.label, "grade": r.cand.grade.level,
                        "allowed": r.allowed, "why_not": r.verdict.reason,
                        "source": r.rate.source if r.rate else None,
                        "estimated": bool(r.rate and r.rate.estimated),
                        "stand_in": bool(r.rate and r.rate.stand_in)}))
    except BaseException:
        store.finish_run(run_id, "interrupted")
        raise
    store.finish_run(run_id, "complete")
    return run_id
