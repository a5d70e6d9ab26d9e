# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench report [RUN ...] -o report.html [--png DIR]``: charts and tables of stored
runs in one offline HTML file, and the charts as PNGs; ``cipherbench report --chart NAME
[RUN ...] [-o FILE.png]``: one chart of a release post from coherent evidence."""
from __future__ import annotations

from pathlib import Path

import click

from cipherbench.advise import fleet
from cipherbench.advise import policy as pol
from cipherbench.advise.targets import ALL
from cipherbench.cli.machines import stored_hosts
from cipherbench.clikit.context import AppContext, db_option
from cipherbench.clikit.options import (RUN_REF_CONTEXT, did_you_mean, nonempty_list,
                                        parse_sizes, run_refs, split_list)
from cipherbench.errors import EnvironmentProblem, UsageError
from cipherbench.export import RunBundle
from cipherbench.presets import HEADLINE_SIZE
from cipherbench.report.post import AXES, CHART_OPS, CHARTS, MAX_INTERVAL, STYLES


def _load_report_module():
    """The report package needs matplotlib; say how to get it rather than fail on import."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise EnvironmentProblem("reports need matplotlib: `pip install matplotlib` (or "
                                 "`apt-get install python3-matplotlib`), then run again")
    from cipherbench import report
    return report


#: The image formats of --chart, by the suffix of -o.
CHART_FORMATS = (".png", ".svg")


@click.command(context_settings=RUN_REF_CONTEXT)
@click.argument("runs", metavar="[RUN ...]", nargs=-1, callback=run_refs)
@click.option("-o", "--output", metavar="FILE", default=None,
              help="the file to write: the HTML page (default report.html), or with --chart "
                   "the image, .png or .svg (default NAME-SIZE.png, e.g. hashes-16KiB.png)")
@click.option("--png", "png_dir", metavar="DIR", default=None,
              help="also write every chart of the page as a PNG into DIR")
@click.option("--chart", metavar="NAME", default=None,
              help="draw one chart of a release post instead of the page: "
                   + "; ".join(f"{k}: {v}" for k, v in CHARTS.items()))
@click.option("--op", metavar="OP", default=None,
              help="with --chart: the operation of the cipher charts, encrypt (default) or "
                   "decrypt")
@click.option("-l", "--lib", "libs", metavar="LIBS", default=None,
              help="with --chart: only these libraries, comma-separated")
@click.option("--headline-size", "headline", metavar="SIZE", default=None,
              help="message size of the bar charts and of --chart (default 16 KiB)")
@click.option("--baseline", metavar="SERIES", default=None,
              help="with --chart: the reference series, e.g. 'libgcrypt 1.10.1' or nettle; "
                   "each other dot shows its factor against it (default: the oldest version "
                   "when one library has several)")
@click.option("--style", type=click.Choice(STYLES), default="dots",
              help="with --chart: dots (default) or bars on a linear axis")
@click.option("--axis", type=click.Choice(AXES), default="auto",
              help="with --chart: the value axis; auto (default) is logarithmic only where "
                   "the range demands it, with the outliers capped and marked")
@click.option("--all", "all_rows", is_flag=True,
              help="with --chart: every algorithm, not only those at least two series have")
@click.option("--max-interval", metavar="PCT", default=None,
              help=f"with --chart: a series whose 95% intervals are wider than +-PCT% is "
                   f"drawn hollow, too imprecise to rank (default {MAX_INTERVAL:.0%})")
@click.option("--host", "hosts", multiple=True, metavar="HOST", callback=nonempty_list,
              help="draw this machine too, by its `run --host` name or the host name of the "
                   "local runs (repeatable, comma-separated): its newest run, and its row "
                   "among the machines side by side")
@click.option("--inventory", metavar="FILE[:GROUP]",
              help="the hosts of an Ansible inventory (INI or YAML), or of one of its "
                   "groups, as --host names")
@click.option("--for", "target", type=click.Choice(ALL), default="ssh", show_default=True,
              help="machines side by side: what each machine's answer is for, as `advise "
                   "--for`")
@click.option("--policy", type=click.Choice(pol.POLICIES), default=pol.DEFAULT,
              show_default=True, help="machines side by side: the choices allowed, as "
                                      "`advise --policy`")
