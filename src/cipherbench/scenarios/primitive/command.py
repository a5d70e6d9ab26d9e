# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench run``: measure primitives of every installed library, store and show them."""
from __future__ import annotations

import dataclasses
import json
from contextlib import ExitStack
from typing import Callable, TypedDict

import click
from rich.console import Console

from cipherbench.analysis.estimate import Estimate
from cipherbench.clikit.context import AppContext, db_option, json_option
from cipherbench.clikit.quiet import cpu_option, wait_quiet_on, wait_quiet_option
from cipherbench.clikit.options import (SECONDS, cpu_profile_option, did_you_mean, nonempty_list,
                                        parse_precision, parse_sizes, split_list)
from cipherbench.analysis.delivered import CORE_SHARE_KEY, delivered, throttled
from cipherbench.cores.core_client import MAX_SAMPLES
from cipherbench.cores.cpu_profiles import HW_FEATURES, PROFILES, hw_args, profile_of
from cipherbench.cores.combined import Cores
from cipherbench.display import console as disp
from cipherbench.errors import UsageError
from cipherbench.export import RunBundle, to_document
from cipherbench.advise.targets import ALL as ADVISE_TARGETS
from cipherbench.presets import DEFAULT, FULL, HEADLINE_SIZE, QUICK, Preset
from cipherbench.remote import RemoteHost
from cipherbench.remote import recording as host_recording
from cipherbench.remote.recording import HostRecording, measuring_on
from cipherbench.scenarios.outcome import finish
from cipherbench.scenarios import fleet_command as fleet, threads as thr
from cipherbench.scenarios.fleet_command import KeepsArgs, host_options
from cipherbench.scenarios.primitive import scenario as primitive
from cipherbench.scenarios.progress import mode_for
from cipherbench.scenarios.rounds import Sequential
from cipherbench.scenarios.recording import Recording
from cipherbench.units import format_rate, rate

VALID_OPS = ("encrypt", "decrypt", "hash", "mac", "ref")


def choose_preset(quick: bool, full: bool) -> Preset:
    """--quick, --full or the default."""
    if quick and full:
        raise UsageError("--quick and --full exclude each other: choose one")
    return QUICK if quick else FULL if full else DEFAULT


@click.command(cls=KeepsArgs)
@click.option("--lib", "-l", "libs", multiple=True, metavar="LIBS", callback=nonempty_list,
              help="libraries, comma-separated (default: every one built in); a second build "
                   "of one as LIB@PREFIX or LIB@NAME (the variants file), e.g. "
                   "libgcrypt,libgcrypt@/opt/libgcrypt-1.11")
@click.option("--algo", "-a", "algos", multiple=True, metavar="ALGOS", callback=nonempty_list,
              help="algorithms or globs, comma-separated, e.g. 'aes-*-gcm,sha256'")
@click.option("--op", "ops", multiple=True, metavar="OPS", callback=nonempty_list,
              help="operations: encrypt, decrypt, hash, mac (default: all of each kind)")
@click.option("--sizes", multiple=True, metavar="SIZES", callback=nonempty_list,
              help="message sizes in bytes, e.g. 16,1024,16k (default: the preset's)")
@click.option("--quick", is_flag=True, help="the essential algorithms on two sizes (about 20 s on a quiet "
              "2-core machine)")
@click.option("--full", is_flag=True,
              help="every algorithm, operation and size (over an hour with every library)")
@click.option("--precision", metavar="P", help="target 95% CI half-width of each figure, "
              "as a fraction or percent (default 0.01 = 1%)")
@click.option("--budget", type=SECONDS, metavar="SECONDS",
              help="time budget per point for extra samples")
@click.option("--samples", type=click.IntRange(2, MAX_SAMPLES), metavar="N",
              help="samples in the first batch of each point")
@click.option("--headline-size", "headline", metavar="SIZE", default=None,
              help="message size of the table (default 16 KiB)")
@click.option("--no-ref", is_flag=True, help="leave out the memcpy and null reference rows")
@cpu_profile_option
@click.option("--no-hw", is_flag=True, help="the same as --cpu-profile no-aes")
@click.option("--disable-cpu-feature", "disable_features", metavar="FEATURES",
              callback=nonempty_list,
              help="turn off only these: " + ", ".join(HW_FEATURES) + " (comma-separated)")
