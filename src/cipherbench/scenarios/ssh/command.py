# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench ssh``: real OpenSSH transfers per cipher and MAC, beside a cleartext baseline.

By default against a private sshd on 127.0.0.1 made for the run (``scenarios.ssh.server``);
with ``--host`` against a real machine through the user's own ssh configuration. Through the
ssh pipe and the file tools that are installed (``--via``), in interleaved rounds with paired
verdicts. Every sample is stored as it arrives (scenario ``ssh``); the tables are ranked by
throughput.
"""
from __future__ import annotations

import os

import click

from cipherbench import units
from cipherbench.clikit.context import AppContext, db_option, json_option
from cipherbench.clikit.quiet import cpu_option, wait_quiet_on, wait_quiet_option
from cipherbench.clikit.options import (POSITIVE_SECONDS, SECONDS, Size, cpu_profile_option,
                                        nonempty_list, split_list)
from cipherbench.cores.cpu_profiles import PROFILES
from cipherbench.errors import UsageError
from cipherbench.export import EXPORTERS, RunBundle
from cipherbench.scenarios import fleet_command as fleet
from cipherbench.scenarios.fleet_command import KeepsArgs
from cipherbench.scenarios.outcome import finish
from cipherbench.scenarios.payload import check_fits
from cipherbench.scenarios.progress import mode_for
from cipherbench.scenarios.recording import Recording
from cipherbench.scenarios.ssh import sweep
from cipherbench.scenarios.ssh import scenario as ssh
from cipherbench.scenarios.ssh.via import VIAS

#: Per transfer: large enough that a fast cipher's data phase lasts a tenth of a second
#: here, small enough that every round of every cipher and tool stays short.
DEFAULT_SIZE = "64M"
MAX_SIZE = 16 << 30
#: The one program measured unless --via names others: ssh itself, which every session,
#: tunnel and git push runs (a user whose task is scp or rsync names it; `all` takes four
#: times as long).
DEFAULT_VIA = "pipe"


def chosen_via(given: list[str]) -> list[str] | None:
    """``--via`` as given -> the tools to ask ``via.choose`` for (None: every one installed)."""
    if not given:
        return [DEFAULT_VIA]
    return None if "all" in given else given


def parse_size(text: str) -> int:
    """``256M``, ``8MiB``, ``1G``, ``65536`` -> bytes (binary multiples)."""
    try:
        n = units.parse_size(text)
    except ValueError:
        raise UsageError(f"--size {text!r} is not a size: use e.g. 256M, 8MiB, 1G or bytes")
    if not 1 <= n <= MAX_SIZE:
        raise UsageError(f"--size {text!r} is out of range: between 1 byte and 16 GiB")
    return n


@click.command(cls=KeepsArgs, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--ciphers", multiple=True, metavar="LIST", callback=nonempty_list,
              help="ciphers to measure, comma-separated, or `all` (every one of `ssh -Q "
                   "cipher`); default: the ones your ssh client offers (`ssh -G`)")
@click.option("--macs", multiple=True, metavar="LIST", callback=nonempty_list,
              help="MACs for non-AEAD ciphers, comma-separated, or `all` (every one of `ssh "
                   "-Q mac`); default: the one your ssh client offers first, which it "
                   "negotiates")
@click.option("--size", default=DEFAULT_SIZE, show_default=True, type=Size(1, MAX_SIZE),
              help="bytes per transfer, sent from memory (K, M, G = KiB, MiB, GiB)")
@click.option("--host", "hosts", multiple=True, metavar="[USER@]HOST",
              help="measure against this host through your own ssh configuration instead of "
                   "a private server on 127.0.0.1; repeat it or separate hosts with commas "
                   "('web*': the ssh config's matching Host entries): one host at a time, "
                   "this machine's CPU running every client")
@click.option("--inventory", metavar="FILE[:GROUP]",
              help="measure against the hosts of an Ansible inventory (INI or YAML), or of "
                   "one of its groups, one at a time")
@click.option("--host-timeout", type=SECONDS, metavar="SECONDS", default=None,
              help="stop a host's run after this long (it is marked interrupted, keeps what "
                   "finished, and the next host goes on)")
@click.option("--ssh-config", metavar="FILE", type=click.Path(dir_okay=False),
              help="with --host: use this ssh_config file (ssh -F) instead of ~/.ssh/config")
@click.option("--via", multiple=True, metavar="LIST", callback=nonempty_list,
              help=f"the programs that move the bytes, comma-separated: {', '.join(VIAS)}, "
                   "or `all` (every one installed, cheapest first); pipe: ssh's stdin to a "
                   "remote wc -c, what ssh sessions, tunnels and git over ssh run; the others "
                   f"copy a file with -c CIPHER (default: {DEFAULT_VIA})")
@click.option("--rounds", type=click.IntRange(2, 100), default=sweep.DEFAULT_ROUNDS,
              show_default=True, metavar="N",
              help="interleaved rounds at most: each sends one sample through every "
                   "cipher, tool and the baseline, in a new random order; they stop at a "
                   "planned look (after 8) once every cipher is decided against the default; "
                   f"a verdict needs {sweep.verdict.MIN_ROUNDS}")
@click.option("--seed", type=int, default=None, metavar="S",
              help="the seed of the rounds' random order (default: a new one, stored with "
                   "the run)")
@click.option("--budget", type=POSITIVE_SECONDS, default=None, metavar="SECONDS",
              help="seconds per cipher, tool and baseline: no new round starts once the "
                   "rounds have spent that many times their number (never before "
                   f"{sweep.verdict.MIN_ROUNDS} rounds; default: all --rounds)")
@click.option("--no-baseline", is_flag=True, help="skip the cleartext TCP baseline")
@click.option("--full-samples", is_flag=True,
              help=f"send all of --size in every sample (by default a sample stops sending "
                   f"after {sweep.SAMPLE_MAX_S:g} s, so slow ciphers send less; such rows are "
                   "marked in the table)")
@cpu_option("keep the ssh client on CPU K (the server is not pinned)")
@cpu_profile_option
@wait_quiet_option
@click.option("--progress/--no-progress", default=None,
              help="show a progress bar (default: when stderr is a terminal)")
@db_option
@json_option
@click.pass_obj
def command(app: AppContext, ciphers, macs, size, hosts, inventory, host_timeout, ssh_config,
            via, rounds, seed, budget, no_baseline, full_samples, cpu, cpu_profile, wait_quiet, progress, db,
            as_json) -> int:
    """Real OpenSSH transfers per cipher and MAC through ssh, sftp, scp and rsync, against a
    cleartext TCP baseline, in interleaved rounds with paired verdicts."""
    names = fleet.resolve(app, hosts, inventory, ssh_config, None, host_timeout)
    host = names[0] if names else None
    if budget is not None and budget <= 0:
        raise UsageError("--budget must be positive")
    if ssh_config and not host:
        raise UsageError("--ssh-config needs --host (the private server has its own config)")
    if ssh_config and not os.path.isfile(ssh_config):
        raise UsageError(f"--ssh-config {ssh_config}: no such file")
    if host and (host.startswith("-") or any(c.isspace() for c in host)):
        raise UsageError(f"--host {host!r} is not a host name")
    check_fits("--size", size)
    p = ssh.make_plan(split_list(ciphers), split_list(macs), size=size, host=host,
                      ssh_config=ssh_config, via=chosen_via(split_list(via)), rounds=rounds,
                      seed=seed,
                      budget_s=budget, baseline=not no_baseline, full_samples=full_samples,
                      cpu=cpu, env=dict(app.env),
                      hw_off=PROFILES[cpu_profile].features if cpu_profile else ())
    store = app.open_store(db)
    if fleet.is_fleet(names, host_timeout):
        # one host at a time: this machine's CPU runs the client of every transfer
        return fleet.run_many(app, ssh.NAME, names, db_path=store.location, parallel=1,
                              host_timeout=host_timeout, progress=progress, as_json=as_json)
    wait_quiet_on(app.err_console, wait_quiet)
    mode = "off" if progress is False else mode_for(app.err_console, progress)
    with Recording(store, ssh.NAME, p.args(), p.metadata(), console=app.err_console,
                   progress=mode, unit=ssh.UNIT, total=p.steps(),
                   estimate_s=ssh.estimate_s(p),
                   show=lambda run_id: _show(app, store, run_id, False)) as rec:
        outcome = ssh.measure(p, rec)
    _show(app, store, rec.run_id, as_json)
    store.close()
    return finish(app, rec, outcome)


def _show(app: AppContext, store, run_id: int, as_json: bool) -> None:
    """Print the stored run: JSON (the export schema) or the ranked table."""
    if as_json:
        app.stdout.write(EXPORTERS["json"].render(RunBundle.load(store, run_id)))
        return
    run, results = store.get_run(run_id), store.results(run_id)
    ssh.view(app, run, results, store.warnings(run_id))
    ssh.answer(app, run, results)

