"""``cipherbench tls``: the TLS record layer per cipher suite, and handshakes per second.

The core runs a client and a server of OpenSSL or GnuTLS in one process over a socket pair
(``cipherbench-core tls``); beside it, ``openssl s_server``/``s_client`` over TCP on
127.0.0.1 show what the kernel's socket path adds. Every result is stored as it arrives
(scenario ``tls``); the tables rank suites by throughput per library.
"""
from __future__ import annotations

import json

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from cipherbench import metadata, stats
from cipherbench.cli.context import AppContext, db_option, json_option
from cipherbench.cli.options import (CPU, SECONDS, Size, did_you_mean, nonempty_list,
                                     parse_precision, split_list)
from cipherbench.core_client import Core
from cipherbench.display.console import display_rows, display_warnings
from cipherbench.errors import EnvironmentProblem, UsageError
from cipherbench.scenarios.tls import loopback as lb
from cipherbench.scenarios.tls import report
from cipherbench.scenarios.tls.runner import (DEFAULT_SIZES, HANDSHAKE_SUITE, SCENARIO, Plan,
                                              TlsRunner)
from cipherbench.scenarios.tls.suites import parse_list, resolve, tls_libraries
from cipherbench.store import Result
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


def _loopback_result(m: lb.Measured, version: str) -> Result:
    s = m.suite
    base = {"openssl": s.openssl, "gnutls": s.gnutls, "iana": s.iana, "proto": s.proto,
            "grade": s.grade.level, "tool_version": version}
    if m.error or m.stability is None or m.bytes_per_s is None:
        base["message"] = m.error or "not measured"
        return Result(SCENARIO, report.LOOPBACK_LIB, s.iana, "loopback", m.size, "error", "",
                      0.0, extra=base)
    summ = m.stability.summary
    base.update({"setup_s": m.setup_s, "samples_s": m.samples_s, "stable": m.stability.stable,
                 "stopped_by": m.stability.reason, "verified": True})
    return Result(SCENARIO, report.LOOPBACK_LIB, s.iana, "loopback", m.size, "bytes_per_s",
                  "B/s", median=m.bytes_per_s, ci_low=m.size / summ.ci_high,
                  ci_high=m.size / summ.ci_low,
                  n_samples=summ.n, cv=summ.cv, extra=base)


@click.command(help="""Measure the real TLS record layer per cipher suite: a client and a
server of OpenSSL and of GnuTLS in one process over a socket pair, data from server to client
in application writes of 1400 and 16384 bytes, every write checked on arrival. With
--handshakes, also full and resumed handshakes per second per key exchange group and
certificate type. Beside each OpenSSL suite, one real transfer over TCP on 127.0.0.1 with
`openssl s_server`/`s_client` shows what the kernel's socket path costs. Certificates are made
for the run and removed afterwards.""")
@click.option("--lib", "libs", default=None, metavar="LIST", callback=nonempty_list,
              help="TLS libraries, comma-separated (default: every one the core has: "
                   "openssl, gnutls)")
@click.option("--suites", default=None, metavar="LIST", callback=nonempty_list,
              help="suites by IANA, OpenSSL or GnuTLS name, or tls1.3, tls1.2, legacy, all "
                   "(default: all)")
@click.option("--sizes", default=",".join(map(str, DEFAULT_SIZES)), show_default=True,
              metavar="LIST", callback=nonempty_list, help="bytes per application write")
@click.option("--handshakes", is_flag=True,
              help="also measure handshakes per second per group and certificate type")
@click.option("--no-transfer", is_flag=True, help="with --handshakes: handshakes only")
@click.option("--no-loopback", is_flag=True,
              help="skip the TCP loopback transfers through openssl s_server/s_client")
@click.option("--loopback-size", default="32M", show_default=True, metavar="SIZE", type=Size(1024),
              help="bytes per loopback transfer")
