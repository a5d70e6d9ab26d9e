# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench compare RUN_A RUN_B``: the speed ratio B/A of everything both runs measured,
with its interval, the real changes marked, and a summary line per library; ``compare RUN...
--host NAME...``: machines side by side (``advise.fleet``)."""
from __future__ import annotations

import json

import click
from rich.text import Text

from cipherbench import compare as cmpmod
from cipherbench.advise import fleet
from cipherbench.advise import policy as pol
from cipherbench.advise.targets import ALL
from cipherbench.cli.machines import display_summary, display_table, stored_hosts
from cipherbench.export import machines as machines_doc
from cipherbench.machine import coherence
from cipherbench.store import Run
from cipherbench.clikit.context import AppContext, db_option, json_option
from cipherbench.clikit.options import (RUN_REF_CONTEXT, nonempty_list, parse_sizes, run_refs,
                                        split_list)
from cipherbench.display.console import display_fitted
from cipherbench.display.format import format_size
from cipherbench.errors import EnvironmentProblem, UsageError

MARK_STYLE = {cmpmod.FASTER: "bold blue", cmpmod.SLOWER: "bold red", cmpmod.SAME: "dim",
              cmpmod.UNKNOWN: "dim"}


@click.command(context_settings=RUN_REF_CONTEXT)
@click.argument("runs", metavar="[RUN ...]", nargs=-1, callback=run_refs)
@click.option("--host", "hosts", multiple=True, metavar="HOST", callback=nonempty_list,
              help="compare this machine, by its `run --host` name or the host name of the "
                   "local runs (repeatable, comma-separated): its stored evidence, newest "
                   "first")
@click.option("--inventory", metavar="FILE[:GROUP]",
              help="the hosts of an Ansible inventory (INI or YAML), or of one of its "
                   "groups, as --host names")
@click.option("--for", "target", type=click.Choice(ALL), default="ssh", show_default=True,
              help="across machines: what each machine's answer is for, as `advise --for`")
@click.option("--policy", type=click.Choice(pol.POLICIES), default=pol.DEFAULT,
              show_default=True, help="across machines: the choices allowed, as `advise "
              "--policy`")
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
def command(app: AppContext, runs, hosts, inventory, target, policy, sizes, changes_only,
            min_change, db, as_json) -> int:
    """Compare run RUN_B against run RUN_A (numbers from `cipherbench history`, or `last`,
    -1, -2, ...): two machines, two library versions, with and without hardware
    acceleration. A ratio above 1 means B is faster; a change is marked real only when it
    clears both 95% confidence intervals, the noise floor of the reference rows (runs of one
    machine) and --min-change, and 2x in a cell either run warned about. Runs of two machines are
    compared as machines, and each machine's answer follows.

    More than two runs, or --host names: the machines side by side, one row per machine
    (the rates of the fastest choices, the fastest choice --policy allows for --for and its
    verdict against that machine's own default, each from the machine's own evidence),
    then one sentence for them all and the config lines per group of machines that share an
    answer."""
    hosts = stored_hosts(split_list(hosts), inventory, db, app)
    if hosts or len(runs) > 2:
        if sizes or changes_only or min_change is not None:
            raise UsageError("--sizes, --changes-only and --min-change choose what two runs' "
                             "ratios show; machines side by side show each machine's answer")
        return _machines(app, list(runs), hosts, target, policy, db, as_json)
    if len(runs) != 2:
        raise UsageError("compare needs two runs (RUN_A RUN_B), more runs of several "
                         "machines, or --host NAME (see `cipherbench history`)")
    run_a, run_b = runs
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
    answers = None
    if coherence.machine_identity(ra) != coherence.machine_identity(rb):
        with app.open_store(db, create=False) as store:
            answers = _answers(app, store, fleet.machines_of_runs([ra, rb]), target, policy)
    if as_json:
        doc = cmpmod.to_document(cmp)
        doc["machines"] = machines_doc.target_doc(answers, False) if answers else None
        app.stdout.write(json.dumps(doc, indent=2, sort_keys=True) + "\n")
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
    if answers:
        con.print()
        display_table(app, answers, policy)
        display_summary(app, answers, config=False)
    return 0


def _answers(app: AppContext, store, machines, target: str, policy: str):
    """Each machine's answer for ``target`` from its own stored evidence (nothing measured)."""
    from cipherbench.advise.engine import Options
    from cipherbench.advise.targets import TARGETS
    from cipherbench.advise.validate import Validator
    return fleet.answer_machines(store, machines, TARGETS[target], Options(policy=policy),
                                 app.env, Validator(app.env))


def _machines(app: AppContext, refs: list[str], hosts: list[str], target: str, policy: str,
              db, as_json: bool) -> int:
    """Machines side by side: the runs named grouped by machine, and the machines named."""
    with app.open_store(db, create=False) as store:
        runs: list[Run] = []
        for ref in refs:
            run = store.get_run(ref)
            if run.id not in [r.id for r in runs]:
                runs.append(run)
        machines = fleet.merge(fleet.machines_of_runs(runs),
                                 fleet.machines_of_hosts(store.runs(), hosts))
        if len(machines) < 2 and not hosts:
            raise UsageError(f"runs {', '.join(str(r.id) for r in runs)} all come from one "
                             "machine: compare two of them (compare RUN_A RUN_B), or name "
                             "runs of other machines or --host NAME")
        answers = _answers(app, store, machines, target, policy)
    if as_json:
        doc = machines_doc.document([answers], {"for": target, "policy": policy,
                                                "hosts": hosts,
                                                "runs": [r.id for r in runs]})
        app.stdout.write(json.dumps(doc, indent=2) + "\n")
        return 0
    display_table(app, answers, policy)
    display_summary(app, answers)
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
