# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench show RUN``: a stored run's machine, table and warnings again."""
from __future__ import annotations

import click

from cipherbench.cli.advise import display_run as advise_view
from cipherbench.clikit.context import AppContext, db_option, json_option
from cipherbench.advise.targets import ALL as ADVISE_TARGETS
from cipherbench.clikit.options import (RUN_REF_CONTEXT, did_you_mean, nonempty_list,
                                        parse_sizes, run_refs, split_list)
from cipherbench.display import console as disp
from cipherbench.display.format import REF_LIB, format_run_header
from cipherbench.errors import UsageError
from cipherbench.export import EXPORTERS, RunBundle
from cipherbench.presets import HEADLINE_SIZE
from cipherbench.scenarios import scenario, view_of
from cipherbench.scenarios.primitive import scenario as primitive
from cipherbench.run_warnings import BenchWarning, Kind
from cipherbench.store import Result

#: Views of stored runs made by commands that are not scenarios.
OTHER_VIEWS = {"advise": advise_view}


@click.command(context_settings=RUN_REF_CONTEXT)
@click.argument("run_ref", metavar="RUN", default="last", callback=run_refs)
@click.option("--headline-size", "headline", metavar="SIZE", default=None,
              help="message size of the table (default: the run's, else 16 KiB)")
@click.option("--lib", "-l", "libs", multiple=True, metavar="LIBS", callback=nonempty_list,
              help="only these libraries' columns of a `run`, comma-separated (a narrow "
                   "terminal shows the libraries that matter and names the others)")
@db_option
@json_option
@click.pass_obj
def command(app: AppContext, run_ref, headline, libs, db, as_json) -> int:
    """Show run RUN (a number from `cipherbench history`, or `last`): its machine, tables,
    warnings and, last, its answer."""
    with app.open_store(db, create=False) as store:
        bundle = RunBundle.load(store, run_ref)
    if as_json:
        app.stdout.write(EXPORTERS["json"].render(bundle))
        return 0
    head = (parse_sizes(headline, "--headline-size")[0] if headline
            else bundle.run.args.get("headline_size", HEADLINE_SIZE))
    run, results = bundle.run, only_libraries(bundle.results, split_list(libs))
    disp.display_run_header(app.console, run, format_run_header(run))
    view = view_of(run.command) or OTHER_VIEWS.get(run.command)
    primitive_run = view is None or view is primitive.view
    if view is None or view is primitive.view:
        primitive.view(app, run, results, bundle.warnings, headline=head)
    else:
        view(app, run, results, [])
    disp.display_warnings(app.console, [BenchWarning(Kind(w.kind), w.subject, w.text)
                                        for w in bundle.warnings])
    if primitive_run:
        primitive.answer(app, run, results, headline=head, advise_targets=ADVISE_TARGETS)
    elif (module := scenario(run.command)) is not None:
        module.answer(app, run, results)
    return 0


def only_libraries(results: list[Result], libs: list[str]) -> list[Result]:
    """The results of ``libs`` and the reference rows (all of them when ``libs`` is empty);
    a name the run does not have is a one-line error naming those it has."""
    if not libs:
        return results
    have = sorted({r.lib for r in results if r.lib != REF_LIB})
    for name in libs:
        if name not in have:
            raise UsageError(f"--lib: the run has no library {name!r}"
                             f"{did_you_mean(name, have)}; it has: {', '.join(have)}")
    return [r for r in results if r.lib in libs or r.lib == REF_LIB]
