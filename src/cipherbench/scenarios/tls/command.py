# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench tls``: the TLS record layer per cipher suite, and handshakes per second.

The core runs a client and a server of OpenSSL or GnuTLS in one process over a socket pair
(``cipherbench-core tls``; Go's crypto/tls and rustls in the Go and Rust cores' ``tls``); beside it, ``openssl s_server``/``s_client`` over TCP on
127.0.0.1 show what the kernel's socket path adds. Every result is stored as it arrives
(scenario ``tls``); the tables rank suites by throughput per library. With ``--host`` the
core's ``tls`` runs on the host (the core shipped there as for ``run --host``), so each host
measures its own TLS libraries; the loopback transfers (``--loopback``) need servers there:
asked for, they are left out, said in one line.
"""
from __future__ import annotations

from contextlib import ExitStack

import click

from cipherbench.analysis import stats
from cipherbench.clikit.context import AppContext, db_option, json_option
from cipherbench.clikit.quiet import wait_quiet_on, wait_quiet_option
from cipherbench.clikit.options import (CPU, SECONDS, Size, cpu_profile_option, nonempty_list,
                                        parse_precision, split_list)
from cipherbench.cores.cpu_profiles import PROFILES, hw_args
from cipherbench.cores.combined import Cores
from cipherbench.display.console import display_rows, display_warnings
from cipherbench.errors import UsageError
from cipherbench.export import EXPORTERS, RunBundle
from cipherbench.remote import RemoteHost
from cipherbench.remote.recording import HostRecording, measuring_on, open_host
from cipherbench.scenarios import fleet_command as fleet
from cipherbench.scenarios.fleet_command import KeepsArgs, host_access_options, host_options
from cipherbench.scenarios.outcome import finish
from cipherbench.scenarios.payload import check_fits
from cipherbench.scenarios.progress import mode_for
from cipherbench.scenarios.recording import Recording
from cipherbench.scenarios.tls import scenario as tls
from cipherbench.scenarios.tls.core_tls import DEFAULT_SIZES
from cipherbench.units import parse_size

MAX_WRITE = 1 << 20


def _sizes(text: str) -> tuple[int, ...]:
    out = []
    for t in split_list(text):
        try:
            n = parse_size(t)
        except ValueError as e:
            raise UsageError(f"--sizes: {e}")
        if not 16 <= n <= MAX_WRITE:
            raise UsageError(f"--sizes: {t!r} is out of range (16 bytes to 1 MiB per write)")
        if n not in out:
            out.append(n)
    if not out:
        raise UsageError("--sizes: empty list (e.g. 1400,16384)")
    return tuple(sorted(out))


@click.command(cls=KeepsArgs, help="""Measure the real TLS record layer per cipher suite: a client and a
server of OpenSSL and of GnuTLS in one process over a socket pair (and of Go's crypto/tls and
rustls with ring or aws-lc-rs over an in-memory pair, when the Go and Rust cores are built),
data from server to client
in application writes of 1400 and 16384 bytes, every write checked on arrival. The suites of
a library are measured in randomized interleaved rounds (each round every suite once, in a new
random order) and compared round by round with the library's default suite: faster, slower,
or "cannot tell here (within N%)". With
--handshakes, also full and resumed handshakes per second per key exchange group and
certificate type. With --loopback, beside each OpenSSL suite, real transfers over TCP on
127.0.0.1 with `openssl s_server`/`s_client` show what the kernel's socket path costs.
Certificates are made for the run and removed afterwards. With --host, each host measures its
own TLS libraries with the cipherbench-core shipped there for the run (or its own), stored
here with the host's machine facts; --loopback is not measured on a host (one line says
so).""")
@click.option("--lib", "libs", default=None, metavar="LIST", callback=nonempty_list,
              help="TLS libraries, comma-separated (default: every one the cores have: "
                   "openssl, gnutls; go, rustls-ring, rustls-aws-lc when the Go and Rust cores "
                   "are built)")
@click.option("--suites", default=None, metavar="LIST", callback=nonempty_list,
              help="suites by IANA, OpenSSL or GnuTLS name, or tls1.3, tls1.2, legacy, all "
                   "(default: all)")
@click.option("--sizes", default=",".join(map(str, DEFAULT_SIZES)), show_default=True,
              metavar="LIST", callback=nonempty_list, help="bytes per application write")
@click.option("--handshakes", is_flag=True,
              help="also measure handshakes per second per group and certificate type")
@click.option("--no-transfer", is_flag=True, help="with --handshakes: handshakes only")
@click.option("--loopback/--no-loopback", default=False,
              help="also time real transfers of each OpenSSL suite over TCP on 127.0.0.1 "
                   "through openssl s_server/s_client: what the kernel's socket path adds "
                   "(about a minute and a half more; default: off)")
@click.option("--loopback-size", default="32M", show_default=True, metavar="SIZE", type=Size(1024),
              help="bytes per loopback transfer")
@click.option("--precision", default=None, metavar="P",
              help=f"target half-width of the 95% CI of every median and every ratio to the "
                   f"default suite: the rounds stop at a planned look (after 8 of 12) once "
                   f"each is met or the ratio decided, and a "
                   f"figure that misses it says so (default {stats.DEFAULT_PRECISION:.0%})")
@click.option("--budget", type=SECONDS, default=0.75, show_default=True, metavar="SECONDS",
              help="seconds per suite and write size (3x per suite for the loopback "
                   "transfers): the rounds stop once they have spent it (never before 6)")
@click.option("--rounds", type=click.IntRange(2, 100), metavar="N",
              default=tls.DEFAULT_ROUNDS, show_default=True,
              help="interleaved rounds at most, looked at after 8 and the last only "
                   "(a verdict needs 6)")
@click.option("--seed", type=int, default=None, metavar="S",
              help="the seed of the rounds' random order (default: a new one, stored with "
                   "the run)")
@click.option("--cpu", type=CPU, default=None, metavar="K",
              help="pin the measuring process to CPU K")
@cpu_profile_option
@wait_quiet_option
@click.option("--list-suites", is_flag=True,
              help="print the suites with their names and grades, measure nothing")
@host_options
@host_access_options
@click.option("--progress/--no-progress", default=None,
              help="progress on stderr: a live bar on a terminal, else one line per finished "
                   "point with the time left (default: on)")
@db_option
@json_option
@click.pass_obj
def command(app: AppContext, libs, suites, sizes, handshakes, no_transfer, loopback,
            loopback_size, precision, budget, rounds, seed, cpu, cpu_profile, wait_quiet,
            list_suites, hosts, inventory, parallel, host_timeout, ssh_config, host_core,
            progress, db, as_json) -> int:
    env = app.env
    names = fleet.resolve(app, hosts, inventory, ssh_config, parallel, host_timeout)
    host = names[0] if names else None
    fleet.check_host_options(host, ssh_config, host_core,
                             (("--cpu", cpu), ("--wait-quiet", wait_quiet)))
    if list_suites and len(names) > 1:
        raise UsageError("--list-suites lists one host's suites: give one --host")
    write_sizes = _sizes(sizes)
    prec = parse_precision(precision) or stats.DEFAULT_PRECISION
    if budget < 0:
        raise UsageError("--budget must be 0 or more seconds")
    if no_transfer and not handshakes:
        raise UsageError("--no-transfer leaves nothing to measure: add --handshakes")
    lsize = loopback_size
    if loopback and not host:
        check_fits("--loopback-size", lsize)
    hw_off = PROFILES[cpu_profile].features if cpu_profile else ()
    mode = "off" if progress is False else mode_for(app.err_console, progress)
    store = app.open_store(db) if host else None   # an unusable --db fails before any work
    if store is not None and not list_suites:
        if fleet.is_fleet(names, host_timeout):   # each host in its own process, in parallel
            return fleet.run_many(app, tls.NAME, names, db_path=store.location,
                                  parallel=parallel, host_timeout=host_timeout,
                                  progress=progress, as_json=as_json)

    with ExitStack() as stack:
        core: Cores
        session = None
        if host and store is not None:   # the probe, the core there, and its removal
            session = RemoteHost(host, env=env, ssh_config=ssh_config, host_core=host_core,
                                 warn=app.warn)
            core = open_host(stack, session, store, tls.NAME,
                             {"host": host, "libs": split_list(libs) if libs else None})
        else:
            core = Cores.find(env, app.warn)   # the C core, and the Go and Rust cores when built
        core.common_args = hw_args(hw_off)
        if list_suites:
            _list_suites(app, core)
            return 0
        p = tls.make_plan(core, env, libs=split_list(libs) if libs else None,
                          suites=split_list(suites) if suites else None, sizes=write_sizes,
                          handshakes=handshakes, transfer=not no_transfer,
                          loopback=loopback and session is None, loopback_size=lsize,
                          precision=prec, budget_s=budget, cpu=cpu, rounds=rounds, seed=seed,
                          hw_off=hw_off)
        store = store or app.open_store(db)
        if session is None:
            wait_quiet_on(app.err_console, wait_quiet)
            rec = Recording(store, tls.NAME, p.args(), p.metadata(), console=app.err_console,
                            progress=mode, unit=tls.UNIT, total=tls.total_steps(p),
                            estimate_s=tls.estimate_s(p),
                            show=lambda run_id: _show(app, store, run_id, p, False))
            with rec:
                outcome = tls.measure(p, rec)
        else:
            if loopback and not no_transfer and "openssl" in p.plan.libs:
                p.notes.append(f"{host}: the TCP loopback transfers (--loopback) through openssl "
                               "s_server/s_client are not measured on a host (they need a "
                               "server and a client there): only the record layer in one "
                               "process is")
            rec = HostRecording(store, tls.NAME, {**p.args(), "host": host},
                                session.run_metadata(p.metadata(), session.inventory),
                                host=session, console=app.err_console, progress=mode,
                                unit=tls.UNIT, total=tls.total_steps(p),
                                estimate_s=tls.estimate_s(p),
                                show=lambda run_id: _show(app, store, run_id, p, False))
            with measuring_on(rec, host or ""):
                outcome = tls.measure(p, rec)
    _show(app, store, rec.run_id, p, as_json, rec.warnings)
    store.close()
    return finish(app, rec, outcome)


def _list_suites(app: AppContext, core: Cores) -> None:
    """``--list-suites``: every suite the cores know, with its names and grade."""
    have, known, _ = tls.inventory(core)
    display_rows(app.console, ["suite (IANA)", "OpenSSL", "GnuTLS", "proto", "grade", "why"],
                 [[s.iana, s.openssl, s.gnutls, s.proto, s.grade.level, s.grade.reason]
                  for s in known], title=f"TLS cipher suites (libraries: {', '.join(have)})")


def _show(app: AppContext, store, run_id: int, p, as_json: bool, warnings=()) -> None:
    """The stored run: JSON, or the tables, the warnings and the answer last."""
    if as_json:
        app.stdout.write(EXPORTERS["json"].render(RunBundle.load(store, run_id)))
        return
    run, results = store.get_run(run_id), store.results(run_id)
    tls.view(app, run, results, [], libraries=p.libraries, sizes=p.plan.sizes)
    display_warnings(app.err_console, list(warnings))
    tls.answer(app, run, results, sizes=p.plan.sizes)


