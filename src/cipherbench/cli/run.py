"""``cipherbench run``: measure primitives of every installed library, store and show them."""
from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Iterator

import click
from rich.progress import (BarColumn, MofNCompleteColumn, Progress as RichProgress, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)

from cipherbench import catalog, metadata
from cipherbench import warnings as W
from cipherbench.cli.context import AppContext, db_option, json_option
from cipherbench.cli.options import (SECONDS, did_you_mean, nonempty_list, parse_precision,
                                     parse_sizes, split_list)
from cipherbench.core_client import HW_FEATURES, Core, Inventory, hw_args
from cipherbench.display import console as disp
from cipherbench.display.format import format_results
from cipherbench.errors import UsageError
from cipherbench.export import RunBundle, to_document
from cipherbench.presets import DEFAULT, FULL, HEADLINE_SIZE, QUICK, Preset
from cipherbench.scenarios import threads as thr
from cipherbench.scenarios.primitive import PrimitiveRunner, Progress, Selection, plan

VALID_OPS = ("encrypt", "decrypt", "hash", "mac", "ref")


def choose_preset(quick: bool, full: bool) -> Preset:
    """--quick, --full or the default."""
    if quick and full:
        raise UsageError("--quick and --full exclude each other: choose one")
    return QUICK if quick else FULL if full else DEFAULT


def resolve_libs(inv: Inventory, asked: list[str], with_ref: bool) -> list[str]:
    """The libraries to run, validated against the core build."""
    have = [l for l in inv.libs() if l != "ref"]
    if asked:
        for name in asked:
            if name not in inv.libraries:
                raise UsageError(f"unknown library {name!r}{did_you_mean(name, have)}; this "
                                 f"build has: {', '.join(have) or 'none'}")
        libs = [l for l in asked if l != "ref"]
    else:
        libs = have
    return (["ref"] if with_ref or "ref" in asked else []) + libs


def resolve_algos(inv: Inventory, patterns: list[str], preset: Preset,
                  with_ref: bool) -> list[str]:
    """Names and globs against the catalog and what the core knows."""
    pool = list(dict.fromkeys(list(catalog.ALGORITHMS) + inv.algo_names()))
    if patterns:
        try:
            algos = catalog.match(patterns, pool)
        except catalog.NoMatch as e:
            if e.is_glob:
                raise UsageError(f"no algorithm matches {e.pattern!r}; see `cipherbench list` "
                                 "for the names")
            hint = f" (did you mean {' or '.join(e.suggestions)}?)" if e.suggestions else ""
            raise UsageError(f"unknown algorithm {e.pattern!r}{hint}; see `cipherbench list`")
    elif preset.algos is not None:
        algos = [a for a in preset.algos if a in pool]
    else:
        algos = [a for a in inv.algo_names()]
    if with_ref:
        algos = [a for a in catalog.REFERENCE if a not in algos] + algos
    return sorted(algos, key=lambda a: (a not in catalog.REFERENCE, catalog.order_key(a)))


@contextmanager
def progress_bar(app: AppContext, enabled: bool) -> Iterator:
    """A live bar on stderr (points done/total, current item, ETA), or a no-op callback."""
    if not enabled:
        yield lambda p: None
        return
    bar = RichProgress(TextColumn("[bold]{task.description}"), BarColumn(),
                       MofNCompleteColumn(), TextColumn("points"), TimeElapsedColumn(),
                       TextColumn("ETA"), TimeRemainingColumn(),
                       TextColumn("{task.fields[current]}"),
                       console=app.err_console, transient=True)
    task = bar.add_task("measuring", total=None, current="")

    def update(p: Progress) -> None:
        bar.update(task, completed=p.done, total=p.total, current=p.current)

    with bar:
        yield update


@click.command()
@click.option("--lib", "-l", "libs", multiple=True, metavar="LIBS", callback=nonempty_list,
              help="libraries, comma-separated (default: every one built in)")
@click.option("--algo", "-a", "algos", multiple=True, metavar="ALGOS", callback=nonempty_list,
              help="algorithms or globs, comma-separated, e.g. 'aes-*-gcm,sha256'")
@click.option("--op", "ops", multiple=True, metavar="OPS", callback=nonempty_list,
              help="operations: encrypt, decrypt, hash, mac (default: all of each kind)")
@click.option("--sizes", multiple=True, metavar="SIZES", callback=nonempty_list,
              help="message sizes in bytes, e.g. 16,1024,16k (default: the preset's)")
@click.option("--quick", is_flag=True, help="the essential algorithms on two sizes (< 30 s)")
@click.option("--full", is_flag=True, help="every algorithm, operation and size")
@click.option("--precision", metavar="P", help="target 95%% CI half-width of each median, "
              "as a fraction or percent (default 0.01 = 1%%)")
@click.option("--budget", type=SECONDS, metavar="SECONDS",
              help="time budget per point for extra samples")
@click.option("--samples", type=click.IntRange(2, 10000), metavar="N",
              help="samples in the first batch of each point")
@click.option("--headline-size", "headline", metavar="SIZE", default=None,
              help="message size of the table (default 16 KiB)")
