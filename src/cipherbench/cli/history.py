"""``cipherbench history``: the stored runs."""
from __future__ import annotations

import json

import click

from cipherbench.cli.context import AppContext, db_option, json_option
from cipherbench.display import console as disp
from cipherbench.display.format import format_history


@click.command()
@db_option
@json_option
@click.pass_obj
def command(app: AppContext, db, as_json) -> int:
    """List the stored runs, oldest first."""
    with app.open_store(db, create=False) as store:
        runs = store.runs()
        header, rows = format_history(runs)
        if as_json:
            app.stdout.write(json.dumps([dict(zip(header, r)) for r in rows], indent=2) + "\n")
        elif not runs:
            app.console.print(f"no runs in {store.path} yet: `cipherbench run` makes one",
                              markup=False)
        else:
            disp.display_rows(app.console, header, rows)
    return 0
