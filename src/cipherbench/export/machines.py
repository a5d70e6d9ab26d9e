# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``--json`` document of machines side by side (``compare`` across machines, ``advise
--inventory`` and repeated ``--host``): per target, each machine's answer with its rates and
the runs that decided, and the fleet's summary in groups with their config lines
(``machines.schema.json``)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cipherbench.advise import fleet as F

SCHEMA_NAME = "cipherbench-machines"
#: History: 1: first version (targets, each with its columns, machines and summary).
SCHEMA_VERSION = 1


def target_doc(answers: Sequence[F.MachineAnswer], with_advice: bool) -> dict[str, Any]:
    """One target across the machines; ``with_advice``: each machine's whole advice too
    (the ``advise --json`` target object)."""
    table = F.machine_table(answers)
    summary = F.summarize(answers)
    hosts = {a.machine.name: a.machine.host for a in answers}
    machines = []
    for a, row in zip(answers, table.rows):
        v = a.verdict
        machines.append({
            "name": a.machine.name, "host": a.machine.host,
            "runs": None if a.machine.runs is None else sorted(a.machine.runs),
            "state": v.state, "against_default": v.against_default, "choice": v.choice,
            "default": v.default, "use": row.use, "against_default_cell": row.against_default,
            "answer": a.advice.answer,
            "remedy": v.remedy if v.state == "not measured" else None,
            "rates": {c: r for c, r in zip(table.columns, row.rates)},
            "evidence_runs": list(row.runs),
            "advice": a.advice.to_json() if with_advice else None})
    return {
        "target": table.target, "columns": list(table.columns), "machines": machines,
        "summary": {
            "sentence": F.sentence(summary), "n": summary.n,
            "groups": [{"state": g.state, "against_default": g.against_default,
                        "choice": g.choice, "machines": list(g.machines),
                        "config": F.fill(g.lines, g.machines, hosts)}
                       for g in summary.groups]}}


def document(per_target: Sequence[Sequence[F.MachineAnswer]], options: Mapping[str, Any],
             with_advice: bool = False) -> dict[str, Any]:
    """The whole document: what was asked (``options``) and one entry per target."""
    return {"schema": SCHEMA_NAME, "schema_version": SCHEMA_VERSION, **options,
            "targets": [target_doc(a, with_advice) for a in per_target]}
