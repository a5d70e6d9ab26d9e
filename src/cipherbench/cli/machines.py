# SPDX-License-Identifier: GPL-3.0-or-later
"""Printing machines side by side (``compare`` across machines, ``advise --inventory``): the
machine x candidate table, the fleet's summary sentence and the config lines per group of
machines that share an answer. The records come from ``advise.fleet``."""
from __future__ import annotations

from collections.abc import Sequence

from cipherbench.advise import fleet as F
from cipherbench.advise.validate import printable
from cipherbench.clikit.context import AppContext
from cipherbench.errors import UsageError
from cipherbench.display.console import display_fitted
from cipherbench.units import format_rate


def display_table(app: AppContext, answers: Sequence[F.MachineAnswer], policy: str) -> None:
    """One row per machine: the candidates' rates, what to use, against its default."""
    table = F.machine_table(answers)
    rows: list[list] = [[r.machine, *("-" if x is None else format_rate(x) for x in r.rates),
                         r.use, r.against_default] for r in table.rows]
    display_fitted(app.console, ["machine", *table.columns, "use", "against its default"],
                   rows, keep=1, right=list(table.columns),
                   title=f"{table.target} on each machine: the fastest choice "
                         f"the {policy} policy allows, against that "
                         "machine's own default")


def display_summary(app: AppContext, answers: Sequence[F.MachineAnswer],
                    config: bool = True) -> None:
    """The fleet's sentence, the machines not measured with the command that measures them,
    and (``config``) the lines per group of machines that share an answer."""
    c = app.console
    summary = F.summarize(answers)
    c.print(F.sentence(summary), markup=False, highlight=False)
    missing = [a for a in answers if a.verdict.state == "not measured"]
    for a in missing:
        c.print(f"not measured: {a.machine.name}: run `{a.verdict.remedy}`", markup=False,
                highlight=False)
    if not config:
        return
    hosts = {a.machine.name: a.machine.host for a in answers}
    for g in summary.groups:
        if not g.lines or g.state in ("not measured", "none allowed"):
            continue
        names = ", ".join(g.machines)
        c.print(f"config for {names} ({g.choice}):", markup=False, highlight=False)
        checked = F.config_of(answers, g)
        for ln, text in zip(checked, F.fill(g.lines, g.machines, hosts)):
            # a line the tool rejected is left out as advise leaves it out (``printable``)
            shown = printable([ln])[0] if ln.status == "rejected" else text
            c.print("    " + shown, markup=False, highlight=False, soft_wrap=True)


def stored_hosts(names: list[str], inventory: str | None, db, app: AppContext) -> list[str]:
    """The --host names (patterns matched against the stored hosts) and the inventory's."""
    from cipherbench.remote import inventory as inv
    if not names and not inventory:
        return []
    with app.open_store(db, create=False) as store:
        try:
            out = F.stored_hosts(store.runs(), names)
        except LookupError as e:
            raise UsageError(str(e)) from None
    return out + [h for h in (inv.hosts_of(inventory) if inventory else []) if h not in out]