@click.option("--hw-both", is_flag=True, help="two runs, with and without the hardware features "
              "(the profile's, no-aes's, or those of --disable-cpu-feature), linked for compare "
              "and report")
@click.option("--threads", "threads", metavar="N|all", default=None,
              help="N core processes measure each point at once, each on its own CPU; shows "
                   "aggregate and per-thread throughput and the scaling efficiency")
@click.option("--rounds", metavar="N|auto|off", default=None,
              help="auto (the default, but for --full and --threads): interleaved rounds, each "
                   "point once a round in a new random order so that load falls on every "
                   "library alike, until every cell is precise or its ratio to the fastest "
                   "library decided, looked at after 8, 12 and 16 rounds only, within the "
                   "preset's budget (--budget: seconds a point); N: exactly N rounds; off: "
                   "each library after the other, extra samples until a point is precise")
@click.option("--seed", type=int, default=None, metavar="S",
              help="the seed of the rounds' random order (default: a new one, stored with "
                   "the run)")
@cpu_option("pin every core process to CPU K (not with --threads, which pins its own)")
@wait_quiet_option
@host_options
@click.option("--ssh-config", metavar="FILE", type=click.Path(dir_okay=False),
              help="with --host: use this ssh_config file (ssh -F) instead of ~/.ssh/config")
@click.option("--host-core", metavar="PATH",
              help="with --host: the cipherbench-core to run there (default: the one on its "
                   "PATH, else this machine's, shipped)")
@click.option("--progress/--no-progress", default=None,
              help="progress on stderr: a live bar on a terminal, else one line per finished "
                   "point with the time left (default: on)")
@db_option
@json_option
@click.pass_obj
def command(app: AppContext, libs, algos, ops, sizes, quick, full, precision, budget, samples,
            headline, no_ref, cpu_profile, no_hw, disable_features, hw_both, threads, rounds,
            seed, cpu, wait_quiet, hosts, inventory, parallel, host_timeout, ssh_config, host_core, progress,
            db, as_json) -> int:
    """Measure primitives of every crypto library, store the results and show the table.

    The default measures the algorithms people choose between on 64 B, 1 KiB and 16 KiB in
    adaptive interleaved rounds (about 1 min 45 s on a quiet 2-core machine; the estimate for
    this machine's load is printed first)."""
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
    features = resolve_hw(no_hw, disable_features, hw_both, cpu_profile)
    n_threads = thr.parse_threads(threads)
    if rounds is not None and rounds.strip().lower() == "auto" and n_threads > 1:
        raise UsageError("--rounds auto measures one process a point; --threads measures "
                         "several: choose one")
    n_rounds, adaptive = parse_rounds(rounds, preset, n_threads)
    if seed is not None and not (n_rounds or adaptive):
        raise UsageError("--seed orders the rounds: leave out --rounds off")

    if cpu is not None and n_threads > 1:
        raise UsageError("--cpu pins one process, --threads pins one per CPU: choose one")
    names = fleet.resolve(app, hosts, inventory, ssh_config, parallel, host_timeout)
    host = names[0] if names else None
    check_host_options(host, ssh_config, host_core, threads, cpu, wait_quiet)
    if host and any("@" in name for name in split_list(libs)):
        raise UsageError("--lib LIB@VARIANT names a build on this machine: it cannot be "
                         "combined with --host")
    store = app.open_store(db)            # an unusable --db fails before any work
    if fleet.is_fleet(names, host_timeout):   # each host in its own process, in parallel
        return fleet.run_many(app, primitive.NAME, names, db_path=store.location,
                              parallel=parallel, host_timeout=host_timeout, progress=progress,
                              as_json=as_json)
    mode = "off" if progress is False else mode_for(app.err_console, progress)
    wait_quiet_on(app.err_console, wait_quiet)
    run_ids: list[int] = []
    rc = 0
    with ExitStack() as stack:
        session = None
        if host:   # the probe, the core there, and its removal on every way out
            session = RemoteHost(host, env=app.env, ssh_config=ssh_config, host_core=host_core,
                                 warn=app.warn)
            core = open_host(stack, session, store,
                             {"host": host, "ssh_config": ssh_config, "host_core": host_core,
                              "libs": split_list(libs), "algos": split_list(algos)})
            lib_names = split_list(libs)
        else:
            core = Cores.find(app.env, app.warn)   # the C core and any Go or Rust core found
            lib_names = core.add_variants(split_list(libs))   # LIB@PREFIX -> its column
        for off in ([[], features] if hw_both else [features]):
            core.common_args = hw_args(off)
            p = primitive.make_plan(core, preset, libs=lib_names,
                                    algos=split_list(algos), ops=op_list, sizes=chosen_sizes,
                                    precision=prec, budget_s=budget, samples=samples,
                                    headline=head, with_ref=not no_ref, hw_off=off,
                                    threads=n_threads, rounds=n_rounds, seed=seed, cpu=cpu,
                                    adaptive=adaptive)
            rec = _recording(app, store, p, session, mode)
            with measuring_on(rec, host or ""):
                out = primitive.measure(p, rec)
            run_ids.append(rec.run_id)
            if len(run_ids) == 2:   # said before the second run's tables: its answer ends
                _pair(app, store, run_ids, features, as_json)
            _show(app, store, rec.run_id, p, as_json, rec.warnings)
            rc = max(rc, finish(app, rec, out))
    return rc