@click.option("--no-ref", is_flag=True, help="leave out the memcpy and null reference rows")
@click.option("--no-hw", is_flag=True, help="turn off AES-NI, PCLMUL, AVX2, VAES and SHA "
              "extensions in every library through its own switch; a library without one is "
              "reported, not measured")
@click.option("--disable-cpu-feature", "disable_features", metavar="FEATURES",
              callback=nonempty_list,
              help="turn off only these: aes, pclmul, avx2, vaes, sha (comma-separated)")
@click.option("--hw-both", is_flag=True, help="two runs, with and without the hardware features "
              "(all, or those of --disable-cpu-feature), linked for compare and report")
@click.option("--threads", "threads", metavar="N|all", default=None,
              help="N core processes measure each point at once, each on its own CPU; shows "
                   "aggregate and per-thread throughput and the scaling efficiency")
@click.option("--progress/--no-progress", default=None,
              help="live progress bar (default: when stderr is a terminal)")
@db_option
@json_option
@click.pass_obj
def command(app: AppContext, libs, algos, ops, sizes, quick, full, precision, budget, samples,
            headline, no_ref, no_hw, disable_features, hw_both, threads, progress, db,
            as_json) -> int:
    """Measure primitives of every crypto library, store the results and show the table."""
    preset = choose_preset(quick, full)
    prec = parse_precision(precision) or preset.precision
    if budget is not None and budget < 0:
        raise UsageError("--budget must be zero or more seconds")
    chosen_sizes = parse_sizes(sizes) or list(preset.sizes)
    head = parse_sizes(headline, "--headline-size")[0] if headline else HEADLINE_SIZE
    op_list = split_list(ops)
    for op in op_list:
        if op not in VALID_OPS:
            raise UsageError(f"unknown operation {op!r}{did_you_mean(op, VALID_OPS)}; valid: "
                             + ", ".join(VALID_OPS[:-1]))
    features = resolve_hw(no_hw, disable_features, hw_both)
    n_threads = thr.parse_threads(threads)
    store = app.open_store(db)            # an unusable --db fails before any work
    core = Core.find(app.env)
    passes = [[], features] if hw_both else [features]
    run_ids: list[int] = []
    rc = 0
    for off in passes:
        core.common_args = hw_args(off)
        run_id, prc = _one_pass(app, store, core, off, n_threads, preset, prec, budget,
                                chosen_sizes, head, op_list, libs, algos, samples, no_ref,
                                progress, as_json)
        if run_id is None:
            return prc
        run_ids.append(run_id)
        rc = rc or prc
        if prc == 130:
            break
    if len(run_ids) == 2:
        store.update_metadata(run_ids[0], {"hw_pair": run_ids[1]})
        store.update_metadata(run_ids[1], {"hw_pair": run_ids[0]})
        if not as_json:
            app.console.print(f"runs {run_ids[0]} (hardware on) and {run_ids[1]} (off: "
                              f"{', '.join(features)}) are a pair: `cipherbench compare "
                              f"{run_ids[0]} {run_ids[1]}`", markup=False, highlight=False)
    return rc


def resolve_hw(no_hw: bool, disable: str | None, hw_both: bool) -> list[str]:
    """The CPU features to turn off, in canonical order (all for --no-hw, or --hw-both alone)."""
    asked = split_list((disable,)) if disable else []
    for f in asked:
        if f not in HW_FEATURES:
            raise UsageError(f"--disable-cpu-feature: unknown feature {f!r}"
                             f"{did_you_mean(f, HW_FEATURES)}; valid: {', '.join(HW_FEATURES)}")
    if no_hw and asked:
        raise UsageError("--no-hw and --disable-cpu-feature exclude each other: --no-hw turns "
                         "every feature off")
    if no_hw and hw_both:
        raise UsageError("--hw-both already makes the run without hardware: leave out --no-hw")
    if no_hw or (hw_both and not asked):
        return list(HW_FEATURES)
    return [f for f in HW_FEATURES if f in asked]


