# SPDX-License-Identifier: GPL-3.0-or-later
"""The host options of a measuring command and its many-host form: ``--host`` (repeatable,
comma-separated, ssh config patterns), ``--inventory FILE[:GROUP]``, ``--parallel N`` and
``--host-timeout SECONDS``; the hosts measured by ``remote.fleet``, one progress line per host,
then one line per host and the fleet's count. The exit status is 0 only when every host
answered and finished its run.
"""
from __future__ import annotations

import json
import os
from typing import Any, Sequence

import click
from rich.live import Live
from rich.table import Table

from cipherbench.clikit.context import AppContext
from cipherbench.clikit.options import SECONDS
from cipherbench.errors import UsageError
from cipherbench.remote import targets
from cipherbench.remote.fleet import HostOutcome, run_fleet, strip_options
from cipherbench.remote.host import check_destination

FLEET_SCHEMA = "cipherbench-fleet"
#: 1: first version: ``hosts`` (each: ``host``, ``status``, ``exit_status``, ``elapsed_s``,
#: ``reason``, ``run_ids``, ``runs``: the export documents of its runs). Schema: export/fleet.schema.json.
FLEET_SCHEMA_VERSION = 1
DEFAULT_PARALLEL = 4
#: What the parent decides for every child: the host, and how children report.
_PARENT_ONLY = {"--host", "--inventory", "--parallel", "--host-timeout", "--json", "--db",
                "--progress", "--no-progress"}