@click.option("--precision", default=None, metavar="P",
              help=f"target half-width of the median's 95% CI (default "
                   f"{stats.DEFAULT_PRECISION:.0%})")
@click.option("--budget", type=SECONDS, default=1.0, show_default=True, metavar="SECONDS",
              help="time budget for extra samples of each point")
@click.option("--cpu", type=CPU, default=None, metavar="K",
              help="pin the measuring process to CPU K")
@click.option("--list-suites", is_flag=True,
              help="print the suites with their names and grades, measure nothing")
@db_option
@json_option
@click.pass_obj
def command(app: AppContext, libs, suites, sizes, handshakes, no_transfer, no_loopback,
            loopback_size, precision, budget, cpu, list_suites, db, as_json) -> int:
    env = app.env
    write_sizes = _sizes(sizes)
    prec = parse_precision(precision) or stats.DEFAULT_PRECISION
    if budget < 0:
        raise UsageError("--budget must be 0 or more seconds")
    if no_transfer and not handshakes:
        raise UsageError("--no-transfer leaves nothing to measure: add --handshakes")
    lsize = loopback_size

    core = Core.find(env)
    listing = core.run_lines(["tls", "--list"])
    have = tls_libraries(listing)
    known = parse_list(listing)
    if not have:
        raise EnvironmentProblem("this cipherbench-core was built without a TLS library: "
                                 "install libssl-dev or libgnutls28-dev and rebuild it")
    if list_suites:
        display_rows(app.console, ["suite (IANA)", "OpenSSL", "GnuTLS", "proto", "grade", "why"],
                     [[s.iana, s.openssl, s.gnutls, s.proto, s.grade.level, s.grade.reason]
                      for s in known], title=f"TLS cipher suites (libraries: {', '.join(have)})")
        return 0
    chosen_libs = split_list(libs) if libs else list(have)
    for name in chosen_libs:
        if name not in have:
            raise UsageError(f"--lib: unknown TLS library {name!r}; valid: "
                             f"{', '.join(have)}{did_you_mean(name, have)}")
    chosen, unknown = resolve(split_list(suites) if suites else ["all"], known)
    if unknown:
        pool = [n for s in known for n in (s.iana, s.openssl)]
        raise UsageError(f"--suites: unknown suite {unknown[0]!r}"
                         f"{did_you_mean(unknown[0], pool)}; valid: IANA, OpenSSL or GnuTLS names "
                         "(`cipherbench tls --list-suites`), tls1.3, tls1.2, legacy, all")
    if not chosen and not no_transfer:
        raise UsageError("--suites: nothing selected")

    openssl = None if no_loopback or no_transfer or "openssl" not in chosen_libs \
        else lb.find_openssl(env)
    if not no_loopback and not no_transfer and "openssl" in chosen_libs and openssl is None:
        app.warn("openssl program not found: the TCP loopback figures are skipped "
                 "(Debian: apt-get install openssl, or leave them out with --no-loopback)")

    store = app.open_store(db)
    preamble = next((r for r in listing if r["type"] == "preamble"), None)
    libraries = {r["lib"]: r for r in listing if r["type"] == "library"}
    meta = metadata.collect(preamble, libraries)
    version = lb.openssl_version(openssl) if openssl else ""
    if version:
        meta["programs"] = {"openssl": version}
    plan = Plan(libs=tuple(chosen_libs), suites=tuple(chosen), sizes=write_sizes,
                handshakes=handshakes, transfer=not no_transfer, precision=prec,
                budget_s=budget, cpu=cpu)
    run_id = store.begin_run("tls", args={
        "libs": chosen_libs, "suites": [s.iana for s in chosen], "sizes": list(write_sizes),
        "handshakes": handshakes, "transfer": not no_transfer, "precision": prec,
        "budget": budget, "loopback_size": lsize if openssl else None,
        "headline_size": write_sizes[-1]}, metadata=meta)
    status = "interrupted"
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), console=app.err_console, transient=True,
                      disable=as_json) as progress:
            task = progress.add_task("tls", total=None)

            def advance(done: int, total: int, text: str) -> None:
                progress.update(task, completed=done, total=total, description=text[:60])

            runner = TlsRunner(core, store, run_id, plan, progress=advance)
            outcome = runner.run()
            if openssl:
                ok = [r for r in store.results(run_id) if r.lib == "openssl"
                      and r.op == "transfer" and r.metric == "bytes_per_s"]
                measured = [s for s in chosen if any(r.algo == s.iana for r in ok)]
                t2 = progress.add_task("loopback", total=len(measured))
                try:
                    with lb.Loopback(openssl, lsize, env) as loop:
                        for s in measured:
                            progress.update(t2, description=f"s_server {s.openssl}")
                            m = loop.measure(s, precision=max(prec, 0.02),
                                             budget_s=max(budget, 0.5) * 3)
                            store.add_result(run_id, _loopback_result(m, version))
                            if m.error:
                                app.warn(f"loopback {s.iana}: {m.error}")
                            progress.advance(t2)
                except lb.LoopbackError as e:
                    app.warn(f"loopback figures skipped: {e}")
        status = "interrupted" if outcome.crashed else "complete"
    finally:
        store.finish_run(run_id, status)

    results = store.results(run_id)
    if as_json:
        rows = report.suite_rows(results)
        hs = report.handshake_rows(results)
        app.stdout.write(json.dumps(_as_json(run_id, results, rows, hs), indent=2) + "\n")
    else:
        display_run(app, store.get_run(run_id), results, [], libraries=libraries,
                    sizes=write_sizes)
        display_warnings(app.err_console, outcome.warnings)
    store.close()
    return 1 if outcome.failed else 0


