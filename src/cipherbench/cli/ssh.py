"""``cipherbench ssh``: real OpenSSH transfers per cipher and MAC, beside a cleartext baseline.

By default against a private sshd on 127.0.0.1 made for the run (``scenarios.ssh.server``);
with ``--host`` against a real machine through the user's own ssh configuration. Every result
is stored as it arrives (scenario ``ssh``); the table is ranked by throughput.
"""
from __future__ import annotations

import os
import subprocess

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich import box
from rich.table import Table

from cipherbench import metadata, warnings
from cipherbench.cli.context import AppContext, db_option, json_option
from cipherbench.cli.options import (POSITIVE_SECONDS, Size, nonempty_list, parse_precision,
                                     split_list)
from cipherbench.display.console import GRADE_STYLE, display_warnings
from cipherbench.errors import EnvironmentProblem, UsageError
from cipherbench.scenarios.ssh import report, runner
from cipherbench.scenarios.ssh.errors import HostError
from cipherbench.scenarios.ssh.server import PrivateServer, query
from cipherbench.scenarios.ssh.transfer import Target, check_host, client_defaults, is_aead

DEFAULT_SIZE = "256M"
MAX_SIZE = 16 << 30


def _ssh_version() -> str:
    try:
        out = subprocess.run(["ssh", "-V"], capture_output=True, text=True, timeout=10)
        return (out.stderr or out.stdout).strip()
    except (OSError, subprocess.TimeoutExpired):
        return ""


def _default_combo(target: Target) -> runner.Combo | None:
    ciphers, macs = client_defaults(target)
    if not ciphers:
        return None
    c = ciphers[0]
    return runner.Combo(c) if is_aead(c) else runner.Combo(c, macs[0] if macs else None)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--ciphers", multiple=True, metavar="LIST", callback=nonempty_list,
              help="ciphers to measure, comma-separated (default: all of `ssh -Q cipher`)")
@click.option("--macs", multiple=True, metavar="LIST", callback=nonempty_list,
              help="MACs for non-AEAD ciphers, comma-separated, or `all` (default: the "
                   "encrypt-then-MAC SHA-2 and UMAC ones)")
@click.option("--size", default=DEFAULT_SIZE, show_default=True, type=Size(1, MAX_SIZE),
              help="bytes per transfer, sent from memory (K, M, G = KiB, MiB, GiB)")
@click.option("--host", metavar="[USER@]HOST",
              help="measure against this host through your own ssh configuration instead of "
                   "a private server on 127.0.0.1")
@click.option("--ssh-config", metavar="FILE", type=click.Path(dir_okay=False),
              help="with --host: use this ssh_config file (ssh -F) instead of ~/.ssh/config")
@click.option("--precision", default=None, metavar="P",
              help=f"target half-width of the median's 95% CI (default "
                   f"{runner.DEFAULT_PRECISION:.0%})")
@click.option("--budget", type=POSITIVE_SECONDS, default=runner.DEFAULT_BUDGET_S,
              show_default=True, metavar="SECONDS",
              help="time budget for repetitions of each combination")
@click.option("--no-baseline", is_flag=True, help="skip the cleartext TCP baseline")
@click.option("--full-samples", is_flag=True,
              help=f"send all of --size in every sample (by default a sample stops sending "
                   f"after {runner.SAMPLE_MAX_S:g} s, so slow ciphers send less; such rows are "
                   "marked in the table)")
@db_option
@json_option
@click.pass_obj
def command(app: AppContext, ciphers, macs, size, host, ssh_config, precision, budget,
            no_baseline, full_samples, db, as_json) -> int:
    """Real OpenSSH transfers per cipher and MAC, against a cleartext TCP baseline."""
    nbytes = size
    prec = parse_precision(precision) or runner.DEFAULT_PRECISION
    if budget <= 0:
        raise UsageError("--budget must be positive")
    if ssh_config and not host:
        raise UsageError("--ssh-config needs --host (the private server has its own config)")
    if ssh_config and not os.path.isfile(ssh_config):
        raise UsageError(f"--ssh-config {ssh_config}: no such file")
    if host and (host.startswith("-") or any(c.isspace() for c in host)):
        raise UsageError(f"--host {host!r} is not a host name")
    offered_c, offered_m = query("cipher"), query("mac")
    combos = runner.choose(split_list(ciphers), split_list(macs), offered_c, offered_m)
    store = app.open_store(db)
    args = {"ciphers": sorted({c.cipher for c in combos}),
            "macs": sorted({c.mac for c in combos if c.mac}), "size": nbytes,
            "host": host or "127.0.0.1 (private sshd)", "precision": prec, "budget_s": budget,
            "max_sample_s": 0 if full_samples else runner.SAMPLE_MAX_S,
            "ssh_version": _ssh_version()}
    meta = metadata.collect()
    run_id = store.begin_run("ssh", args=args, metadata=meta)
    for w in warnings.load(meta.get("loadavg"), meta.get("cores")):
        store.add_warning(run_id, w.kind, w.subject, w.text)
    status = "failed"
    data = os.urandom(nbytes)  # incompressible, and the same bytes for every row
    outcomes: list[runner.Outcome] = []
    try:
        if host:
            opts = ("-F", ssh_config) if ssh_config else ()
            target = Target(host, opts, label=host, private=False)
            check_host(target)
            outcomes = _sweep(app, store, run_id, target, combos, data, prec, budget,
                              not no_baseline, as_json, full_samples)
        else:
            with PrivateServer() as srv:
                target = Target(srv.destination, tuple(srv.ssh_options()),
                                label="private sshd on 127.0.0.1", private=True)
                outcomes = _sweep(app, store, run_id, target, combos, data, prec, budget,
                                  not no_baseline, as_json, full_samples)
        measured = [o for o in outcomes if o.status == "ok" and not o.combo.is_baseline]
        status = "complete" if measured else "failed"
    except HostError as err:
        status = "interrupted" if any(o.status == "ok" for o in outcomes) else "failed"
        raise EnvironmentProblem(str(err)) from None
    except KeyboardInterrupt:
        status = "interrupted"
        raise
    finally:
        store.finish_run(run_id, status)
    _show(app, store, run_id, as_json)
    store.close()
    return 0 if status == "complete" else 1


