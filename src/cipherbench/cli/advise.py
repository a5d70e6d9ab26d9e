"""``cipherbench advise --for TARGET``: the fastest choice the policy allows, whether crypto is
the bottleneck, and the exact config lines (each checked with the real tool)."""
from __future__ import annotations

import json
import os
import time

import click
from rich.text import Text

from cipherbench.advise import policy as pol
from cipherbench.advise.bottleneck import parse_link
from cipherbench.units import format_rate
from cipherbench.advise.engine import Advice, Options, advise
from cipherbench.advise.measure import VIA, Measurer, check_via
from cipherbench.advise.gather import gather
from cipherbench.advise.record import SCHEMA, store_advice
from cipherbench.scenarios.progress import mode_for
from cipherbench.scenarios.ssh.tables import verdict_cell
from cipherbench.advise.targets import CHOICES, resolve
from cipherbench.advise.validate import Validator, printable
from cipherbench.clikit.context import AppContext, db_option, json_option
from cipherbench.clikit.options import nonempty_list, split_list
from cipherbench.clikit.quiet import cpu_option, wait_quiet_on, wait_quiet_option
from cipherbench.machine.coherence import this_machine
from cipherbench.display.console import display_fitted
from cipherbench.errors import UsageError

_STYLE = {"recommended": "green", "acceptable": "yellow", "legacy": "red", "broken": "bold red",
          "unknown": "red"}


@click.command()
@click.option("--for", "target", required=True, type=click.Choice(CHOICES),
              help="what to advise on: " + ", ".join(CHOICES))
@click.option("--policy", type=click.Choice(pol.POLICIES), default=pol.DEFAULT,
              show_default=True, help="modern: recommended AEADs; compat: also cipher+MAC and "
              "other acceptable grades; legacy: everything (legacy/broken marked)")
@click.option("--link", metavar="SPEED", help="your link or disk rate: 1Gbit, 100Mbit, 100M "
              "(bits/s; k/M/G are decimal) or 125MB/s, 1GiB/s (bytes/s)")
@click.option("--host", metavar="[USER@]HOST", help="ssh: measure against this host (through "
              "your ssh configuration) and name it in the config lines")
@click.option("--ssh-config", metavar="FILE", type=click.Path(dir_okay=False),
              help="ssh, with --host: measure through this ssh_config file (ssh -F), as "
                   "`cipherbench ssh --ssh-config`")
@click.option("--via", multiple=True, metavar="TOOLS", callback=nonempty_list,
              help="ssh: the tool that moves the bytes, measured and configured: "
                   + ", ".join(VIA) + " (comma-separated; default: what is stored, else pipe)")
@click.option("--lib", type=click.Choice(("openssl", "gnutls")), default=None,
              help="TLS library of the application (NZBGet: both builds unless this names "
                   "one; rates from openssl unless gnutls)")
@click.option("--assume-no-aes", is_flag=True, help="advise for a CPU without AES "
              "instructions (runs with AES switched off when stored, else an estimate)")
@click.option("--no-measure", is_flag=True, help="use stored results only; measure nothing")
@click.option("--kernel", is_flag=True, help="luks: measure the kernel's dm-crypt itself, a "
              "mapping per cipher on a RAM-backed device (root, device-mapper and dm-crypt; "
              "as `cipherbench luks`)")
@cpu_option("what advise measures runs on CPU K (the core, the ssh client, gpg; as each "
            "measuring command's --cpu)")
@wait_quiet_option
@db_option
@json_option
@click.pass_obj
def command(app: AppContext, target, policy, link, host, ssh_config, via, lib, assume_no_aes,
            no_measure, kernel, cpu, wait_quiet, db, as_json) -> int:
    """Which cipher to use here, whether crypto is your bottleneck, and the config lines."""
    link_rate = parse_link(link) if link else None
    if host and (host.startswith("-") or any(c.isspace() for c in host)):
        raise UsageError(f"--host {host!r} is not a host name")
    if ssh_config and not host:
        raise UsageError("--ssh-config needs --host (the private server has its own config)")
    if ssh_config and not os.path.isfile(ssh_config):
        raise UsageError(f"--ssh-config {ssh_config}: no such file")
    tools = check_via(split_list(via)) if via else None
    targets = resolve(target)
    if kernel:
        check_kernel(targets, no_measure)
    opts = Options(policy=policy, link=link_rate, host=host, lib=lib,
                   assume_no_aes=assume_no_aes, ssh_config=ssh_config, via=tools)
    store = app.open_store(db)
    t0 = time.monotonic()

    def say(msg: str) -> None:
        app.stderr.write(f"advise: {msg} [{time.monotonic() - t0:.0f} s]\n")
        app.stderr.flush()

    if no_measure and (cpu is not None or wait_quiet is not None):
        raise UsageError("--cpu and --wait-quiet apply to what advise measures; "
                         "--no-measure measures nothing")
    measurer = None if no_measure else Measurer(
        app.env, str(store.path), say, cpu=cpu,
        before_first=lambda: wait_quiet_on(app.err_console, wait_quiet),
        progress=mode_for(app.err_console, None), progress_console=app.err_console)
    ev, measured = gather(store, targets, lib=lib or "openssl", host=host,
                          assume_no_aes=assume_no_aes, measurer=measurer,
                          ssh_config=ssh_config, via=tools, machine=this_machine(),
                          kernel=kernel)
    validator = Validator(app.env)
    advice = [advise(t, ev, opts, app.env, validator) for t in targets]
    run_id = store_advice(store, target, opts, advice)
    if as_json:
        doc = {"schema": SCHEMA, "run": run_id, "policy": policy, "link": link,
               "assume_no_aes": assume_no_aes, "lib": lib, "host": host,
               "ssh_config": ssh_config, "via": tools,
               "measured": [{"what": m.what, "args": m.args, "exit": m.rc,
                             "seconds": round(m.seconds, 1), "error": m.error,
                             "run": m.run_id, "status": m.status}
                            for m in measured],
               "evidence_runs": sorted({i for a in advice for i in a.evidence_runs}),
               "targets": [a.to_json() for a in advice]}
        app.stdout.write(json.dumps(doc, indent=2) + "\n")
    else:
        for a in advice:
            display(app, a, opts)
        app.console.print(f"stored as run {run_id} (`cipherbench show {run_id}`); evidence: "
                          f"runs {', '.join(map(str, sorted({i for a in advice for i in a.evidence_runs}))) or 'none'}",
                          markup=False, highlight=False)
    store.close()
    return 0


