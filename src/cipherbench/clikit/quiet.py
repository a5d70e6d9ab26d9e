# SPDX-License-Identifier: GPL-3.0-or-later
"""``--wait-quiet[=SECONDS]`` and ``--cpu K``, shared by every measuring command (run, tls,
ssh, gpg, and advise for what it measures): the options, and the bounded wait for a quiet
machine before a run starts."""
from __future__ import annotations

from typing import Callable

import click

from cipherbench.machine import load
from cipherbench.clikit.options import CPU, Seconds

#: Seconds ``--wait-quiet`` waits when given without a value.
DEFAULT_WAIT_S = 60.0
#: The longest wait that may be asked.
MAX_WAIT_S = 3600.0


def wait_quiet_option(f: Callable) -> Callable:
    return click.option(
        "--wait-quiet", "wait_quiet", type=Seconds(maximum=MAX_WAIT_S), default=None,
        is_flag=False, flag_value=DEFAULT_WAIT_S, metavar="[SECONDS]",
        help="before measuring, wait until nothing else wants the CPU, at most SECONDS "
             f"(default {DEFAULT_WAIT_S:g}); then measure anyway")(f)


def cpu_option(help_text: str) -> Callable[[Callable], Callable]:
    def deco(f: Callable) -> Callable:
        return click.option("--cpu", "cpu", type=CPU, default=None, metavar="K",
                            help=help_text)(f)
    return deco


def wait_quiet_on(console, seconds: float | None) -> None:
    """``wait_for_quiet`` with its lines on ``console`` (the command's stderr)."""
    wait_for_quiet(lambda text: console.print(text, markup=False, highlight=False,
                                              soft_wrap=True), seconds)


def wait_for_quiet(say: Callable[[str], None], seconds: float | None,
                   wait: Callable[..., load.WaitResult] = load.wait_quiet) -> None:
    """With ``--wait-quiet``: one line while waiting, one with what was found."""
    if seconds is None:
        return
    say(f"cipherbench: waiting up to {seconds:g} s for a quiet machine (--wait-quiet)")
    r = wait(seconds)
    found = load.summary_line(r.last) if r.last is not None else "load unknown"
    if r.quiet:
        say(f"cipherbench: quiet after {r.waited_s:.1f} s ({found}): measuring")
    else:
        say(f"cipherbench: still busy after {r.waited_s:.1f} s ({found}): measuring anyway")
