# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench compare RUN_A RUN_B``: the speed ratio B/A of everything both runs measured,
with its interval, the real changes marked, and a summary line per library."""
from __future__ import annotations

import json

import click
from rich.text import Text

from cipherbench import compare as cmpmod
from cipherbench.clikit.context import AppContext, db_option, json_option
from cipherbench.clikit.options import RUN_REF_CONTEXT, nonempty_list, parse_sizes, run_refs
from cipherbench.display.console import display_fitted
from cipherbench.display.format import format_size
from cipherbench.errors import EnvironmentProblem, UsageError

MARK_STYLE = {cmpmod.FASTER: "bold blue", cmpmod.SLOWER: "bold red", cmpmod.SAME: "dim",
              cmpmod.UNKNOWN: "dim"}


@click.command(context_settings=RUN_REF_CONTEXT)
@click.argument("run_a", metavar="RUN_A", callback=run_refs)
@click.argument("run_b", metavar="RUN_B", callback=run_refs)
@click.option("--sizes", multiple=True, metavar="SIZES", callback=nonempty_list,
              help="compare only these message sizes, e.g. 16k (default: every size)")
@click.option("--changes-only", is_flag=True, help="list only the real changes")
@click.option("--min-change", "min_change", metavar="PCT", default=None,
              help=f"the smallest change called real, in percent (default "
                   f"{cmpmod.MIN_CHANGE:.0%}: two runs of the same command differ by about "
                   "that much more than one run's interval says)")
@db_option
@json_option
@click.pass_obj
def command(app: AppContext, run_a, run_b, sizes, changes_only, min_change, db,
            as_json) -> int:
    """Compare run RUN_B against run RUN_A (numbers from `cipherbench history`, or `last`,
    -1, -2, ...): two machines, two library versions, with and without hardware
    acceleration. A ratio above 1 means B is faster; a change is marked real only when it
    clears both 95% confidence intervals, the noise floor of the reference rows (runs of one
    machine) and --min-change, and 2x in a cell either run warned about. Runs of two machines are
    compared as machines."""
    chosen = parse_sizes(sizes) or None
    least = _percent(min_change) if min_change is not None else cmpmod.MIN_CHANGE
    with app.open_store(db, create=False) as store:
        ra, rb = store.get_run(run_a), store.get_run(run_b)
        cmp = cmpmod.compare_runs(ra, store.results(ra.id), rb, store.results(rb.id), chosen,
                                  store.warnings(ra.id), store.warnings(rb.id), least)
    if not cmp.entries:
        raise EnvironmentProblem(
            f"runs {ra.id} ({ra.command}) and {rb.id} ({rb.command}) have nothing in common to "
            "compare: choose two runs of the same kind that measured the same algorithms"
            + (" at those sizes" if chosen else ""))
    line = cmpmod.mismatch_line(cmp)
    if line:
        app.warn(line)
    if as_json:
        app.stdout.write(json.dumps(cmpmod.to_document(cmp), indent=2, sort_keys=True) + "\n")
        return 0
    con = app.console
    for label, run in (("A", ra), ("B", rb)):
        m = run.metadata
        con.print(f"{label}: run {run.id} ({run.command}, {run.started_at}) "
                  f"{m.get('cpu_model', '?')} on {m.get('hostname', '?')}", markup=False,
                  highlight=False)
    if cmp.differences:
        con.print("differs: " + "; ".join(cmpmod.describe_difference(d)
                                          for d in cmp.differences), markup=False,
                  highlight=False)
    else:
        con.print("differs: nothing in the metadata (same machine, libraries and switches)",
                  markup=False)
    rows: list[list[str | Text]] = []
    for e in cmp.entries:
        if changes_only and e.mark not in (cmpmod.FASTER, cmpmod.SLOWER):
            continue
        lib = e.lib if e.scenario == "primitive" else f"{e.scenario}/{e.lib}"
        rows.append([lib, e.algo, e.op, format_size(e.size) if e.size is not None else "",
                     cmpmod.value_text(e, e.a), cmpmod.value_text(e, e.b), f"{e.ratio:.3g}",
                     cmpmod.interval_text(e), Text(e.mark + (f" ({e.held_back})" if
                                                             e.held_back else ""),
                                                   style=MARK_STYLE[e.mark])])
    # a narrow terminal wraps the long cells and splits off the last columns
    display_fitted(con, ["library", "algorithm", "op", "size", "A", "B", "B/A", "interval",
                         "change"], rows, keep=2,
                   right=["size", "A", "B", "B/A", "interval"],
                   title=f"speed of run {rb.id} relative to run {ra.id} (B/A > 1: B is "
                         "faster; real = the 95% intervals do not overlap)")
    for s in cmp.summaries:
        con.print(cmpmod.summary_line(s), markup=False, highlight=False)
    for note in cmp.notes:
        con.print(note, markup=False, highlight=False)
    return 0


def _percent(text: str) -> float:
    """``5`` or ``5%`` -> 0.05; a clear error otherwise."""
    try:
        value = float(str(text).strip().rstrip("%"))
    except ValueError:
        value = -1.0
    if not 0 <= value < 100:
        raise UsageError(f"--min-change {text}: give a percentage from 0 to 99, e.g. 5")
    return value / 100