def _sweep(app: AppContext, store, run_id: int, target: Target, combos, data, prec, budget,
           with_baseline: bool, quiet: bool, full_samples: bool = False) -> list[runner.Outcome]:
    default = _default_combo(target)
    store.update_metadata(run_id, {"ssh_target": target.name})
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeRemainingColumn(), console=app.err_console, transient=True,
                        disable=not app.err_console.is_terminal)
    total = len(combos) + (1 if with_baseline else 0)
    task = progress.add_task("ssh", total=total)

    def on_start(combo: runner.Combo, i: int, n: int) -> None:
        progress.update(task, description=f"ssh {combo.label}")

    def on_done(out: runner.Outcome) -> None:
        progress.advance(task)
        for r in report.to_results(out, target=target.name, client_default=default):
            store.add_result(run_id, r)
        if out.status != "ok":
            kind = "unsupported" if out.status in ("refused", "unavailable") else "transfer_failed"
            store.add_warning(run_id, kind, out.combo.label, out.message)
            if progress.live.is_started:  # print above the live bar, not through it
                progress.console.print(f"cipherbench: error: {out.message}", markup=False,
                                       highlight=False)
            else:
                app.error(out.message)
            return
        st = out.stability
        assert st is not None
        for w in warnings.noisy(out.combo.label, st.summary.cv, limit=0.03):
            store.add_warning(run_id, w.kind, w.subject, w.text)
        if not st.stable:
            for w in warnings.not_stable(out.combo.label, st.summary.rel_half_width, prec, budget):
                store.add_warning(run_id, w.kind, w.subject, w.text)

    with progress:
        return runner.sweep(target, combos, data, precision=prec, budget_s=budget,
                            with_baseline=with_baseline,
                            max_sample_s=0 if full_samples else runner.SAMPLE_MAX_S,
                            on_start=on_start, on_done=on_done)


def _show(app: AppContext, store, run_id: int, as_json: bool) -> None:
    """Print the stored run: JSON (the export schema) or the ranked table."""
    if as_json:
        from cipherbench.export import EXPORTERS, RunBundle
        app.stdout.write(EXPORTERS["json"].render(RunBundle.load(store, run_id)))
        return
    display_table(app, store, run_id)


def display_table(app: AppContext, store, run_id: int) -> None:
    """The ranked table of a stored ssh run, the bottleneck line and the warnings."""
    display_run(app, store.get_run(run_id), store.results(run_id), store.warnings(run_id))


def display_run(app: AppContext, run, results, stored_warnings) -> None:
    """Draw an ssh run from what the store holds (``cipherbench show`` can call this for runs
    whose command is ``ssh``)."""
    table = report.rows([r for r in results if r.scenario == report.SCENARIO])
    header, cells = report.table_lines(table)
    size = run.args.get("size")
    title = (f"ssh: {size / (1 << 20):g} MiB per transfer to {run.args.get('host')}, fastest "
             "first (* = client default; spread = run-to-run CV of the samples; of clear = "
             "share of the cleartext TCP baseline; CPU % = ssh/sshd time on a core; "
             "@openssh.com left out)" if size else "ssh transfers")
    t = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    for h in header:
        t.add_column(h, no_wrap=True,
                     justify="left" if h in ("cipher", "MAC", "grade") else "right")
    for row, line in zip(table, cells):
        style = GRADE_STYLE.get(row.grade, "")
        if style and line[-1]:
            line = line[:-1] + [f"[{style}]{line[-1]}[/{style}]"]
        t.add_row(*line, style="dim" if row.is_baseline else None)
    app.console.print(t)
    note = report.cut_note(table, size, run.args.get("max_sample_s"))
    if note:
        app.console.print(note, highlight=False)
    app.console.print(report.bottleneck(table), highlight=False)
    display_warnings(app.err_console, [warnings.BenchWarning(w.kind, w.subject, w.text)
                                       for w in stored_warnings
                                       if w.kind not in ("unsupported", "transfer_failed")])
