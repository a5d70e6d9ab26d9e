"""``cipherbench gpg``: which ``gpg --cipher-algo`` encrypts a backup fastest here."""
from __future__ import annotations

import json

import click
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from cipherbench import metadata, stats
from cipherbench.cli.context import AppContext, db_option, json_option
from cipherbench.cli.options import SECONDS, Size, nonempty_list, parse_precision
from cipherbench.core_client import Core
from cipherbench.display.console import display_rows
from cipherbench.errors import EnvironmentProblem, UsageError, UserError
from cipherbench.scenarios.gpg import cipher_alone, programs, report
from cipherbench.scenarios.gpg.home import GpgHomeError, private_gnupg_home
from cipherbench.scenarios.gpg.runner import (AgeTool, CandidateFailed, GpgTool, Measured,
                                              candidates, check_space, measure_candidate,
                                              random_data)
from cipherbench.store import Result
from cipherbench.units import format_bytes, parse_size


def _result(m: Measured, version: str) -> Result:
    tool = "gnupg" if m.candidate.tool == "gpg" else "age"
    if m.error or m.stability is None:
        return Result("gpg", tool, m.candidate.algo, m.op, m.size, "error", "", 0.0,
                      extra={"message": m.error or "not measured", "tool_version": version})
    s = m.stability.summary
    return Result("gpg", tool, m.candidate.algo, m.op, m.size, "bytes_per_s", "B/s",
                  median=m.size / s.median, ci_low=m.size / s.ci_high,
                  ci_high=m.size / s.ci_low, n_samples=s.n, cv=s.cv,
                  extra={"wall_s": s.median, "cpu_s": stats.median(m.cpu_s) if m.cpu_s else None,
                         "samples_s": m.stability.samples, "stable": m.stability.stable,
                         "tool_version": version,
                         "canonical": programs.GPG_TO_CFB.get(m.candidate.algo.upper(), "")})


def _alone_result(gpg_algo: str | None, a: cipher_alone.Alone, role: str) -> Result | None:
    if a.summary is None:
        return None
    s = a.summary
    size = cipher_alone.SIZE
    return Result("gpg", cipher_alone.LIB, a.algo, a.op, size, "bytes_per_s", "B/s",
                  median=size * 1e9 / s.median, ci_low=size * 1e9 / s.ci_high,
                  ci_high=size * 1e9 / s.ci_low, n_samples=s.n, cv=s.cv,
                  extra={"role": role, "gpg_algo": gpg_algo, "ns_per_op": s.median})


@click.command(help="""Measure real backup encryption: `gpg --symmetric --compress-algo none`
for every --cipher-algo the installed gpg supports (and age, when installed), encrypting and
decrypting the same bytes held in memory, repeated until the median is stable. Beside each,
the same cipher alone in libgcrypt's CFB mode (plus SHA-1 for OpenPGP's MDC), so the table
shows how much of the time is gpg's own. GnuPG runs in a private temporary home that is
removed afterwards; your ~/.gnupg is not touched.""")
@click.option("--algo", "algos", default=None, metavar="LIST", callback=nonempty_list,
              help="comma-separated gpg cipher names (AES256,TWOFISH,...) and/or 'age' "
                   "(default: all gpg supports, and age)")
@click.option("--size", default="256M", type=Size(), show_default=True,
              help="bytes encrypted per run (held in memory)")
@click.option("--backup-size", default="50G", type=Size(), show_default=True,
              help="answer how long a backup of this size takes")
@click.option("--ops", default="encrypt,decrypt", show_default=True, callback=nonempty_list,
              help="which operations to time")
@click.option("--precision", default="2%", show_default=True, metavar="P",
              help="stop repeating when the 95% CI of the median is within this fraction "
                   "(0.02 or 2%)")
@click.option("--budget", default=8.0, show_default=True, type=SECONDS,
              help="seconds at most per algorithm and operation")
