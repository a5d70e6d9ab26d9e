"""``cipherbench show RUN``: a stored run's machine, table and warnings again."""
from __future__ import annotations

import importlib

import click

from cipherbench.cli.context import AppContext, db_option, json_option
from cipherbench.cli.options import RUN_REF_CONTEXT, parse_sizes, run_refs
from cipherbench.display import console as disp
from cipherbench.display.format import format_results, format_run_header
from cipherbench.export import EXPORTERS, RunBundle
from cipherbench.presets import HEADLINE_SIZE
from cipherbench.warnings import BenchWarning


@click.command(context_settings=RUN_REF_CONTEXT)
@click.argument("run_ref", metavar="RUN", default="last", callback=run_refs)
@click.option("--headline-size", "headline", metavar="SIZE", default=None,
              help="message size of the table (default: the run's, else 16 KiB)")
@db_option
@json_option
@click.pass_obj
def command(app: AppContext, run_ref, headline, db, as_json) -> int:
    """Show run RUN (a number from `cipherbench history`, or `last`)."""
    with app.open_store(db, create=False) as store:
        bundle = RunBundle.load(store, run_ref)
    if as_json:
        app.stdout.write(EXPORTERS["json"].render(bundle))
        return 0
    head = (parse_sizes(headline, "--headline-size")[0] if headline
            else bundle.run.args.get("headline_size", HEADLINE_SIZE))
    disp.display_run_header(app.console, bundle.run, format_run_header(bundle.run))
    scenario_view = _scenario_display(bundle.run.command)
    if scenario_view is not None:
        scenario_view(app, bundle.run, bundle.results, bundle.warnings)
        disp.display_warnings(app.console, [BenchWarning(w.kind, w.subject, w.text)
                                            for w in bundle.warnings])
        return 0
    table = format_results(bundle.results, head)
    if table is not None:
        disp.display_results(app.console, table)
    else:
        app.console.print("no results stored for this run", markup=False)
    disp.display_warnings(app.console, [BenchWarning(w.kind, w.subject, w.text)
                                        for w in bundle.warnings])
    return 0


def _scenario_display(command_name: str):
    """The ``display_run(app, run, results, warnings)`` of the command that made a run, for
    runs that are not primitive runs (ssh, gpg, tls, advise); None for ``run``."""
    if command_name == "run":
        return None
    from cipherbench.cli import COMMANDS, MODULE_OF
    if command_name not in COMMANDS:
        return None
    module = importlib.import_module(f"cipherbench.cli.{MODULE_OF.get(command_name, command_name)}")
    return getattr(module, "display_run", None)