class KeepsArgs(click.Command):
    """A command that keeps its own argument list (``ctx.meta["command_args"]``), so that each
    host's run can be the same command with one ``--host``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["command_args"] = list(args)
        return super().parse_args(ctx, args)


def host_options(f: Any) -> Any:
    """``--host`` (many), ``--inventory``, ``--parallel``, ``--host-timeout``."""
    for decorator in reversed([
        click.option("--host", "hosts", multiple=True, metavar="[USER@]HOST",
                     help="measure on this host through ssh, with its CPU and libraries: its "
                          "cipherbench-core on PATH, else this machine's shipped there for "
                          "the run (another architecture: build-ARCH/ of "
                          "scripts/build-cross.sh); stored here with the "
                          "host's machine facts. Repeat it or separate hosts with commas; "
                          "'web*' names the matching Host entries of the ssh config"),
        click.option("--inventory", metavar="FILE[:GROUP]",
                     help="measure the hosts of an Ansible inventory (INI or YAML), or of one "
                          "of its groups (Ansible is not needed)"),
        click.option("--parallel", type=click.IntRange(1, 256), metavar="N", default=None,
                     help=f"with several hosts: measure N at once (default {DEFAULT_PARALLEL})"),
        click.option("--host-timeout", type=SECONDS, metavar="SECONDS", default=None,
                     help="stop a host's run after this long (it is marked interrupted, keeps "
                          "what finished, and the other hosts go on)"),
    ]):
        f = decorator(f)
    return f


def host_access_options(f: Any) -> Any:
    """``--ssh-config`` and ``--host-core``: how a host is reached and which core runs there."""
    f = click.option("--host-core", metavar="PATH",
                     help="with --host: the cipherbench-core to run there (default: the one on "
                          "its PATH, else this machine's, shipped)")(f)
    return click.option("--ssh-config", metavar="FILE", type=click.Path(dir_okay=False),
                        help="with --host: use this ssh_config file (ssh -F) instead of "
                             "~/.ssh/config")(f)


def check_host_options(host: str | None, ssh_config: str | None, host_core: str | None,
                       local: Sequence[tuple[str, object]] = ()) -> None:
    """What goes with --host, and what does not: ``local`` names the options given about
    this machine (its CPUs, its directories), each with its value (None: not given)."""
    if not host:
        for name, value in (("--ssh-config", ssh_config), ("--host-core", host_core)):
            if value:
                raise UsageError(f"{name} needs --host")
        return
    check_destination(host)
    for name, setting in local:
        if setting is not None:
            raise UsageError(f"{name} is not supported with --host (it is about this "
                             "machine's CPUs): leave it out")
    if ssh_config and not os.path.isfile(ssh_config):
        raise UsageError(f"--ssh-config {ssh_config}: no such file")


def resolve(app: AppContext, hosts: Sequence[str], inventory: str | None,
            ssh_config: str | None, parallel: int | None,
            host_timeout: float | None) -> list[str]:
    """The destinations asked for (UsageError for a bad one or a lone fleet option)."""
    names = targets.expand(hosts, inventory, ssh_config, app.env)
    if not names:
        for option, value in (("--parallel", parallel), ("--host-timeout", host_timeout)):
            if value is not None:
                raise UsageError(f"{option} needs --host or --inventory")
    if host_timeout is not None and host_timeout <= 0:
        raise UsageError("--host-timeout must be more than zero seconds")
    return names


def is_fleet(names: Sequence[str], host_timeout: float | None) -> bool:
    """Several hosts (or a time limit): one child process per host."""
    return len(names) > 1 or host_timeout is not None


def run_many(app: AppContext, command: str, names: Sequence[str], *, db_path: str,
             parallel: int | None, host_timeout: float | None, progress: bool | None,
             as_json: bool) -> int:
    """Measure ``names`` with this command's own arguments, show each host's outcome."""
    ctx = click.get_current_context()
    takes_value = {o for p in ctx.command.params if isinstance(p, click.Option)
                   and not p.is_flag and not p.count for o in p.opts}
    base = [command, *strip_options(ctx.meta.get("command_args", []), _PARENT_ONLY,
                                    takes_value),
            "--json", "--no-progress" if progress is False else "--progress"]
    # the database through the environment: a URL's password stays out of `ps`
    env = {**app.env, "CIPHERBENCH_DB": db_path}
    view = _ProgressView(app, names, quiet=progress is False)
    with view:
        outcomes = run_fleet(names, base, env, parallel=parallel or DEFAULT_PARALLEL,
                             timeout_s=host_timeout, on_line=view.update)
    if as_json:
        app.stdout.write(json.dumps(fleet_document(outcomes), indent=2, sort_keys=True) + "\n")
    else:
        _summary(app, outcomes)
    return 0 if all(o.answered for o in outcomes) else 1


def fleet_document(outcomes: Sequence[HostOutcome]) -> dict:
    return {"schema": FLEET_SCHEMA, "schema_version": FLEET_SCHEMA_VERSION,
            "hosts": [{"host": o.destination, "status": o.status, "exit_status": o.rc,
                       "elapsed_s": round(o.elapsed_s, 3), "reason": o.reason or None,
                       "run_ids": o.run_ids,
                       "runs": o.documents} for o in outcomes]}


def _summary(app: AppContext, outcomes: Sequence[HostOutcome]) -> None:
    table = Table(title="hosts", title_justify="left")
    for col in ("host", "status", "run", "machine", "results", "time", "reason"):
        table.add_column(col, overflow="fold")
    for o in outcomes:
        m = o.documents[0]["run"]["metadata"] if o.documents else {}
        machine = ", ".join(x for x in (m.get("hostname"), m.get("cpu_model")) if x)
        n = sum(len(d.get("results", [])) for d in o.documents)
        table.add_row(o.destination, o.status, ", ".join(map(str, o.run_ids)) or "-",
                      machine or "-", str(n), f"{o.elapsed_s:.0f} s", o.reason or "")
    app.console.print(table)
    ok = [o for o in outcomes if o.answered]
    bad = [o for o in outcomes if not o.answered]
    line = f"{len(outcomes)} hosts: {len(ok)} complete"
    if bad:
        line += f"; {len(bad)} did not finish: " + ", ".join(
            f"{o.destination} ({o.status})" for o in bad)
    app.console.print(line, markup=False, highlight=False)
    runs = [r for o in ok for r in o.run_ids]
    if runs:
        side = (f"; the machines side by side: `cipherbench compare "
                f"{' '.join(map(str, runs))}`" if len(runs) > 1 else "")
        app.console.print(f"each run: `cipherbench show RUN`{side}", markup=False,
                          highlight=False)


class _ProgressView:
    """One line per host: a live table on a terminal, else ``host: line`` as lines come."""

    def __init__(self, app: AppContext, names: Sequence[str], quiet: bool):
        self.console = app.err_console
        self.names = list(names)
        self.quiet = quiet
        self.state = {n: "waiting" for n in names}
        self.live: Live | None = None

    def _table(self) -> Table:
        t = Table.grid(padding=(0, 2))
        for n in self.names:
            t.add_row(n, self.state[n])
        return t

    def __enter__(self) -> "_ProgressView":
        if self.console.is_terminal and not self.quiet:
            self.live = Live(self._table(), console=self.console, transient=False,
                             auto_refresh=False)
            self.live.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self.live is not None:
            self.live.update(self._table(), refresh=True)
            self.live.__exit__(*exc)

    def update(self, o: HostOutcome, line: str) -> None:
        self.state[o.destination] = line
        if self.live is not None:
            self.live.update(self._table(), refresh=True)
        elif not self.quiet or o.status not in ("running", "waiting"):
            self.console.print(f"{o.destination}: {line}", markup=False, highlight=False,
                               soft_wrap=True)
