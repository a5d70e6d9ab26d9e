"""``cipherbench export RUN --format json|csv|markdown``."""
from __future__ import annotations

import click

from cipherbench.clikit.context import AppContext, db_option
from cipherbench.clikit.options import RUN_REF_CONTEXT, parse_sizes, run_refs
from cipherbench.export import EXPORTERS, RunBundle
from cipherbench.output import write_file
from cipherbench.presets import HEADLINE_SIZE


@click.command(context_settings=RUN_REF_CONTEXT)
@click.argument("run_ref", metavar="RUN", default="last", callback=run_refs)
@click.option("--format", "-f", "fmt", type=click.Choice(sorted(EXPORTERS)), default="json",
              show_default=True, help="output format")
@click.option("--output", "-o", metavar="FILE", help="write to FILE instead of stdout")
@click.option("--headline-size", "headline", metavar="SIZE", default=None,
              help="message size of the Markdown table (default: the run's)")
@db_option
@click.pass_obj
def command(app: AppContext, run_ref, fmt, output, headline, db) -> int:
    """Export run RUN (a number from `cipherbench history`, or `last`)."""
    with app.open_store(db, create=False) as store:
        bundle = RunBundle.load(store, run_ref)
    head = (parse_sizes(headline, "--headline-size")[0] if headline
            else bundle.run.args.get("headline_size", HEADLINE_SIZE))
    text = EXPORTERS[fmt].render(bundle, head)
    if output:
        write_file(output, text)   # whole or not at all: a full disk leaves no partial file
    else:
        app.stdout.write(text)
    return 0