def _one_pass(app: AppContext, store, core: Core, off: list[str], n_threads: int,
              preset: Preset, prec: float, budget, chosen_sizes, head: int, op_list, libs,
              algos, samples, no_ref, progress, as_json) -> tuple[int | None, int]:
    """One stored run with the features ``off`` turned off. Returns (run id, exit status);
    the run id is None when nothing could start (the status says why)."""
    inv = core.list()
    lib_list = resolve_libs(inv, split_list(libs), not no_ref)
    algo_list = resolve_algos(inv, split_list(algos), preset, not no_ref)
    ops_sel = tuple(dict.fromkeys(op_list + ["ref"])) if op_list else preset.ops
    sel = Selection(libs=tuple(lib_list), algos=tuple(algo_list), ops=ops_sel,
                    sizes=tuple(chosen_sizes), precision=prec,
                    budget_s=preset.budget_s if budget is None else budget,
                    samples=samples or preset.samples, min_sample_ms=preset.min_sample_ms)
    items = plan(inv, sel)
    measured = {i.algo for i in items}
    missing = [a for a in algo_list if a not in measured]
    if not [i for i in items if i.lib != "ref"] and [a for a in algo_list
                                                    if a not in catalog.REFERENCE]:
        raise UsageError("none of the chosen libraries implements "
                         + ", ".join(a for a in algo_list if a not in catalog.REFERENCE)
                         + (f" with op {', '.join(op_list)}" if op_list else "")
                         + "; see `cipherbench list`")
    meta = metadata.collect(inv.preamble, {l: inv.libraries[l] for l in lib_list
                                           if l in inv.libraries})
    meta["hw_disabled"] = list(off)
    meta["threads"] = n_threads
    args = {"preset": preset.name, "libs": lib_list, "algos": algo_list,
            "ops": list(ops_sel) if ops_sel else None, "sizes": chosen_sizes,
            "precision": prec, "budget_s": sel.budget_s, "samples": sel.samples,
            "headline_size": head, "hw_disabled": list(off), "threads": n_threads}
    run_id = store.begin_run("run", args, meta)
    pre_warnings = W.load(meta.get("loadavg"), meta.get("cores"))
    for a in missing:
        pre_warnings.append(W.BenchWarning("unsupported", a, "no chosen library implements it "
                                           "with the chosen operations; not measured"))
    for w in pre_warnings:
        store.add_warning(run_id, w.kind, w.subject, w.text)
    show_bar = progress if progress is not None else app.stderr.isatty()
    runner = None
    try:
        with progress_bar(app, show_bar) as update:
            runner = PrimitiveRunner(core, store, run_id, sel, progress=update)
            out = runner.run(items)
    except KeyboardInterrupt:
        store.finish_run(run_id, "interrupted")
        n = store.get_run(run_id).n_results
        app.error(f"interrupted: run {run_id} keeps its {n} finished results "
                  f"(`cipherbench show {run_id}`)")
        return run_id, 130
    except BaseException:
        store.finish_run(run_id, "interrupted")
        raise
    late = W.frequency(out.preamble.get("freq_hz") or meta.get("freq_hz"), out.freq_end_hz,
                       meta.get("governor"))
    for w in late:
        store.add_warning(run_id, w.kind, w.subject, w.text)
    updates = {"freq_end_hz": out.freq_end_hz} if out.freq_end_hz else {}
    if out.preamble.get("freq_hz"):
        updates["freq_hz"] = out.preamble["freq_hz"]
    if out.libraries:
        updates["libraries"] = {**meta.get("libraries", {}), **metadata.from_core(
            None, out.libraries).get("libraries", {})}
    if updates:
        store.update_metadata(run_id, updates)
    if n_threads > 1 and not out.crashed:
        _measure_threads(app, store, core, run_id, items, chosen_sizes, head, n_threads, sel)
    store.finish_run(run_id, "interrupted" if out.crashed else "complete")
    bundle = RunBundle.load(store, run_id)
    if as_json:
        app.stdout.write(json.dumps(to_document(bundle), indent=2, sort_keys=True) + "\n")
    else:
        table = format_results(bundle.results, head)
        if table is not None:
            disp.display_results(app.console, table)
        scaling = thr.format_threads(bundle.results)
        if scaling is not None:
            app.console.print("scaling across cores: aggregate = sum of the processes, "
                              "efficiency = aggregate / (N x 1 thread)", markup=False,
                              highlight=False)
            disp.display_rows(app.console, *scaling)
        if off:
            st = {l: (inv.libraries.get(l) or {}).get("hw_switch") for l in lib_list if l != "ref"}
            cannot = [l for l, v in st.items() if v != "applied"]
            app.console.print(f"hardware off: {', '.join(off)} (each library's own switch)"
                              + (f"; not measured, no working switch: {', '.join(cannot)}"
                                 if cannot else ""), markup=False, highlight=False)
        disp.display_warnings(app.err_console, pre_warnings + out.warnings + late)
        app.console.print(f"stored as run {run_id} in {store.path} "
                          f"(`cipherbench show {run_id}`)", markup=False, highlight=False)
    if out.crashed:
        app.error(f"a library's core process crashed: run {run_id} is marked interrupted and "
                  "keeps what finished")
        return run_id, 1
    return run_id, 0


def _measure_threads(app: AppContext, store, core: Core, run_id: int, items, sizes,
                     head: int, n: int, sel: Selection) -> None:
    """Every planned item at the table's size, by one process and by ``n`` at once; stored."""
    size = head if head in sizes else min(sizes, key=lambda s: (abs(s - head), -s), default=None)
    for it in items:
        if it.lib == "ref" or size is None:
            continue
        try:
            p, why = thr.measure(core, it.lib, it.algo, it.op, size, n,
                                 samples=max(sel.samples, 5), min_sample_ms=sel.min_sample_ms)
        except Exception as e:  # a crashed core: say so, keep the rest
            p, why = None, str(e)
        if p is None:
            store.add_warning(run_id, "threads", f"{it.lib} {it.algo} {it.op}",
                              f"not measured with {n} threads: {why}")
            continue
        store.add_result(run_id, thr.to_result(p))