def delivered_line(m: dict, results, headline: int) -> str | None:
    """For a host that gave the core well under a CPU: its share, and what the fastest row at
    the headline size delivers there per wall-clock second beside its rate per CPU second."""
    share = m.get(CORE_SHARE_KEY)
    if not throttled(share):
        return None
    rows = [(rate(r.size, r.median), r) for r in results
            if r.metric == "ns_per_op" and r.size == headline and r.lib != "ref" and r.median > 0]
    line = (f"{m['host']} gave the core {share:.0%} of a CPU (its CPU time over wall time): "
            f"the rates above are per CPU second, it delivers {share:.0%} of them")
    if rows:
        bps, r = max(rows, key=lambda x: x[0] or 0)
        line += (f" (e.g. {r.lib} {r.algo} {r.op}: {format_rate(bps)} per CPU second, "
                 f"{format_rate(delivered(bps or 0, share))} delivered)")
    return line


def _pair(app: AppContext, store, run_ids: list[int], features: list[str],
          as_json: bool) -> None:
    """``--hw-both``: the two runs name each other, and the line says how to compare them."""
    store.update_metadata(run_ids[0], {"hw_pair": run_ids[1]})
    store.update_metadata(run_ids[1], {"hw_pair": run_ids[0]})
    if not as_json:
        app.console.print(f"runs {run_ids[0]} (hardware on) and {run_ids[1]} (off: "
                          f"{', '.join(features)}) are a pair: `cipherbench compare "
                          f"{run_ids[0]} {run_ids[1]}`", markup=False, highlight=False)


def parse_rounds(text: str | None, preset: Preset = DEFAULT, n_threads: int = 1
                 ) -> tuple[int, bool]:
    """``--rounds``: (a fixed count, 0 when none; adaptive). Without it: adaptive rounds
    where the preset has them (``Preset.adaptive``), unless ``--threads`` measures several
    processes a point."""
    word = None if text is None else text.strip().lower()
    if word is None:
        return 0, preset.adaptive and n_threads == 1
    if word == "off":
        return 0, False
    if word == "auto":
        return 0, True
    try:
        n = int(word)
    except ValueError:
        n = 0
    if not 2 <= n <= 100:
        raise UsageError(f"--rounds {text!r}: valid: a whole number from 2 to 100, auto or off")
    return n, False


def check_host_options(host: str | None, ssh_config: str | None, host_core: str | None,
                       threads: str | None, cpu: int | None, wait_quiet: float | None) -> None:
    """What goes with --host, and what does not (options about this machine's CPUs)."""
    fleet.check_host_options(host, ssh_config, host_core, (
        ("--threads", threads), ("--cpu", cpu), ("--wait-quiet", wait_quiet)))


