# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench gpg``: which ``gpg --cipher-algo`` encrypts a backup fastest here, or on
hosts through ssh (``--host``, ``--inventory``: each host's own gpg, ``on_host``)."""
from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass

import click

from cipherbench.clikit.context import AppContext, db_option, json_option
from cipherbench.clikit.quiet import cpu_option, wait_quiet_on, wait_quiet_option
from cipherbench.clikit.options import (SECONDS, Size, cpu_profile_option, nonempty_list,
                                        parse_precision)
from cipherbench.cores.core_client import Core
from cipherbench.errors import EnvironmentProblem, UsageError, UserError
from cipherbench.export import EXPORTERS, RunBundle
from cipherbench.remote import RemoteError, RemoteHost
from cipherbench.remote.recording import HostRecording, failed_on_host, measuring_on
from cipherbench.scenarios import fleet_command as fleet
from cipherbench.scenarios.fleet_command import KeepsArgs, host_access_options, host_options
from cipherbench.scenarios.outcome import finish
from cipherbench.scenarios.payload import check_fits
from cipherbench.scenarios.gpg import programs
from cipherbench.scenarios.gpg import scenario as gpg_scenario
from cipherbench.scenarios.gpg.candidates import candidates, check_space
from cipherbench.scenarios.gpg.disk import check as check_disk, parse_rate
from cipherbench.scenarios.gpg.on_host import HostGpg
from cipherbench.scenarios.progress import mode_for
from cipherbench.scenarios.recording import Recording
from cipherbench.units import parse_size


def _size(ctx, param, value):  # noqa: ARG001 - click callback signature
    try:
        n = parse_size(value)
    except ValueError as e:
        raise click.BadParameter(str(e))
    if n < 1:
        raise click.BadParameter(f"{value!r} is less than 1 byte")
    return n


@click.command(cls=KeepsArgs, help="""Measure real backup encryption: `gpg --symmetric --compress-algo none`
for every --cipher-algo the installed gpg supports (and age, when installed), encrypting and
decrypting the same bytes held in memory, in randomized interleaved rounds: each round runs
every cipher once, in a new random order, so load on the machine falls on all alike. Each
cipher is compared with gpg's own default cipher round by round: faster, slower, or "cannot
tell here (within N%)". Beside each,
the same cipher alone in libgcrypt's CFB mode together with SHA-1 (OpenPGP's MDC checksum),
so the table shows how much of the time is gpg's own. GnuPG runs in a private temporary home that is
removed afterwards; your ~/.gnupg is not touched. With --host, each host measures its own gpg
and age the same way through ssh: the home, the data and every call there, each call timed
there by the cipherbench-core shipped for the run (or the host's own), all of it removed
afterwards; the run is stored here with the host's machine facts.""")
@click.option("--algo", "algos", default=None, metavar="LIST", callback=nonempty_list,
              help="comma-separated gpg cipher names (AES256,TWOFISH,...) and/or 'age' "
                   "(default: all gpg supports, and age)")
@click.option("--size", default=gpg_scenario.DEFAULT_SIZE, type=Size(), show_default=True,
              help="bytes encrypted per run (held in memory); the fixed cost of a run is "
                   "measured apart on an empty message")
@click.option("--backup-size", default="50G", type=Size(), show_default=True,
              help="answer how long a backup of this size takes")
@click.option("--disk", metavar="RATE|DIR", default=None,
              help="the disk the backup goes to: its rate (200MB/s, 1.5GB/s; bytes) or the "
                   "directory, measured by writing 256 MiB there; the answer says whether "
                   "it or gpg decides the backup's time")
@click.option("--ops", default="encrypt,decrypt", show_default=True, callback=nonempty_list,
              help="which operations to time")
@click.option("--precision", default=None, metavar="P",
              help="stop the rounds at a planned look (after 8 of 12) once every median is "
                   "known, or every ratio to the default decided, within this fraction of "
                   f"its 95% CI (0.02 or 2%; default {gpg_scenario.DEFAULT_PRECISION:.0%})")
@click.option("--budget", default=gpg_scenario.DEFAULT_BUDGET_S, show_default=True,
              type=SECONDS, help="seconds per algorithm and operation: the rounds stop once "
                                 "they have spent it all (never before 6 rounds)")
@click.option("--rounds", type=click.IntRange(2, 100), metavar="N",
              default=gpg_scenario.DEFAULT_ROUNDS, show_default=True,
              help="interleaved rounds at most, looked at after 8 and the last only "
                   "(a verdict needs 6)")
@click.option("--seed", type=int, default=None, metavar="S",
              help="the seed of the rounds' random order (default: a new one, stored with "
                   "the run)")
@click.option("--no-core", is_flag=True, help="skip the cipher-alone figures from the core")
@cpu_option("keep gpg and age on CPU K")
@cpu_profile_option
@wait_quiet_option
@host_options
@host_access_options
@click.option("--progress/--no-progress", default=None,
              help="progress on stderr: a live bar on a terminal, else one line per finished "
                   "call with the time left (default: on)")
@db_option
@json_option
@click.pass_obj
def command(app: AppContext, algos, size, backup_size, disk, ops, precision, budget, rounds,
            seed, no_core, cpu, cpu_profile, wait_quiet, hosts, inventory, parallel,
            host_timeout, ssh_config, host_core, progress, db, as_json) -> int:
    env = app.env
    if cpu_profile:
        # Checked: gpg has no option for it, and the libgcrypt inside reads its switch only
        # from the system-wide /etc/gcrypt/hwf.deny (GCRYCTL_DISABLE_HWF is in-process).
        raise UsageError(f"gpg cannot follow --cpu-profile {cpu_profile}: the libgcrypt "
                         "inside gpg takes its hardware switch only from the system-wide "
                         "/etc/gcrypt/hwf.deny; the same ciphers as that CPU runs them: "
                         "cipherbench run --lib libgcrypt --algo aes-128-cfb,aes-256-cfb "
                         f"--cpu-profile {cpu_profile}")
    names = fleet.resolve(app, hosts, inventory, ssh_config, parallel, host_timeout)
    host = names[0] if names else None
    fleet.check_host_options(host, ssh_config, host_core,
                             (("--cpu", cpu), ("--wait-quiet", wait_quiet)))
    if disk is not None:
        if host and parse_rate(disk) is None:
            raise UsageError(f"--disk {disk!r}: with --host give the rate of the host's disk "
                             "(200MB/s): a directory is measured on this machine")
        check_disk(disk)
    op_list = [o.strip() for o in ops.split(",") if o.strip()]
    bad = [o for o in op_list if o not in ("encrypt", "decrypt")]
    if bad or not op_list:
        raise UsageError(f"unknown operation {','.join(bad) or ops!r}: choose encrypt, decrypt")
    precision = parse_precision(precision) or gpg_scenario.DEFAULT_PRECISION
    want = [a.strip() for a in algos.split(",") if a.strip()] if algos else None
    mode = "off" if progress is False else mode_for(app.err_console, progress)
    if names:
        store = app.open_store(db)            # an unusable --db fails before any work
        if fleet.is_fleet(names, host_timeout):   # each host in its own process, in parallel
            return fleet.run_many(app, gpg_scenario.NAME, names, db_path=store.location,
                                  parallel=parallel, host_timeout=host_timeout,
                                  progress=progress, as_json=as_json)
        plan = _HostAsk(want, size, backup_size, disk, op_list, precision, budget, rounds, seed,
                        no_core)
        return _on_host(app, store, host or "", ssh_config, host_core, plan, mode, as_json)
    try:
        gpg, gpg_version, gpg_algos = programs.gpg_info(env)
    except programs.ProgramMissing as e:
        if not want or any(w.lower() != "age" for w in want):
            raise EnvironmentProblem(str(e))
        gpg, gpg_version, gpg_algos = "", "", []      # only age was asked for
    age = programs.age_info(env)
    chosen, problems = candidates(gpg_algos, want, with_age=age is not None)
    if want and any(w.lower() == "age" for w in want) and age is None:
        problems.append("age is not installed (Debian: apt-get install age)")
    for problem in problems:
        app.warn(problem)
    if not chosen:
        raise UsageError("nothing to measure")
    # held at once: the message, each candidate's ciphertext (gpg's default cipher may be
    # one more) and a round trip's decrypted copy
    check_fits("--size", size, copies=len(chosen) + 3)
    space = check_space(size)
    if space:
        raise EnvironmentProblem(space)

    core, notes = None, []
    if not no_core:
        try:
            core = Core.find(env)
        except UserError as e:
            notes.append(f"cipher-alone figures skipped: {e}")
    p = gpg_scenario.GpgPlan(gpg, gpg_version, chosen, want, size, op_list, precision, budget,
                             backup_size, age, core, dict(env), notes, cpu=cpu, rounds=rounds)
    if seed is not None:
        p.seed = seed
    p.disk = disk
    store = app.open_store(db)
    wait_quiet_on(app.err_console, wait_quiet)
    with Recording(store, gpg_scenario.NAME, p.args(), p.metadata(), console=app.err_console,
                   progress=mode, unit=gpg_scenario.UNIT,
                   total=None, estimate_s=gpg_scenario.estimate_s(p),
                   show=lambda run_id: _show(app, store, run_id, False)) as rec:
        outcome = gpg_scenario.measure(p, rec)
    _show(app, store, rec.run_id, as_json)
    store.close()
    # a candidate that failed printed an "error:" line: the exit status says so too
    return finish(app, rec, outcome)


@dataclass(frozen=True)
class _HostAsk:
    """What was asked of every host (each host's gpg decides what of it can be measured)."""

    want: list[str] | None
    size: int
    backup_size: int
    disk: str | None
    ops: list[str]
    precision: float
    budget: float
    rounds: int
    seed: int | None
    no_core: bool


def _on_host(app: AppContext, store, host: str, ssh_config: str | None,
             host_core: str | None, ask: _HostAsk, mode: str, as_json: bool) -> int:
    """gpg measured on ``host`` (``on_host``): the host probed, its gpg read there, then its
    core chosen (one that has ``time``); a host that cannot be used, or has no gpg, leaves a
    failed run with the reason and ends in one line. The run is stored here with the
    host's machine facts and load."""
    name = gpg_scenario.NAME
    failed_args = {"host": host, "algos": ask.want, "size": ask.size, "ops": ask.ops}
    with ExitStack() as stack:
        session = RemoteHost(host, env=app.env, ssh_config=ssh_config, host_core=host_core,
                             warn=app.warn)
        try:   # the probe, gpg there (before any core is shipped), the core that times it
            stack.enter_context(session)
            place = stack.enter_context(HostGpg(session))
            cores = session.cores(needs=("time",))
            place.core = str(cores.main.path)
        except RemoteError as e:
            raise failed_on_host(session, store, name, failed_args, e) from None
        f = place.facts
        chosen, problems = candidates(f.ciphers, ask.want, with_age=bool(f.age))
        if ask.want and any(w.lower() == "age" for w in ask.want) and not f.age:
            problems.append(f"age is not installed on {host} (Debian: apt-get install age)")
        for problem in problems:
            app.warn(problem.replace("gpg here", f"gpg on {host}"))
        if not chosen:
            raise UsageError("nothing to measure")
        p = gpg_scenario.GpgPlan(f.gpg, f.gpg_version, chosen, ask.want, ask.size, ask.ops,
                                 ask.precision, ask.budget, ask.backup_size,
                                 (f.age, f.age_version) if f.age else None,
                                 None if ask.no_core else cores, {}, [], rounds=ask.rounds,
                                 host=host)
        if ask.seed is not None:
            p.seed = ask.seed
        p.disk = ask.disk
        meta = session.run_metadata({"programs": p.programs()}, session.inventory)
        rec = HostRecording(store, name, p.args(), meta, host=session,
                            console=app.err_console, progress=mode, unit=gpg_scenario.UNIT,
                            total=None, estimate_s=gpg_scenario.estimate_s(p),
                            show=lambda run_id: _show(app, store, run_id, False))
        with measuring_on(rec, host):
            outcome = gpg_scenario.measure(p, rec, place)
    _show(app, store, rec.run_id, as_json)
    store.close()
    return finish(app, rec, outcome)


def _show(app: AppContext, store, run_id: int, as_json: bool) -> None:
    if as_json:
        app.stdout.write(EXPORTERS["json"].render(RunBundle.load(store, run_id)))
    else:
        run, results = store.get_run(run_id), store.results(run_id)
        gpg_scenario.view(app, run, results, [])
        m = run.metadata
        if m.get("host"):
            app.console.print(f"measured on {m['host']} ({m.get('hostname', '?')}, "
                              f"{m.get('cpu_model') or '?'}) with its "
                              f"{(m.get('programs') or {}).get('gpg', 'gpg')}",
                              markup=False, highlight=False)
        gpg_scenario.answer(app, run, results)

