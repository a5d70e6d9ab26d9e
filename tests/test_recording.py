# SPDX-License-Identifier: GPL-3.0-or-later
"""The stored run while it is measured (``scenarios.recording``) and its progress: final status
on success, on a stop signal, on a full disk and on other errors; lines when stderr is not a
terminal; the estimate before the first step."""
from __future__ import annotations

import io
import sqlite3

import pytest
from rich.console import Console

from cipherbench.interrupts import Stop, stop_on_signals
from cipherbench.scenarios.progress import Progress, eta_text, mode_for
from cipherbench.scenarios.recording import Recording, RunInterrupted
from cipherbench.store import Result, Store, StoreError
from cipherbench.run_warnings import BenchWarning


def _console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=200, force_terminal=False), buf


def _result(i: int) -> Result:
    return Result("primitive", "lib", f"algo{i}", "encrypt", 1024, "ns_per_op", "ns", 1.0 + i)


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def store(tmp_path):
    s = Store.open(tmp_path / "r.sqlite")
    yield s
    s.close()


def test_complete_run_keeps_results_warnings_and_prints_lines(store):
    con, buf = _console()
    clock = Clock()
    with Recording(store, "run", {"a": 1}, {"m": 2}, console=con, progress="lines",
                   unit="points", total=2, estimate_s=90, clock=clock,
                   share=lambda: 1.0) as rec:
        assert store.get_run(rec.run_id).status == "running"
        assert buf.getvalue() == ""            # the estimate waits for the first step
        rec.add(_result(1))
        clock.t = 10
        rec.progress.done("first")
        rec.warn([BenchWarning("noisy", "x", "text")])
        rec.add(_result(2))
        clock.t = 20
        rec.progress.done("second")
    run = store.get_run(rec.run_id)
    assert run.status == "complete" and run.n_results == 2
    assert not list(store.path.parent.glob("*.reserve-*"))
    assert [w.kind for w in store.warnings(rec.run_id)] == ["noisy"]
    lines = buf.getvalue().splitlines()
    assert lines[0] == "cipherbench: run: about 1 min 30 s for 2 points (estimate)"
    # half done in 10 s against 90 s estimated: (20 s by the pace + 90 s) / 2 in all
    assert lines[1] == "[1/2 points, 10.0 s, about 45.0 s left] first"
    assert lines[2] == "[2/2 points, 20.0 s] second"


def test_the_estimate_scales_with_the_cpu_share_and_is_corrected_by_the_pace(store):
    """A run that gets half a CPU at its start says twice the quiet estimate, and why; the
    time left then follows the pace as steps finish."""
    con, buf = _console()
    clock = Clock()
    with Recording(store, "run", {}, {}, console=con, progress="lines", unit="points",
                   total=4, estimate_s=60, clock=clock, share=lambda: 0.5) as rec:
        assert rec.progress.left_text() == "about 2 min 00 s left"
        clock.t = 60                           # the first quarter took as long as thought
        rec.progress.done("first")
        clock.t = 200                          # the second much longer: the pace counts more
        rec.progress.done("second")
    lines = buf.getvalue().splitlines()
    assert lines[0] == ("cipherbench: run: about 2 min 00 s for 4 points (estimate: 1 min 00 s "
                        "on a quiet machine, and this run gets 50% of a CPU now)")
    # a quarter done: 240 s by the pace, 120 s estimated: 150 s in all
    assert lines[1] == "[1/4 points, 1 min 00 s, about 1 min 30 s left] first"
    # half done: (400 by the pace + 120 as estimated) / 2 = 260 s in all
    assert lines[2] == "[2/4 points, 3 min 20 s, about 1 min 00 s left] second"
    assert store.get_run(rec.run_id).metadata["cpu_share_start"] == 0.5


def test_time_left_from_the_estimate_before_any_step_and_past_it():
    assert eta_text(0, 0, 10, expected_s=100) == "about 1 min 40 s left"
    assert eta_text(150, 0, 10, expected_s=100) == "past the estimate"
    assert eta_text(10, 1, 3) == "about 20.0 s left"     # no estimate: the pace alone


