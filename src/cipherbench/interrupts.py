# SPDX-License-Identifier: GPL-3.0-or-later
"""One way for every command to be stopped: SIGINT (Ctrl-C), SIGTERM (``kill``, ``timeout``, a CI
cancel) and SIGHUP (a closed terminal) all raise ``Stop``, a ``KeyboardInterrupt``, in the main
thread. Everything then unwinds through the same ``with`` blocks: core processes are stopped,
private servers and agents killed, temporary directories removed, and the stored run is marked
interrupted with its finished results kept (``scenarios.recording``).

Only the first signal interrupts: a second one while the cleanup runs is noted and ignored, so
the cleanup finishes (each of its steps has its own timeout).

A program that runs cipherbench in-process with handlers of its own (pytest) keeps them:
inside ``left_to_caller`` no handler is installed, and a ``KeyboardInterrupt`` that is not a
``Stop`` (``ours``) goes back to that program as raised, so its Ctrl-C still stops it.
"""
from __future__ import annotations

import signal
import tempfile
import threading
from contextlib import contextmanager
from typing import Iterator

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_active = False
#: Set inside ``left_to_caller``: the embedding program owns the signals.
_left_to_caller = False
#: The stop signals seen while the handlers are in place (the first one stops, the others wait
#: for the cleanup).
_fired: list[int] = []


class Stop(KeyboardInterrupt):
    """A stop signal arrived; ``signum`` says which."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def stopped_by(signum: int) -> Stop:
    """The ``Stop`` for a stop signal that reached a child first (ssh, in the terminal's
    process group, killed by the same Ctrl-C): noted as fired, so the same signal arriving
    here during the cleanup does not interrupt it."""
    if signum not in _fired:
        _fired.append(signum)
    return Stop(signum)


def check() -> None:
    """Between two steps of a long loop (each sample of the rounds): raise ``Stop`` if a stop
    signal came while the handlers are in place and the loop still runs. Its exception can be
    lost on the way (raised while the interpreter ran code whose errors it drops), and a signal
    can sit blocked; either would let the run go on to the end and exit 0. Nothing to do
    outside ``stop_on_signals``."""
    if not _active:
        return
    if _fired:
        raise Stop(_fired[0])
    pending = signal.sigpending() & set(STOP_SIGNALS)
    if pending:   # blocked in this thread: let it in, and the handler raises
        signal.pthread_sigmask(signal.SIG_UNBLOCK, pending)


def ours(exc: BaseException) -> bool:
    """Whether an interrupt is cipherbench's to handle (an exit status of 130, the run marked
    interrupted): a ``Stop``, or any ``KeyboardInterrupt`` while these handlers are in place.
    Any other one belongs to the program that runs cipherbench in-process, and passes through."""
    return isinstance(exc, Stop) or (_active and isinstance(exc, KeyboardInterrupt))


@contextmanager
def left_to_caller() -> Iterator[None]:
    """While inside, ``stop_on_signals`` installs nothing: the program calling cipherbench
    in-process (a test runner) keeps its own handlers, and its Ctrl-C stops it."""
    global _left_to_caller
    before, _left_to_caller = _left_to_caller, True
    try:
        yield
    finally:
        _left_to_caller = before


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """While inside, the stop signals raise ``Stop`` once; the old handlers come back after.
    Outside the main thread (where Python cannot set handlers), nested, or inside
    ``left_to_caller``, this does nothing."""
    global _active
    if _active or _left_to_caller or threading.current_thread() is not threading.main_thread():
        yield  # nested: the outer block's handlers already do the job
        return
    fired = _fired
    fired.clear()
    try:
        # Python's first gettempdir() writes a probe file under TMPDIR and then removes it; a
        # Stop raised between the two would leave the file behind, so it happens here, before
        # the handlers are in place (the result is cached for the process).
        tempfile.gettempdir()
    except OSError:
        pass  # no usable directory: the scenario that needs one says so in one line

    def handler(signum, frame):  # noqa: ARG001 - signal handler signature
        if fired:
            return  # the cleanup of the first stop is under way: let it finish
        fired.append(signum)
        raise Stop(signum)

    old = {}
    for sig in STOP_SIGNALS:
        try:
            old[sig] = signal.signal(sig, handler)
        except (ValueError, OSError):  # pragma: no cover - not settable here
            pass
    _active = True
    try:
        yield
    finally:
        _active = False
        for sig, h in old.items():
            try:
                signal.signal(sig, h)
            except (ValueError, OSError, TypeError):  # pragma: no cover
                pass
