# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench advise --for TARGET``: the fastest choice the policy allows, whether crypto is
the bottleneck, and the exact config lines (each checked with the real tool)."""
from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence

import click
from rich.text import Text

from cipherbench.advise import policy as pol
from cipherbench.advise.bottleneck import parse_link
from cipherbench.advise.engine import LEFT_OUT, Advice, Options, advise, left_out_text
from cipherbench.advise.gather import gather
from cipherbench.advise.measure import VIA, Measurer, check_via
from cipherbench.advise.record import SCHEMA, store_advice
from cipherbench.scenarios.progress import mode_for
from cipherbench.advise.targets import CHOICES, resolve
from cipherbench.advise.validate import Validator, printable
from cipherbench.clikit.context import AppContext, db_option, json_option
from cipherbench.clikit.options import nonempty_list, split_list
from cipherbench.clikit.quiet import cpu_option, wait_quiet_on, wait_quiet_option
from cipherbench.display.console import display_fitted
from cipherbench.errors import UsageError
from cipherbench.machine.coherence import this_machine
from cipherbench.remote.targets import is_pattern
from cipherbench.scenarios.ssh.tables import verdict_cell
from cipherbench.units import format_rate

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
@click.option("--host", "hosts", multiple=True, metavar="[USER@]HOST",
              help="ssh: measure against this host (through your ssh configuration) and name "
                   "it in the config lines; repeated (or comma-separated, or 'web*' for the "
                   "ssh config's Host entries): answer per host from its stored runs, then "
                   "for the fleet")
@click.option("--inventory", metavar="FILE[:GROUP]",
              help="answer per host of an Ansible inventory (INI or YAML) or of one of its "
                   "groups, from each host's stored runs (`run --inventory` measures them), "
                   "then one summary with the config lines per group of hosts")
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
@click.option("--details", is_flag=True, help="with --for all: every target's answer, table, "
              "notes and config lines before the summary table (one target: always shown)")
@click.option("--kernel", is_flag=True, help="luks: measure the kernel's dm-crypt itself, a "
              "mapping per cipher on a RAM-backed device (root, device-mapper and dm-crypt; "
              "as `cipherbench luks`)")
@cpu_option("what advise measures runs on CPU K (the core, the ssh client, gpg; as each "
            "measuring command's --cpu)")
@wait_quiet_option
@db_option
@json_option
@click.pass_obj
def command(app: AppContext, target, policy, link, hosts, inventory, ssh_config, via, lib,
            assume_no_aes, no_measure, details, kernel, cpu, wait_quiet, db, as_json) -> int:
    """Which cipher to use here, whether crypto is your bottleneck, and the config lines.

    Exit status: 0 with an answer; 3 when a target has no evidence (its answer says "not
    measured" and recommends nothing); 1 when the machine or --host cannot be measured; 2
    for a bad command line."""
    link_rate = parse_link(link) if link else None
    if inventory or len(hosts) > 1 or any("," in h or is_pattern(h) for h in hosts):
        from cipherbench.cli.advise_fleet import advise_fleet
        return advise_fleet(app, target, policy, link_rate, hosts, inventory, ssh_config,
                            via, lib, assume_no_aes, kernel, db, as_json, details)
    host = hosts[0] if hosts else None
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
        app.env, store.location, say, cpu=cpu,
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
               "summary": [dict(zip(SUMMARY_KEYS, row)) for row in summary_rows(advice)],
               "exit": exit_status(advice),
               "targets": [a.to_json() for a in advice]}
        app.stdout.write(json.dumps(doc, indent=2) + "\n")
    else:
        show_all = len(advice) > 1
        shared = shared_notes(advice) if show_all else []
        if not show_all or details:
            for a in advice:
                display(app, a, opts, skip_notes=shared)
        if show_all:
            display_summary(app, advice, shared, details)
        runs = sorted({i for a in advice for i in a.evidence_runs})
        app.console.print(f"stored as run {run_id} (`cipherbench show {run_id}`); evidence: "
                          f"runs {', '.join(map(str, runs)) or 'none'}",
                          markup=False, highlight=False)
    store.close()
    return exit_status(advice)


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


def exit_status(advice: list[Advice]) -> int:
    """3 when any target has no evidence (it recommends nothing), else 0."""
    return max((a.exit_status for a in advice), default=0)


#: The summary table of ``--for all`` (and its ``--json`` rows).
SUMMARY_HEADER = ["target", "use", "against the default", "bottleneck"]
SUMMARY_KEYS = ["target", "use", "against_default", "bottleneck"]


def summary_rows(advice: list[Advice]) -> list[list[str]]:
    """One row per target: what to use, how it stands against the default, the bottleneck."""
    from cipherbench.advise import wording as W
    out = []
    for a in advice:
        v = a.verdict
        use = v.choice if v.recommends else ("not measured" if v.state == "not measured"
                                             else "none allowed")
        out.append([a.target.name, use or "", W.against_default_cell(v),
                    a.path.state if a.path is not None else "not told"])
    return out


def shared_notes(advice: list[Advice]) -> list[str]:
    """Notes that apply to the whole invocation: those more than one target carries, and the
    runs left out of the evidence (one store, one list), each said once."""
    seen: dict[str, int] = {}
    left: list[str] = []
    for a in advice:
        for n in dict.fromkeys(a.notes):
            seen[n] = seen.get(n, 0) + 1
        left += [x for x in a.left_out if x not in left]
    out = [n for n, k in seen.items() if k > 1 and not n.startswith(LEFT_OUT)]
    return out + ([left_out_text(left)] if left else [])


def display_summary(app: AppContext, advice: list[Advice], shared: list[str],
                    details: bool) -> None:
    """The answer of ``--for all``: one table, the notes that apply to every target once."""
    c = app.console
    # the names are pasted whole: wide enough for the longest suite name, never broken
    display_fitted(c, SUMMARY_HEADER, summary_rows(advice), keep=2, cap=46,
                   title="the answer per target")
    missing = [a.verdict.remedy for a in advice if a.verdict.state == "not measured"]
    if missing:
        c.print("not measured: run " + "; ".join(f"`{m}`" for m in dict.fromkeys(missing)),
                markup=False, highlight=False)
    for n in shared:
        c.print(f"note: {n}", markup=False, highlight=False)
    if not details:
        c.print("each target's answer, table, evidence and config lines: --details, or "
                "--for TARGET", markup=False, highlight=False)


def display(app: AppContext, a: Advice, opts: Options, skip_notes: Sequence[str] = ()) -> None:
    """The answer, what decided it, the candidates table, the bottleneck sentence and the
    config block."""
    c = app.console
    c.rule(f"{a.target.name}: {a.target.what}", style="dim")
    c.print(a.answer, markup=False, highlight=False)
    for line in [a.figures, *a.also, a.decided_by]:
        if line:
            c.print(line, markup=False, highlight=False)
    cells: list[list[str | Text]] = []
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
        if r.rate is not None and r.rate.authority > 0 and r.rank is None:
            name += " [lower layer]"
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
        if n not in skip_notes and not (skip_notes and n.startswith(LEFT_OUT)):
            c.print(f"note: {n}", markup=False, highlight=False)
    if a.evidence_runs:
        c.print(f"from runs {', '.join(map(str, a.evidence_runs))}", markup=False,
                highlight=False)
    if not a.lines:
        c.print()
        return
    c.print("config (each line checked with the installed tool; '# (left out: ...)' marks "
            "a line the tool rejected):", markup=False, highlight=False)
    for line in printable(a.lines):
        c.print("    " + line, markup=False, highlight=False, soft_wrap=True)
    unchecked = sorted({ln.detail for ln in a.lines if ln.status == "not checked"})
    for u in unchecked:
        c.print(f"not checked: {u}", markup=False, highlight=False, style="dim")
    c.print()


def display_run(app: AppContext, run, results, stored_warnings) -> None:
    """A stored advise run: per target the answer, the bottleneck sentence, the ranked
    candidates and the checked config lines (``cipherbench show`` calls this)."""
    c = app.console
    for r in (x for x in results if x.op == "recommend"):
        doc = r.extra
        c.rule(f"{doc.get('target', r.lib)}", style="dim")
        for key in ("answer", "figures", "also", "decided_by", "bottleneck"):
            for text in (doc.get(key) if isinstance(doc.get(key), list) else [doc.get(key)]):
                if text:
                    c.print(text, markup=False, highlight=False)
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