@db_option
@click.pass_obj
def command(app: AppContext, runs, output, png_dir, chart, op, libs, headline, baseline, style,
            axis, all_rows, max_interval, hosts, inventory, target, policy, db) -> int:
    """Draw stored runs: one self-contained HTML file (charts inline, works offline) and,
    with --png, each chart as a PNG. RUN is a number from `cipherbench history` or `last`
    (the default). Given two runs, the report also compares them.

    With --chart NAME, one chart for a post, from `run` results at one message size, and
    its numbers as CSV beside the image: each series is one library with one version, one
    hardware state and one core build on one machine (never mixed, a `run --host` run is
    another machine), and its legend names the runs it comes from. Without RUN the newest
    set of runs that belong together is drawn (one machine, one session at a similar load;
    a later partial run does not hide an earlier complete one) and named; name runs to draw
    exactly them, e.g. two versions of a library side by side (the older is the reference
    of the factors unless --baseline says otherwise). aes-hw draws `run --hw-both` pairs,
    or a `run --no-hw` beside a normal run.
    """
    head = parse_sizes(headline, "--headline-size")[0] if headline else HEADLINE_SIZE
    hosts = stored_hosts(split_list(hosts), inventory, db, app)
    if chart is not None and hosts:
        raise UsageError("--host draws machines side by side on the page; --chart draws one "
                         "machine's runs: name its runs")
    if chart is not None:
        from cipherbench.report.post import ChartOptions
        if style == "bars" and axis == "log":
            raise UsageError("--style bars stands on a linear axis (a bar's length is its "
                             "value); draw a log axis with --style dots")
        opts = ChartOptions(all_rows, baseline, _percent(max_interval) if max_interval
                            is not None else MAX_INTERVAL, style, axis)
        return _chart(app, list(runs), output, png_dir, chart, op, split_list(libs), head,
                      opts, db)
    for name, value in (("--op", op), ("--lib", libs), ("--baseline", baseline),
                        ("--max-interval", max_interval), ("--all", all_rows or None),
                        ("--style", None if style == "dots" else style),
                        ("--axis", None if axis == "auto" else axis)):
        if value is not None:
            raise UsageError(f"{name} chooses what --chart draws; the page shows every run "
                             "whole: add --chart NAME, or leave it out")
    refs = list(runs) or ([] if hosts else ["last"])
    output = output or "report.html"
    out = Path(output)
    if out.exists() and out.is_dir():
        raise UsageError(f"-o {output}: is a directory; name a file, e.g. {out / 'report.html'}")
    if not out.parent.exists():
        raise UsageError(f"-o {output}: the directory {out.parent} does not exist")
    with app.open_store(db, create=False) as store:
        bundles: list[RunBundle] = []
        for ref in refs:
            b = RunBundle.load(store, ref)
            if b.run.id in [x.run.id for x in bundles]:
                continue
            if not b.results:
                app.err_console.print(f"run {b.run.id} has no results; left out", markup=False)
                continue
            bundles.append(b)
        machines = fleet.machines_of_runs([b.run for b in bundles if b.run.command !=
                                           "advise"])
        named = fleet.machines_of_hosts(store.runs(), hosts)
        for m in named:
            newest = fleet.newest_run(store.runs(), m)
            if newest is not None and newest.id not in [b.run.id for b in bundles]:
                bundles.append(RunBundle.load(store, str(newest.id)))
        machines = fleet.merge(machines, named)
        answers = None
        if len(machines) > 1 or hosts:
            from cipherbench.advise.engine import Options
            from cipherbench.advise.targets import TARGETS
            from cipherbench.advise.validate import Validator
            answers = fleet.answer_machines(store, machines, TARGETS[target],
                                            Options(policy=policy), app.env,
                                            Validator(app.env))
    if not bundles:
        raise EnvironmentProblem("nothing to draw: the chosen runs hold no results "
                                 "(see `cipherbench history`)")
    report = _load_report_module()
    rep = report.build(bundles, head, answers)
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


def _percent(text: str) -> float:
    """``10`` or ``10%`` -> 0.10; a clear error otherwise."""
    try:
        value = float(str(text).strip().rstrip("%"))
    except ValueError:
        value = -1.0
    if not 0 < value < 1000:
        raise UsageError(f"--max-interval {text}: give a percentage above 0, e.g. 10")
    return value / 100


