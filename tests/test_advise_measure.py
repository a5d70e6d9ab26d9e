# SPDX-License-Identifier: GPL-3.0-or-later
"""The advisor measures through the scenarios, not the command line: typed measurements with
the stored run and its status, or the error, and the results in the same store."""
from __future__ import annotations

import re

import pytest

from cipherbench.advise.measure import Measurer
from cipherbench.store import Store


@pytest.fixture
def measurer(env, tmp_path):
    said: list[str] = []
    m = Measurer(env, str(tmp_path / "advise.sqlite"), said.append)
    m.said = said
    return m


def test_primitives_are_stored_as_a_quick_run(measurer, tmp_path):
    m = measurer.primitive(["openssl"], ["aes-128-gcm", "chacha20-poly1305"])
    assert m.rc == 0 and m.error == "" and m.status == "complete" and m.run_id == 1
    assert m.args[:2] == ["run", "--quick"]
    with Store.open(tmp_path / "advise.sqlite") as store:
        run = store.get_run(m.run_id)
        algos = {r.algo for r in store.results(m.run_id)}
    assert run.command == "run" and run.args["preset"] == "quick"
    assert {"aes-128-gcm", "chacha20-poly1305"} <= algos and "memcpy" not in algos
    assert measurer.said[0].startswith("measuring primitives of openssl")
    # the announced time is the scenario's own estimate of that plan, stored with the run
    said = re.search(r"about ([\d.]+) (ms|s) on a quiet machine", measurer.said[0])
    assert said, measurer.said[0]
    quiet = float(said[1]) / (1000 if said[2] == "ms" else 1)
    assert quiet == pytest.approx(run.metadata["estimate_s"], abs=0.05)
    assert measurer.done == [m]


def test_an_error_comes_back_typed_and_the_advice_goes_on(measurer):
    m = measurer.primitive(["no-such-lib"], ["aes-128-gcm"])
    assert m.rc == 2 and "unknown library 'no-such-lib'" in m.error and m.run_id is None
    m = measurer.tls("openssl")   # the fake core refuses `tls --list` (exit 2)
    assert m.rc == 2 and "unexpected argument" in m.error and m.run_id is None
    assert len(measurer.done) == 2


def test_a_crashed_core_is_an_interrupted_run(measurer, env):
    measurer.env = dict(env, FAKE_CORE_CRASH="openssl:1")
    m = measurer.primitive(["openssl"], ["aes-128-gcm", "chacha20-poly1305"])
    assert m.rc == 1 and m.status == "interrupted" and m.run_id == 1
    assert any(w.kind == "core_crashed" for w in m.warnings)


def test_cpu_and_the_wait_reach_what_advise_measures(env, tmp_path):
    """``advise --cpu K`` keeps every measurement on CPU K (in the stored plan and the
    equivalent command line); ``--wait-quiet`` waits once, before the first measurement only."""
    waits: list[int] = []
    m = Measurer(env, str(tmp_path / "a.sqlite"), lambda s: None, cpu=0,
                 before_first=lambda: waits.append(1))
    first = m.primitive(["openssl"], ["aes-128-gcm"])
    second = m.primitive(["openssl"], ["chacha20-poly1305"])
    assert first.rc == 0 and second.rc == 0 and waits == [1]
    assert first.args[-2:] == ["--cpu", "0"]
    with Store.open(tmp_path / "a.sqlite") as store:
        assert store.get_run(first.run_id).args["cpu"] == 0


def test_advise_refuses_cpu_and_wait_with_no_measure(cli, env):
    r = cli("advise", "--for", "ssh", "--no-measure", "--cpu", "0", env_override=env)
    assert r.rc == 2 and r.err.count("\n") == 1 and "--no-measure measures nothing" in r.err


def test_what_advise_measures_shows_its_estimate_and_a_line_per_step(env, tmp_path):
    """Never a frozen counter: each measurement advise runs prints its estimate (scaled to
    the CPU share) and one line per finished step, as the command itself does in a log."""
    import io

    from rich.console import Console
    buf = io.StringIO()
    m = Measurer(env, str(tmp_path / "a.sqlite"), lambda s: None, progress="lines",
                 progress_console=Console(file=buf, width=200))
    assert m.primitive(["openssl"], ["aes-128-gcm"]).rc == 0
    lines = buf.getvalue().splitlines()
    assert lines[0].startswith("cipherbench: run: about ") and "(estimate" in lines[0]
    steps = [l for l in lines if l.startswith("[")]
    assert steps and steps[-1].startswith(f"[{len(steps)}/{len(steps)} points, ")


def test_the_whole_advice_is_announced_with_the_sum_of_its_estimates(measurer):
    """Before the first measurement: how many and how long together, each plan's own
    estimate summed; then each says which of them it is."""
    first = measurer.plan_primitive(["openssl"], ["aes-128-gcm"])
    second = measurer.plan_primitive(["openssl"], ["chacha20-poly1305", "aes-256-gcm"])
    measurer.announce([first, second])
    total = first.quiet_s() + second.quiet_s()
    head = measurer.said[0]
    assert head.startswith("2 measurements to make, about "), head
    said = re.search(r"about ([\d.]+) (ms|s) in all on a quiet machine", head)
    assert said, head
    assert float(said[1]) / (1000 if said[2] == "ms" else 1) == pytest.approx(total, rel=0.05,
                                                                             abs=0.05)
    measurer.measure(first)
    measurer.measure(second)
    assert "(1 of 2; " in measurer.said[1] and "(2 of 2; " in measurer.said[3]