def open_host(stack: ExitStack, session: RemoteHost, store, args: dict):
    """Probe the host and pick its core; a host that cannot be used leaves a failed run with
    the reason (and nothing on the host) and ends the command with one line."""
    return host_recording.open_host(stack, session, store, primitive.NAME, args)


class _RecordingOptions(TypedDict):
    """The options a run's ``Recording`` has the same here and on a host."""
    console: Console
    progress: str
    unit: str
    total: int
    estimate_s: Estimate
    show: Callable[[int], None]


def _recording(app: AppContext, store, p: primitive.RunPlan, session: RemoteHost | None,
               mode: str) -> Recording:
    """The run's ``Recording``; on a host, with the host's machine facts and load."""
    estimate = primitive.estimate_s(p)
    if session is not None:   # every core process there is one more ssh connection
        estimate = dataclasses.replace(estimate, wall_s=estimate.wall_s
                                       + session.connect_s * _processes(p))
    common = _RecordingOptions(console=app.err_console, progress=mode, unit=primitive.UNIT,
                               total=p.points(), estimate_s=estimate,
                               show=lambda run_id: _show(app, store, run_id, p, False))
    if session is None:
        return Recording(store, primitive.NAME, p.args(), p.metadata(), **common)
    args = {**p.args(), "host": session.destination}
    return HostRecording(store, primitive.NAME, args, session.run_metadata(p.metadata(),
                                                                            p.inventory),
                         host=session, **common)


def _processes(p: primitive.RunPlan) -> int:
    """Core processes of the first batches: one per library and op, or one per point and
    round (extra samples are bounded by the budget, connections included)."""
    if p.rounds or p.adaptive:
        return p.points() * (p.rounds or Sequential().looks[0])
    return len({(i.lib, i.op) for i in p.items})


def resolve_hw(no_hw: bool, disable: str | None, hw_both: bool,
               profile: str | None = None) -> list[str]:
    """The CPU features to turn off, in canonical order (the profile's; no-aes's for --no-hw
    or --hw-both alone)."""
    if profile and (no_hw or disable):
        raise UsageError(f"--cpu-profile {profile} and "
                         f"{'--no-hw' if no_hw else '--disable-cpu-feature'} exclude each other: "
                         "--no-hw is --cpu-profile no-aes")
    if profile:
        return list(PROFILES[profile].features)
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
        return list(PROFILES["no-aes"].features)
    return [f for f in HW_FEATURES if f in asked]


def _show(app: AppContext, store, run_id: int, p: primitive.RunPlan, as_json: bool,
          warnings=()) -> None:
    """The stored run: the export document, or the tables, the hardware note and warnings."""
    bundle = RunBundle.load(store, run_id)
    if as_json:
        app.stdout.write(json.dumps(to_document(bundle), indent=2, sort_keys=True) + "\n")
        return
    primitive.view(app, bundle.run, bundle.results, bundle.warnings, headline=p.headline)
    if p.hw_off:
        libs = [l for l in p.selection.libs if l != "ref"]
        st = {l: (p.inventory.libraries.get(l) or {}).get("hw_switch") for l in libs}
        cannot = [l for l, v in st.items() if v != "applied"]
        name = profile_of(p.hw_off)
        app.console.print((f"CPU profile {name}: " if name else "")
                          + f"hardware off: {', '.join(p.hw_off)} (each library's own switch)"
                          + (f"; not measured, cannot follow the profile (no working switch): "
                             f"{', '.join(cannot)}"
                             if cannot else ""), markup=False, highlight=False)
    disp.display_warnings(app.err_console, list(warnings))
    m = bundle.run.metadata
    if m.get("host"):
        app.console.print(f"measured on {m['host']} ({m.get('hostname', '?')}, "
                          f"{m.get('cpu_model') or '?'}), core {m.get('host_core', '?')}",
                          markup=False, highlight=False)
        line = delivered_line(m, bundle.results, p.headline)
        if line:
            app.console.print(line, markup=False, highlight=False)
    app.console.print(f"stored as run {run_id} in {store.name} "
                      f"(`cipherbench show {run_id}`)", markup=False, highlight=False)
    primitive.answer(app, bundle.run, bundle.results, headline=p.headline,
                     advise_targets=ADVISE_TARGETS)
