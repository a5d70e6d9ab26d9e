# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench import FILE...``: bring exported runs into this store (``export.importing``)."""
from __future__ import annotations

import click

from cipherbench.clikit.context import AppContext, db_option
from cipherbench.export import importing


@click.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@db_option
@click.pass_obj
def command(app: AppContext, files, db) -> int:
    """Store the runs of exported JSON files (`export --format json`, `run --json`, a fleet's
    `run --host ... --json`) here, each with its own machine. A run already stored (the same
    unique id) is not stored twice. Every file is read and checked before anything is
    stored."""
    items = [item for f in files for item in importing.read(f)]
    store = app.open_store(db)
    outcomes = importing.store_runs(store, items)
    for o in outcomes:
        m = o.item.run.metadata
        where = m.get("host") or m.get("hostname") or "?"
        what = (f"stored as run {o.run_id}" if o.new else f"already stored as run {o.run_id}")
        app.console.print(f"{o.item.source}: {o.item.run.command} on {where}, "
                          f"{len(o.item.results)} results: {what}", markup=False,
                          highlight=False)
    new = sum(o.new for o in outcomes)
    app.console.print(f"imported {new} run{'s' if new != 1 else ''} into {store.name}"
                      + (f"; {len(outcomes) - new} already there" if new < len(outcomes)
                         else ""), markup=False, highlight=False)
    return 0