@click.option("--no-core", is_flag=True, help="skip the cipher-alone figures from the core")
@db_option
@json_option
@click.pass_obj
def command(app: AppContext, algos, size, backup_size, ops, precision, budget, no_core, db,
            as_json) -> int:
    env = app.env
    op_list = [o.strip() for o in ops.split(",") if o.strip()]
    bad = [o for o in op_list if o not in ("encrypt", "decrypt")]
    if bad or not op_list:
        raise UsageError(f"unknown operation {','.join(bad) or ops!r}: choose encrypt, decrypt")
    precision = parse_precision(precision)
    want = [a.strip() for a in algos.split(",") if a.strip()] if algos else None
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
    for p in problems:
        app.warn(p)
    if not chosen:
        raise UsageError("nothing to measure")
    space = check_space(size)
    if space:
        raise EnvironmentProblem(space)

    store = app.open_store(db)
    meta = metadata.collect()
    meta["programs"] = {"gpg": gpg_version, **({"age": age[1]} if age else {})}
    run_id = store.begin_run("gpg", args={"algos": want, "size": size, "ops": op_list,
                                          "backup_size": backup_size, "precision": precision},
                             metadata=meta)
    status = "interrupted"
    failed = False      # an "error:" line was printed: the exit status says so too
    try:
        if not no_core:
            try:
                core = Core.find(env)
                alone, sha = cipher_alone.measure(
                    core, [c.algo for c in chosen if c.tool == "gpg"])
            except UserError as e:
                app.warn(f"cipher-alone figures skipped: {e}")
                alone, sha = {}, None
            for g, a in alone.items():
                r = _alone_result(g, a, "cipher-alone")
                if r:
                    store.add_result(run_id, r)
            if sha is not None and (r := _alone_result(None, sha, "mdc-hash")):
                store.add_result(run_id, r)
        with private_gnupg_home(env) as home, Progress(
                TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/"
                                                                          "{task.total}"),
                TimeElapsedColumn(), console=app.err_console, transient=True,
                disable=as_json) as progress:
            task = progress.add_task("preparing data", total=len(chosen))
            data = random_data(size)
            tools: dict[str, object] = {"gpg": GpgTool(gpg, home)} if gpg else {}
            for cand in chosen:
                progress.update(task, description=f"{cand.tool} {cand.algo}")
                try:
                    if cand.tool == "age" and "age" not in tools:
                        tools["age"] = AgeTool(age[0], home, home.env)
                    measured = measure_candidate(tools[cand.tool], cand, data, home.env,
                                                 precision=precision, budget_s=budget,
                                                 ops=op_list)
                except CandidateFailed as e:
                    measured = [Measured(cand, op, size, error=str(e)) for op in op_list]
                version = gpg_version if cand.tool == "gpg" else (age[1] if age else "")
                for m in measured:
                    store.add_result(run_id, _result(m, version))
                    if m.error:
                        failed = True
                        app.error(f"{cand.tool} {cand.algo} {m.op}: {m.error}")
                progress.advance(task)
        status = "complete"
    except GpgHomeError as e:
        raise EnvironmentProblem(str(e))
    finally:
        store.finish_run(run_id, status)

    if as_json:
        rows = report.rows_from_results(store.results(run_id))
        app.stdout.write(json.dumps(_as_json(run_id, store.results(run_id), rows,
                                             backup_size), indent=2) + "\n")
    else:
        display_run(app, store.get_run(run_id), store.results(run_id), [])
    store.close()
    return 1 if failed else 0


def display_run(app: AppContext, run, results, stored_warnings) -> None:  # noqa: ARG001
    """The gpg table and the answer of a stored gpg run (``cipherbench show`` calls this)."""
    backup_size = run.args.get("backup_size") or 50 << 30
    size_text = format_bytes(backup_size)
    rows = report.rows_from_results(results)
    header, cells = report.format_rows(rows, backup_size, size_text)
    size = run.args.get("size")
    display_rows(app.console, header, cells,
                 title=f"gpg --symmetric, {format_bytes(size) if size else '?'} per run (run {run.id})")
    app.console.print(report.answer(rows, backup_size, size_text), markup=False)



def _as_json(run_id, results, rows, backup_size) -> dict:
    return {"schema": "cipherbench-gpg/1", "run": run_id, "backup_size": backup_size,
            "rows": [{"tool": r.tool, "algo": r.algo, "grade": r.grade.level if r.grade else None,
                      "encrypt_Bps": r.encrypt, "decrypt_Bps": r.decrypt,
                      "cipher_alone_Bps": r.alone, "gpg_overhead": r.overhead,
                      "backup_seconds": r.backup_seconds(backup_size), "error": r.error}
                     for r in rows],
            "results": [{k: getattr(x, k) for k in ("scenario", "lib", "algo", "op", "size",
                                                    "metric", "unit", "median", "ci_low",
                                                    "ci_high", "n_samples", "cv")}
                        for x in results]}