@pytest.mark.parametrize("exc", [Stop(2), Stop(15), Stop(1)])
def test_a_stop_marks_interrupted_with_one_line(store, exc):
    con, _ = _console()
    with pytest.raises(RunInterrupted) as info:
        with Recording(store, "run", {}, {}, console=con, progress="off") as rec:
            rec.add(_result(1))
            assert list(store.path.parent.glob("*.reserve-*"))   # space held while it runs
            raise exc
    assert not list(store.path.parent.glob("*.reserve-*"))
    assert info.value.exit_code == 130
    assert str(info.value) == ("interrupted: run 1 keeps its 1 finished results "
                               "(`cipherbench show 1`)")
    assert store.get_run(1).status == "interrupted" and store.get_run(1).n_results == 1


def test_the_callers_own_ctrl_c_marks_interrupted_and_goes_on_as_raised(store):
    """A ``KeyboardInterrupt`` outside cipherbench's handlers is the calling program's
    (pytest's Ctrl-C): the run is closed the same way, the interrupt is not swallowed."""
    con, _ = _console()
    with pytest.raises(KeyboardInterrupt) as info:
        with Recording(store, "run", {}, {}, console=con, progress="off") as rec:
            rec.add(_result(1))
            raise KeyboardInterrupt
    assert type(info.value) is KeyboardInterrupt
    assert not list(store.path.parent.glob("*.reserve-*"))
    assert store.get_run(1).status == "interrupted" and store.get_run(1).n_results == 1


def test_any_ctrl_c_is_a_stop_under_the_commands_own_handlers(store):
    con, _ = _console()
    with pytest.raises(RunInterrupted):
        with stop_on_signals():
            with Recording(store, "run", {}, {}, console=con, progress="off"):
                raise KeyboardInterrupt


@pytest.mark.parametrize("stored,status", [(0, "failed"), (1, "interrupted")])
def test_other_errors_pass_through_and_mark_the_run(store, stored, status):
    con, _ = _console()
    with pytest.raises(ValueError):
        with Recording(store, "tls", {}, {}, console=con, progress="off") as rec:
            for i in range(stored):
                rec.add(_result(i))
            raise ValueError("boom")
    assert store.get_run(1).status == status


def test_a_status_set_by_the_scenario_wins_on_error(store):
    con, _ = _console()
    with pytest.raises(ValueError):
        with Recording(store, "ssh", {}, {}, console=con, progress="off") as rec:
            rec.add(_result(1))
            rec.status = "failed"
            raise ValueError("host unreachable")
    assert store.get_run(1).status == "failed"


def test_a_full_disk_marks_the_run_failed_and_shows_what_it_stored(store, monkeypatch):
    con, _ = _console()
    shown = []
    real_add = Store.add_result

    def add_result(self, run_id, r):
        if r.algo == "algo3":
            raise StoreError("cannot write to the results database x: database or disk is full")
        return real_add(self, run_id, r)

    monkeypatch.setattr(Store, "add_result", add_result)
    with pytest.raises(StoreError):
        with Recording(store, "run", {}, {}, console=con, progress="off",
                       show=shown.append) as rec:
            for i in range(1, 5):
                rec.add(_result(i))
    run = store.get_run(1)
    assert run.status == "failed" and run.n_results == 2
    assert not list(store.path.parent.glob("*.reserve-*"))     # the reserve is given back
    assert [(w.kind, "disk is full" in w.text) for w in store.warnings(1)] == \
        [("store_failed", True)]
    assert shown == [1]


