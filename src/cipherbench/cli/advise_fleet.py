# SPDX-License-Identifier: GPL-3.0-or-later
"""``advise --inventory FILE[:GROUP]`` and repeated ``--host``: the answer per host from each
host's stored runs (``advise.fleet``), then one summary of the fleet with the config lines
per group of hosts that share an answer. Nothing is measured here: ``run --inventory``
measures the hosts in parallel; a host without evidence is "not measured" and named."""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace

from cipherbench.advise import fleet
from cipherbench.advise.engine import Options
from cipherbench.advise.measure import check_via
from cipherbench.advise.record import store_advice
from cipherbench.advise.targets import resolve
from cipherbench.advise.validate import Validator
from cipherbench.cli.machines import display_summary, display_table
from cipherbench.clikit.context import AppContext
from cipherbench.clikit.options import split_list
from cipherbench.errors import UsageError
from cipherbench.export import machines as machines_doc
from cipherbench.remote import targets as remote_targets


def advise_fleet(app: AppContext, target: str, policy: str, link_rate, hosts: Sequence[str],
                 inventory: str | None, ssh_config: str | None, via, lib: str | None,
                 assume_no_aes: bool, kernel: bool, db, as_json: bool, details: bool) -> int:
    """Answer per host and for the fleet; exit 3 when a host has no evidence."""
    if kernel:
        raise UsageError("--kernel measures this machine's dm-crypt; with several hosts "
                         "advise reads each host's stored runs")
    names = remote_targets.expand(hosts, inventory, ssh_config, app.env)
    if not names:
        raise UsageError(f"--inventory {inventory}: names no host")
    tools = check_via(split_list(via)) if via else None
    opts = Options(policy=policy, link=link_rate, lib=lib, assume_no_aes=assume_no_aes,
                   ssh_config=ssh_config, via=tools)
    validator = Validator(app.env)
    with app.open_store(db) as store:
        machines = fleet.machines_of_hosts(store.runs(), names)
        per_target = [fleet.answer_machines(store, machines, t, opts, app.env, validator)
                      for t in resolve(target)]
        stored = [store_advice(store, target, replace(opts, host=m.host or m.name),
                               [answers[i].advice for answers in per_target])
                  for i, m in enumerate(machines)]
    missing = sorted({a.machine.name for answers in per_target for a in answers
                      if a.verdict.state == "not measured"})
    status = 3 if missing else 0
    if as_json:
        doc = machines_doc.document(per_target, {
            "for": target, "policy": policy, "hosts": names, "inventory": inventory,
            "stored_runs": stored, "exit": status}, with_advice=True)
        app.stdout.write(json.dumps(doc, indent=2) + "\n")
        return status
    from cipherbench.cli.advise import display
    c = app.console
    for answers in per_target:
        if details:
            for a in answers:
                c.rule(f"{a.machine.name}", style="bold")
                display(app, a.advice, replace(opts, host=a.machine.host))
        display_table(app, answers, policy)
        display_summary(app, answers)
        c.print()
    if missing:
        c.print(f"{len(missing)} host{'s' if len(missing) != 1 else ''} without evidence "
                f"({', '.join(missing)}): `cipherbench run --host HOST` (or `run --inventory "
                "FILE[:GROUP]`, in parallel) measures them", markup=False, highlight=False)
    c.print(f"stored as runs {', '.join(map(str, stored))} (one per host)", markup=False,
            highlight=False)
    return status
