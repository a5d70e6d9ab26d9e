# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench export RUN --format json|csv|markdown``; ``export --format openmetrics``: the
latest figures of every host (``export.openmetrics``)."""
from __future__ import annotations


import click
from click.core import ParameterSource

from cipherbench.clikit.context import AppContext, db_option
from cipherbench.clikit.options import RUN_REF_CONTEXT, parse_sizes, run_refs
from cipherbench.errors import UsageError
from cipherbench.export import EXPORTERS, RunBundle, openmetrics
from cipherbench.output import write_file
from cipherbench.presets import HEADLINE_SIZE


@click.command(context_settings=RUN_REF_CONTEXT)
@click.argument("run_ref", metavar="RUN", default="last", callback=run_refs)
@click.option("--format", "-f", "fmt", type=click.Choice(sorted([*EXPORTERS, "openmetrics"])),
              default="json", show_default=True,
              help="output format; openmetrics: the latest figures of every host, library and "
                   "algorithm for node_exporter's textfile collector (no RUN)")
@click.option("--output", "-o", metavar="FILE", help="write to FILE instead of stdout")
@click.option("--headline-size", "headline", metavar="SIZE", default=None,
              help="message size of the Markdown table (default: the run's)")
@db_option
@click.pass_obj
def command(app: AppContext, run_ref, fmt, output, headline, db) -> int:
    """Export run RUN (a number from `cipherbench history`, or `last`)."""
    if fmt == "openmetrics":
        ctx = click.get_current_context()
        if ctx.get_parameter_source("run_ref") is not ParameterSource.DEFAULT:
            raise UsageError("--format openmetrics writes the latest figures of every host "
                             "from every run: leave out RUN")
        with app.open_store(db, create=False) as store:
            text = openmetrics.render(openmetrics.latest_figures(store))
        return _write(app, text, output)
    with app.open_store(db, create=False) as store:
        bundle = RunBundle.load(store, run_ref)
    head = (parse_sizes(headline, "--headline-size")[0] if headline
            else bundle.run.args.get("headline_size", HEADLINE_SIZE))
    return _write(app, EXPORTERS[fmt].render(bundle, head), output)


def _write(app: AppContext, text: str, output: str | None) -> int:
    """``text`` to ``output`` or stdout. A file is written whole or not at all (a temporary
    file renamed over it, ``output.write_file``): a full disk leaves no partial file, and a
    collector reading the directory never sees half a file."""
    if not output:
        app.stdout.write(text)
        return 0
    write_file(output, text)
    return 0
