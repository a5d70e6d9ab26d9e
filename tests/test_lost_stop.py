# SPDX-License-Identifier: GPL-3.0-or-later
"""A stop signal whose exception is lost on the way (swallowed by code that caught it), or that
sits blocked, still stops the rounds at the next sample: the command must never go on to the
end and exit 0 after a Ctrl-C, SIGTERM or SIGHUP."""
from __future__ import annotations

import random
import signal

import pytest

from cipherbench import interrupts
from cipherbench.interrupts import Stop, stop_on_signals
from cipherbench.scenarios.rounds import rounds


def _swallowing(sig: int, measured: list):
    """A sample that catches the stop its signal raises (as lossy code would) and returns."""
    def one(c, i):
        if not measured:
            try:
                # to this thread: the handler runs before raise_signal returns (os.kill may
                # reach another thread of the test runner, and the handler run later)
                signal.raise_signal(sig)
            except Stop:
                pass
        measured.append((c, i))
        return 1.0
    return one


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP],
                         ids=lambda s: signal.Signals(s).name)
def test_a_swallowed_stop_stops_the_rounds_at_the_next_sample(sig):
    measured: list = []
    with stop_on_signals():
        with pytest.raises(Stop) as stopped:
            rounds(["a", "b", "c"], _swallowing(sig, measured), 5, random.Random(1))
    assert stopped.value.signum == sig
    assert len(measured) == 1      # the sample under way finished; no other began


def test_a_blocked_stop_is_let_in_and_stops():
    with stop_on_signals():
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
        try:
            signal.raise_signal(signal.SIGTERM)   # pending: blocked in this thread
            with pytest.raises(Stop):
                interrupts.check()
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})


def test_outside_the_handlers_check_does_nothing():
    interrupts.check()
