# SPDX-License-Identifier: GPL-3.0-or-later
"""Child processes that cannot outlive the benchmark.

``subprocess.Popen(..., preexec_fn=die_with_parent(signal.SIGKILL))``: the kernel sends the
signal to the child when the process that started it ends, even by SIGKILL, so a killed run
cannot leave a server listening. Linux only (``prctl(PR_SET_PDEATHSIG)``); elsewhere a no-op.
The signal follows the *thread* that called Popen: start such children from a thread that
lives as long as they should.
"""
from __future__ import annotations

import ctypes
import os
import signal
from typing import Callable

_PR_SET_PDEATHSIG = 1

_prctl: Callable[..., int] | None
try:  # looked up here, before any fork: the child only calls it
    _prctl = ctypes.CDLL(None, use_errno=True).prctl
except (OSError, AttributeError):  # pragma: no cover - not Linux
    _prctl = None


def die_with_parent(sig: int = signal.SIGTERM) -> Callable[[], None]:
    """A ``preexec_fn`` that makes the child get ``sig`` when this process dies."""
    parent = os.getpid()

    def arm() -> None:
        if _prctl is None:
            return
        _prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
        if os.getppid() != parent:   # the parent died before the line above took effect
            os._exit(1)
    return arm


def pin(pid: int, cpu: int | None) -> None:
    """Keep process ``pid`` on CPU ``cpu`` (``--cpu K``; None: leave it). Done right after the
    process starts: what it does in its first instants is not timed. A process already gone
    is left alone."""
    if cpu is None:
        return
    try:
        os.sched_setaffinity(pid, {cpu})
    except ProcessLookupError:
        pass