def test_progress_modes_and_eta():
    con, buf = _console()
    assert mode_for(con, None) == "lines" and mode_for(con, True) == "lines"
    assert mode_for(con, False) == "off"
    assert eta_text(10, 1, 3) == "about 20.0 s left"
    assert eta_text(10, 0, 3) == "" and eta_text(10, 3, 3) == "" and eta_text(10, 1, None) == ""
    p = Progress(con, "off")
    p.announce("never")
    p.start(2)
    p.done("x")
    p.stop()
    assert buf.getvalue() == ""
    p = Progress(con, "lines", unit="transfers").start(3)
    p.failed("cipherbench: error: refused")
    assert buf.getvalue().splitlines() == ["cipherbench: error: refused"] and p.count == 1
    with pytest.raises(ValueError):
        Progress(con, "fancy")


def test_stored_runs_are_readable_by_plain_sqlite(store, tmp_path):
    con, _ = _console()
    with Recording(store, "gpg", {}, {}, console=con, progress="off") as rec:
        rec.add(_result(1))
    with sqlite3.connect(tmp_path / "r.sqlite") as conn:
        assert conn.execute("SELECT command, status FROM runs").fetchall() == [("gpg",
                                                                                "complete")]


def test_a_stop_while_the_run_opens_still_closes_it(store, monkeypatch):
    """A signal right after the run is stored, before the block starts, is no orphan run."""
    from cipherbench.scenarios import recording
    con, _ = _console()

    def stopped(self):
        self.path.write_bytes(b"half")
        raise Stop(1)

    monkeypatch.setattr(recording._Reserve, "fill", stopped)
    with pytest.raises(RunInterrupted, match="keeps its 0 finished results"):
        with Recording(store, "gpg", {}, {}, console=con, progress="off"):
            pass
    assert store.get_run(1).status == "interrupted"
    assert not list(store.path.parent.glob("*.reserve-*"))


def test_on_a_terminal_progress_is_a_bar_not_lines():
    buf = io.StringIO()
    con = Console(file=buf, width=100, force_terminal=True)
    assert mode_for(con, None) == "bar" and mode_for(con, True) == "bar"
    p = Progress(con, mode_for(con, None), unit="points").start(2)
    p.working("openssl aes-128-gcm encrypt 16384 B")
    p.done("openssl aes-128-gcm encrypt 16384 B")
    p.say("cipherbench: error: one line above the bar")
    p.done("last")
    p.stop()
    text = buf.getvalue()
    assert "one line above the bar" in text
    assert "[1/2 points" not in text          # no log lines on a terminal


def test_a_wall_clock_budget_does_not_stretch_with_the_cpu_share(store):
    """A run whose rounds a 60 s budget ends says what the budget allows at its share, not
    the quiet figure over the share: 10 s of work, rounds of 10 s (8 planned, 6 at least).
    Quiet: 10 + 6 x 10 = 70 s (the budget lets 6 start). At 25%: 40 s + 6 rounds of 40 s."""
    from cipherbench.analysis.estimate import Estimate
    est = Estimate(10.0, 10.0, rounds=8, budget_s=60.0, min_rounds=6)
    con, buf = _console()
    with Recording(store, "run", {}, {}, console=con, progress="lines", unit="points",
                   total=4, estimate_s=est, share=lambda: 0.25) as rec:
        rec.progress.done("first")
    line = buf.getvalue().splitlines()[0]
    assert line.startswith("cipherbench: run: about 4 min 40 s for 4 points (estimate: "
                           "1 min 10 s on a quiet machine")
    meta = store.get_run(rec.run_id).metadata
    assert meta["estimate_s"] == 70.0 and meta["estimate_at_share_s"] == 280.0


def test_a_lost_host_is_the_runs_warning_and_one_line_with_what_it_keeps(store):
    from cipherbench.remote.errors import RemoteError
    from cipherbench.remote.recording import measuring_on
    con, _ = _console()
    rec = Recording(store, "run", {}, {}, console=con, progress="off")
    with pytest.raises(RemoteError) as info:
        with measuring_on(rec, "nas"):
            rec.add(_result(1))
            raise RemoteError("ssh to nas: connection closed")
    assert str(info.value) == ("ssh to nas: connection closed; run 1 is marked interrupted "
                               "and keeps its 1 finished results")
    assert [(w.kind.value, w.subject) for w in rec.warnings][-1:] == [("host_failed", "nas")]