def redraw_command(name: str, run_ids: list[int], op: str | None, libs: list[str], size: int,
                   opts) -> str:
    """The command that draws this chart again from the same runs."""
    import shlex
    from cipherbench.report.post import MAX_INTERVAL as DEFAULT_BOUND
    bits = ["cipherbench", "report", "--chart", name, *map(str, run_ids)]
    if op:
        bits += ["--op", op]
    if libs:
        bits += ["--lib", ",".join(libs)]
    if size != HEADLINE_SIZE:
        bits += ["--headline-size", str(size)]
    if opts.baseline:
        bits += ["--baseline", opts.baseline]
    if opts.style != "dots":
        bits += ["--style", opts.style]
    if opts.axis != "auto":
        bits += ["--axis", opts.axis]
    if opts.all_rows:
        bits.append("--all")
    if opts.max_interval != DEFAULT_BOUND:
        bits += ["--max-interval", f"{opts.max_interval * 100:g}"]
    return " ".join(shlex.quote(b) for b in bits)


def _chart(app: AppContext, refs: list[str], output: str | None, png_dir: str | None,
           name: str, op: str | None, libs: list[str], size: int, opts, db) -> int:
    """``report --chart NAME``: one image from coherent evidence."""
    if name not in CHARTS:
        raise UsageError(f"--chart: unknown chart {name!r}{did_you_mean(name, list(CHARTS))}; "
                         f"valid: {', '.join(CHARTS)}")
    if png_dir is not None:
        raise UsageError("--png DIR writes the page's charts; with --chart name the image "
                         "with -o FILE.png (or .svg)")
    if op is not None and op not in CHART_OPS[name]:
        raise UsageError(f"--op: the {name} chart shows {' or '.join(CHART_OPS[name])}, "
                         f"not {op!r}")
    if output is not None:
        out = Path(output)
        if out.suffix.lower() not in CHART_FORMATS:
            raise UsageError(f"-o {output}: name a .png or .svg file")
        if out.exists() and out.is_dir():
            raise UsageError(f"-o {output}: is a directory; name a file, e.g. "
                             f"{out / (name + '.png')}")
        if not out.parent.exists():
            raise UsageError(f"-o {output}: the directory {out.parent} does not exist")
    with app.open_store(db, create=False) as store:
        if refs:
            bundles: list[RunBundle] = []
            for ref in refs:
                b = RunBundle.load(store, ref)
                if b.run.id not in [x.run.id for x in bundles]:
                    bundles.append(b)
            runs = sorted(((b.run, b.results) for b in bundles), key=lambda x: x[0].id)
        else:
            runs = [(r, store.results(r.id, "primitive")) for r in store.runs("run")]
    _load_report_module()
    from cipherbench.report import evidence, post, postbars, table
    try:
        data, ev = post.build(name, runs, size, op, libs or None, named=bool(refs), opts=opts)
    except post.NothingToDraw as e:
        raise EnvironmentProblem(str(e))
    except (evidence.MixedMachines, post.BadBaseline) as e:
        raise UsageError(str(e) + ("; name runs of one machine"
                                   if isinstance(e, evidence.MixedMachines) else ""))
    data.caption.append("drawn by: " + redraw_command(name, [r.id for r in ev.runs], op, libs,
                                                      size, opts))
    out = Path(output) if output is not None else Path(f"{data.key}.png")
    numbers = out.with_suffix(".csv")
    fig = postbars.render(data)
    from cipherbench.report import charts as C
    try:
        try:
            if out.suffix.lower() == ".svg":
                out.write_text(C.to_svg(fig, name), encoding="utf-8")
            else:
                C.to_png(fig, out)
            numbers.write_text(table.csv_text(data), encoding="utf-8")
        except OSError as e:
            raise EnvironmentProblem(f"cannot write {e.filename or out}: {e.strerror}")
    finally:
        C.close(fig)
    ids = ", ".join(str(r.id) for r in ev.runs)
    what = (f"{len(data.panels)} libraries on and off" if data.pairs
            else f"{len(ev.series)} series")
    app.console.print(f"wrote {out} and {numbers.name} ({name}: {what} from run"
                      f"{'s' if len(ev.runs) > 1 else ''} {ids})", markup=False,
                      highlight=False)
    for line in ev.left_out:
        app.err_console.print(f"left out: {line}", markup=False, highlight=False)
    return 0