def check_kernel(targets, no_measure: bool) -> None:
    """``--kernel`` asks for a dm-crypt measurement: only for LUKS, only where it can run."""
    from cipherbench.errors import EnvironmentProblem
    from cipherbench.scenarios.luks.dmcrypt import unavailable
    if not any(t.family == "luks" for t in targets):
        raise UsageError("--kernel measures dm-crypt: it applies to --for luks (or all)")
    if no_measure:
        raise UsageError("--kernel measures the kernel's dm-crypt; --no-measure measures "
                         "nothing")
    why = unavailable()
    if why:
        raise EnvironmentProblem(f"--kernel: dm-crypt cannot be measured here: {why}")


def display(app: AppContext, a: Advice, opts: Options) -> None:
    """The answer, the candidates table, the bottleneck sentence and the config block."""
    c = app.console
    c.rule(f"{a.target.name}: {a.target.what}", style="dim")
    c.print(a.answer, markup=False, highlight=False)
    cells = []
    for r in a.rows:
        g = r.cand.grade.level
        style = _STYLE.get(g, "")
        verdict = ("RECOMMENDED" if r is a.recommended else "allowed") if r.allowed else \
            f"no: {r.verdict.reason}"
        if g in ("legacy", "broken"):
            verdict += f" [{r.cand.grade.reason}; {r.cand.grade.reference}]" if r.allowed else ""
        ev = "" if r.rate is None else (r.rate.detail + (" (estimate)" if r.rate.estimated and
                                                        "estimate" not in r.rate.detail else ""))
        name = r.cand.label + (" (default)" if r.is_default else "")
        if r.cand.note:
            name += f" - {r.cand.note}"
        if r.vs_default is not None:
            verdict += f"; vs default {verdict_cell(r.vs_default)}"
        if r.tied:
            verdict += f"; {r.tie_text()}"
        cells.append(["" if r.rank is None else f"{r.rank}{'=' if r.tied else ''}", name,
                      "not measured" if r.rate is None else format_rate(r.rate.bps),
                      Text(g, style=style), Text(verdict, style=style if not r.allowed and g in
                                                 ("legacy", "broken") else ""), ev])
    # a narrow terminal wraps the long cells and splits off the last columns
    display_fitted(c, ["#", "choice", "rate", "grade", "verdict", "evidence"], cells, keep=2,
                   right=["#", "rate"], title=f"candidates, fastest first "
                   f"({pol.describe(opts.policy, a.target.transport)})")
    if any(r.tied for r in a.rows):
        c.print("= the same place: this row and the one above cannot be told apart (their "
                "paired verdict from the same rounds, or without rounds their 95% "
                "intervals); their order is not a ranking", markup=False, highlight=False)
    c.print(a.bottleneck, markup=False, highlight=False)
    for n in a.notes:
        c.print(f"note: {n}", markup=False, highlight=False)
    if a.evidence_runs:
        c.print(f"from runs {', '.join(map(str, a.evidence_runs))}", markup=False,
                highlight=False)
    c.print("config (each line checked with the installed tool; '# (left out: ...)' marks "
            "a line the tool rejected):", markup=False, highlight=False)
    for line in printable(a.lines):
        c.print("    " + line, markup=False, highlight=False, soft_wrap=True)
    unchecked = sorted({ln.detail for ln in a.lines if ln.status == "not checked"})
    for u in unchecked:
        c.print(f"not checked: {u}", markup=False, highlight=False, style="dim")
    c.print()


def display_run(app: AppContext, run, results, stored_warnings) -> None:  # noqa: ARG001
    """A stored advise run: per target the answer, the bottleneck sentence, the ranked
    candidates and the checked config lines (``cipherbench show`` calls this)."""
    c = app.console
    for r in (x for x in results if x.op == "recommend"):
        doc = r.extra
        c.rule(f"{doc.get('target', r.lib)}", style="dim")
        for key in ("answer", "bottleneck"):
            if doc.get(key):
                c.print(doc[key], markup=False, highlight=False)
        ranked = sorted((x for x in results if x.lib == r.lib and x.op == "candidate"
                         and x.size is not None), key=lambda x: x.size)
        if ranked:
            display_fitted(c, ["#", "choice", "rate", "grade", "allowed"], [
                [str(x.size), x.extra.get("label") or x.algo, format_rate(x.median),
                 Text(x.extra.get("grade", ""), style=_STYLE.get(x.extra.get("grade", ""), "")),
                 "yes" if x.extra.get("allowed") else f"no: {x.extra.get('why_not')}"]
                for x in ranked], keep=2, right=["#", "rate"],
                title="candidates, fastest first")
        for n in doc.get("notes") or []:
            c.print(f"note: {n}", markup=False, highlight=False)
        lines = [ln.get("text", "") if isinstance(ln, dict) else str(ln)
                 for ln in doc.get("config") or []]
        if lines:
            c.print("config:", markup=False)
            for line in lines:
                c.print("    " + line, markup=False, highlight=False, soft_wrap=True)
        c.print()
