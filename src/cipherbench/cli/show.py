"""``cipherbench show RUN``: a stored run's machine, table and warnings again."""
from __future__ import annotations

import click

from cipherbench.cli.advise import display_run as advise_view
from cipherbench.clikit.context import AppContext, db_option, json_option
from cipherbench.clikit.options import RUN_REF_CONTEXT, parse_sizes, run_refs
from cipherbench.display import console as disp
from cipherbench.display.format import format_run_header
from cipherbench.export import EXPORTERS, RunBundle
from cipherbench.presets import HEADLINE_SIZE
from cipherbench.scenarios import view_of
from cipherbench.scenarios.primitive import scenario as primitive
from cipherbench.run_warnings import BenchWarning

#: Views of stored runs made by commands that are not scenarios.
OTHER_VIEWS = {"advise": advise_view}


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
    view = view_of(bundle.run.command) or OTHER_VIEWS.get(bundle.run.command)
    if view is primitive.view or view is None:
        primitive.view(app, bundle.run, bundle.results, bundle.warnings, headline=head)
    else:
        view(app, bundle.run, bundle.results, bundle.warnings)
    disp.display_warnings(app.console, [BenchWarning(w.kind, w.subject, w.text)
                                        for w in bundle.warnings])
    return 0
