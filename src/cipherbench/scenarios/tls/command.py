# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench tls``: the TLS record layer per cipher suite, and handshakes per second.

The core runs a client and a server of OpenSSL or GnuTLS in one process over a socket pair
(``cipherbench-core tls``; Go's crypto/tls and rustls in the Go and Rust cores' ``tls``); beside it, ``openssl s_server``/``s_client`` over TCP on
127.0.0.1 show what the kernel's socket path adds. Every result is stored as it arrives
(scenario ``tls``); the tables rank suites by throughput per library.
"""
from __future__ import annotations

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
from cipherbench.scenarios.fleet_command import refuses_hosts
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


@click.command(help="""Measure the real TLS record layer per cipher suite: a client and a
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
Certificates are made for the run and removed afterwards.""")
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
@refuses_hosts("tls", "the TLS record layer is measured on this machine only")
@db_option
@json_option
@click.pass_obj
def command(app: AppContext, libs, suites, sizes, handshakes, no_transfer, loopback,
            loopback_size, precision, budget, rounds, seed, cpu, cpu_profile, wait_quiet,
            list_suites, db, as_json) -> int:
    env = app.env
    write_sizes = _sizes(sizes)
    prec = parse_precision(precision) or stats.DEFAULT_PRECISION
    if budget < 0:
        raise UsageError("--budget must be 0 or more seconds")
    if no_transfer and not handshakes:
        raise UsageError("--no-transfer leaves nothing to measure: add --handshakes")
    lsize = loopback_size
    if loopback:
        check_fits("--loopback-size", lsize)

    core = Cores.find(env, app.warn)   # the C core, and the Go and Rust cores when built
    hw_off = PROFILES[cpu_profile].features if cpu_profile else ()
    core.common_args = hw_args(hw_off)
    if list_suites:
        have, known, _ = tls.inventory(core)
        display_rows(app.console, ["suite (IANA)", "OpenSSL", "GnuTLS", "proto", "grade", "why"],
                     [[s.iana, s.openssl, s.gnutls, s.proto, s.grade.level, s.grade.reason]
                      for s in known], title=f"TLS cipher suites (libraries: {', '.join(have)})")
        return 0
    p = tls.make_plan(core, env, libs=split_list(libs) if libs else None,
                      suites=split_list(suites) if suites else None, sizes=write_sizes,
                      handshakes=handshakes, transfer=not no_transfer,
                      loopback=loopback, loopback_size=lsize, precision=prec,
                      budget_s=budget, cpu=cpu, rounds=rounds, seed=seed, hw_off=hw_off)
    store = app.open_store(db)
    wait_quiet_on(app.err_console, wait_quiet)
    with Recording(store, tls.NAME, p.args(), p.metadata(), console=app.err_console,
                   progress=mode_for(app.err_console, None), unit=tls.UNIT,
                   total=tls.total_steps(p), estimate_s=tls.estimate_s(p),
                   show=lambda run_id: _show(app, store, run_id, p, False)) as rec:
        outcome = tls.measure(p, rec)
    _show(app, store, rec.run_id, p, as_json, rec.warnings)
    store.close()
    return finish(app, rec, outcome)


def _show(app: AppContext, store, run_id: int, p, as_json: bool, warnings=()) -> None:
    """The stored run: JSON, or the tables, the warnings and the answer last."""
    if as_json:
        app.stdout.write(EXPORTERS["json"].render(RunBundle.load(store, run_id)))
        return
    run, results = store.get_run(run_id), store.results(run_id)
    tls.view(app, run, results, [], libraries=p.libraries, sizes=p.plan.sizes)
    display_warnings(app.err_console, list(warnings))
    tls.answer(app, run, results, sizes=p.plan.sizes)


