# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench history``: the stored runs (the advice ``advise`` stores only with ``--all``)."""
from __future__ import annotations

import json

import click

from cipherbench.clikit.context import AppContext, db_option, json_option
from cipherbench.display import console as disp
from cipherbench.display.format import format_history
from cipherbench.export.history import to_document

#: Commands whose runs are answers drawn from other runs, not measurements: kept (``show``
#: finds them by id) but left out of the list unless ``--all`` asks for them.
HIDDEN_COMMANDS = ("advise",)


@click.command()
@click.option("--all", "show_all", is_flag=True,
              help="also list the stored advice of `cipherbench advise`")
@db_option
@json_option
@click.pass_obj
def command(app: AppContext, show_all, db, as_json) -> int:
    """List the stored runs, oldest first."""
    with app.open_store(db, create=False) as store:
        stored = store.runs()
        runs = stored if show_all else [r for r in stored if r.command not in HIDDEN_COMMANDS]
        hidden = len(stored) - len(runs)
        if as_json:
            app.stdout.write(json.dumps(to_document(runs, hidden), indent=2) + "\n")
            return 0
        header, rows = format_history(runs)
        if not runs:
            app.console.print(f"no runs in {store.name} yet: `cipherbench run` makes one"
                              if not hidden else
                              f"only advice is stored in {store.name} ({hidden} "
                              "advise runs): --all lists it", markup=False)
            return 0
        disp.display_rows(app.console, header, rows)
        if hidden:
            app.console.print(f"{hidden} advise run{'s' if hidden != 1 else ''} not listed: "
                              "--all lists them", markup=False, highlight=False)
    return 0
