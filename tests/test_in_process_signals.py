# SPDX-License-Identifier: GPL-3.0-or-later
"""A command run in-process (as the tests run them) leaves the signals to the program that
runs it: pytest's Ctrl-C stops pytest rather than failing one test and carrying on. The
command's own stop (``interrupts.Stop``) is still an exit status of 130, and a command that
owns its process (``run()``, or ``own_signals=True``) still turns every Ctrl-C into one."""
from __future__ import annotations

import signal

import pytest

from cipherbench.clikit.context import AppContext
from cipherbench.interrupts import Stop
from cipherbench.store import Store
from test_cli_run import SMALL


class CallerInterrupt(KeyboardInterrupt):
    """What the calling program's own SIGINT handler raises."""


@pytest.fixture
def caller_handler():
    """A SIGINT handler of the caller's own, in place for the test."""
    def handler(signum, frame):  # noqa: ARG001 - signal handler signature
        raise CallerInterrupt()

    old = signal.signal(signal.SIGINT, handler)
    yield handler
    signal.signal(signal.SIGINT, old)


def _open_store_raising(monkeypatch, exc: BaseException, seen: list) -> None:
    def open_store(self, db, create=True):  # noqa: ARG001 - the method's signature
        seen.append(signal.getsignal(signal.SIGINT))
        raise exc

    monkeypatch.setattr(AppContext, "open_store", open_store)


def test_the_callers_handler_stays_in_place_during_the_command(cli, caller_handler,
                                                               monkeypatch):
    seen: list = []
    _open_store_raising(monkeypatch, Stop(signal.SIGINT), seen)
    r = cli("history")
    assert seen == [caller_handler]
    assert signal.getsignal(signal.SIGINT) is caller_handler
    assert r.rc == 130 and r.err == "cipherbench: error: interrupted\n"   # its own stop


def test_ctrl_c_of_the_caller_passes_through_the_command(cli, monkeypatch):
    _open_store_raising(monkeypatch, KeyboardInterrupt(), [])
    with pytest.raises(KeyboardInterrupt) as info:
        cli("history")
    assert type(info.value) is KeyboardInterrupt


def test_a_command_owning_its_signals_turns_ctrl_c_into_130(cli, caller_handler, monkeypatch):
    seen: list = []
    _open_store_raising(monkeypatch, KeyboardInterrupt(), seen)
    r = cli("history", own_signals=True)
    assert seen and seen[0] is not caller_handler    # the command's own handler
    assert signal.getsignal(signal.SIGINT) is caller_handler   # given back after
    assert r.rc == 130 and "interrupted" in r.err


def test_a_real_sigint_mid_run_stops_the_caller_and_keeps_the_run(cli, env, caller_handler):
    """The fake core sends SIGINT to this process after its first point: the caller's
    handler raises, the interrupt comes out of the command, and the run is marked
    interrupted with what it finished."""
    with pytest.raises(CallerInterrupt):
        cli("run", *SMALL, env_override=dict(env, FAKE_CORE_SIGINT="openssl:1", FAKE_CORE_SERVE="1"))
    with Store.open(env["CIPHERBENCH_DB"], create=False) as s:
        run = s.get_run("last")
        assert run.status == "interrupted"
        assert s.results(run.id)
