"""``cipherbench report [RUN ...] -o report.html [--png DIR]``: charts and tables of stored
runs in one offline HTML file, and the charts as PNGs."""
from __future__ import annotations

from pathlib import Path

import click

from cipherbench.cli.context import AppContext, db_option
from cipherbench.cli.options import RUN_REF_CONTEXT, parse_sizes, run_refs
from cipherbench.errors import EnvironmentProblem, UsageError
from cipherbench.export import RunBundle
from cipherbench.presets import HEADLINE_SIZE


def _load_report_module():
    """The report package needs matplotlib; say how to get it rather than fail on import."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise EnvironmentProblem("reports need matplotlib: `pip install matplotlib` (or "
                                 "`apt-get install python3-matplotlib`), then run again")
    from cipherbench import report
    return report


@click.command(context_settings=RUN_REF_CONTEXT)
@click.argument("runs", metavar="[RUN ...]", nargs=-1, callback=run_refs)
@click.option("-o", "--output", metavar="FILE", default="report.html", show_default=True,
              help="the HTML file to write")
@click.option("--png", "png_dir", metavar="DIR", default=None,
              help="also write every chart as a PNG into DIR")
@click.option("--headline-size", "headline", metavar="SIZE", default=None,
              help="message size of the bar charts (default 16 KiB)")
@db_option
@click.pass_obj
def command(app: AppContext, runs, output, png_dir, headline, db) -> int:
    """Draw stored runs: one self-contained HTML file (charts inline, works offline) and,
    with --png, each chart as a PNG. RUN is a number from `cipherbench history` or `last`
    (the default). Given two runs, the report also compares them."""
    head = parse_sizes(headline, "--headline-size")[0] if headline else HEADLINE_SIZE
    refs = list(runs) or ["last"]
    out = Path(output)
    if out.exists() and out.is_dir():
        raise UsageError(f"-o {output}: is a directory; name a file, e.g. {out / 'report.html'}")
    if not out.parent.exists():
        raise UsageError(f"-o {output}: the directory {out.parent} does not exist")
    with app.open_store(db, create=False) as store:
        bundles = []
        for ref in refs:
            b = RunBundle.load(store, ref)
            if b.run.id in [x.run.id for x in bundles]:
                continue
            if not b.results:
                app.err_console.print(f"run {b.run.id} has no results; left out", markup=False)
                continue
            bundles.append(b)
    if not bundles:
        raise EnvironmentProblem("nothing to draw: the chosen runs hold no results "
                                 "(see `cipherbench history`)")
    report = _load_report_module()
    rep = report.build(bundles, head)
    try:
        try:
            report.write_html(rep, out)
        except OSError as e:
            raise EnvironmentProblem(f"cannot write {output}: {e.strerror}")
        pngs = []
        if png_dir:
            try:
                pngs = report.write_pngs(rep, png_dir)
            except OSError as e:
                raise EnvironmentProblem(f"cannot write PNGs into {png_dir}: {e.strerror}")
    finally:
        rep.close()
    n = len(rep.charts)
    app.console.print(f"wrote {out} ({n} chart{'s' if n != 1 else ''}, runs "
                      f"{', '.join(str(b.run.id) for b in bundles)})", markup=False,
                      highlight=False)
    if png_dir:
        app.console.print(f"wrote {len(pngs)} PNG{'s' if len(pngs) != 1 else ''} into {png_dir}",
                          markup=False, highlight=False)
    return 0