def display_run(app: AppContext, run, results, stored_warnings, libraries=None,
                sizes=()) -> None:  # noqa: ARG001
    """The suite tables, handshake table and answer of a stored tls run (``cipherbench show``
    calls this)."""
    rows = report.suite_rows(results)
    hs = report.handshake_rows(results)
    sizes_seen = report.sizes_of(results) or list(sizes)
    libraries = libraries or (run.metadata.get("libraries") or {})
    for lib, rs in rows.items():
        version_text = (libraries.get(lib) or {}).get("version") or ""
        with_loopback = lib == "openssl" and any(r.lib == report.LOOPBACK_LIB for r in results)
        header, cells = report.format_suite_table(rs, sizes_seen, with_loopback=with_loopback)
        display_rows(app.console, header, cells,
                     title=f"{lib} ({version_text}): TLS record layer in one process, "
                           f"server to client, both ends on one core (run {run.id})")
    if hs:
        header, cells = report.format_handshake_table(hs)
        display_rows(app.console, header, cells,
                     title=f"TLS 1.3 handshakes per second ({HANDSHAKE_SUITE}), client "
                           "and server on one core")
    for line in report.answer(rows, sizes_seen):
        app.console.print(line, markup=False)


def _as_json(run_id: int, results: list[Result], rows, hs) -> dict:
    return {
        "schema": "cipherbench-tls/1", "run": run_id,
        "suites": [{"lib": r.lib, "iana": r.iana, "openssl": r.openssl, "gnutls": r.gnutls,
                    "proto": r.proto, "grade": r.grade, "grade_reason": r.grade_reason,
                    "status": r.status, "message": r.message,
                    "bytes_per_s": {str(k): v for k, v in r.rates.items()},
                    "loopback_bytes_per_s": r.loopback}
                   for rs in rows.values() for r in rs],
        "handshakes": [{"lib": h.lib, "group": h.group, "cert": h.cert,
                        "full_per_s": h.full, "resumed_per_s": h.resumed, "note": h.note}
                       for h in hs],
        "results": [{k: getattr(x, k) for k in ("scenario", "lib", "algo", "op", "size",
                                                "metric", "unit", "median", "ci_low",
                                                "ci_high", "n_samples", "cv")}
                    for x in results]}
