# SPDX-License-Identifier: GPL-3.0-or-later
"""``analysis.estimate``: the duration of a run at a CPU share, its wall-clock budgets kept."""
from __future__ import annotations

import pytest

from cipherbench.analysis.estimate import Estimate


def test_work_without_a_budget_stretches_with_the_share():
    e = Estimate(20.0, 5.0, rounds=8)
    assert e.quiet_s == 60.0
    assert e.at(0.5) == 120.0 and e.at(0.25) == 240.0
    assert e.at(2.0) == 60.0          # never faster than a whole CPU


def test_a_budget_cuts_rounds_under_load_but_never_below_the_fewest():
    e = Estimate(0.0, 4.0, rounds=16, budget_s=30.0, min_rounds=6)
    assert e.rounds_at(1.0) == 8      # ceil(30 / 4): the round that starts at 28 s runs
    assert e.rounds_at(0.5) == 6      # ceil(30 / 8) = 4, but a verdict needs 6
    assert e.at(0.5) == pytest.approx(6 * 8.0)
    assert Estimate(0.0, 4.0, rounds=5, budget_s=100.0, min_rounds=6).rounds_at(1.0) == 5


def test_wall_seconds_of_a_budget_do_not_stretch():
    e = Estimate(10.0, wall_s=30.0)
    assert e.quiet_s == 40.0 and e.at(0.5) == 50.0


def test_the_share_is_bounded_below():
    assert Estimate(1.0).at(0.0) == pytest.approx(20.0)


def test_the_share_a_round_got():
    e = Estimate(10.0, 20.0, rounds=6)
    assert e.share_from(10.0, 40.0) == 0.25        # 10 s of quiet work took 40 s
    assert e.share_from(10.0, 5.0) == 1.0          # faster than quiet: a whole CPU
    assert e.share_from(0.0, 5.0) == 1.0           # nothing done yet: nothing to tell


def test_the_work_done_counts_the_start_whole_and_the_rest_in_proportion():
    e = Estimate(10.0, 20.0, rounds=6, start_s=4.0)
    assert e.quiet_s == 4.0 + 10.0 + 120.0
    assert e.done_s(0.5, 1.0) == 4.0 + 5.0 + 20.0
    assert e.at(0.5) == 2 * 134.0


def test_the_time_left_follows_the_pace_of_the_work_done():
    """A third of the work (quiet seconds) done in as many real seconds: the quiet estimate
    holds. Done in three times as long: a third of a CPU, and the rest takes three times
    its quiet time."""
    e = Estimate(0.0, 10.0, rounds=6)
    assert e.left_s(20.0, 20.0) == pytest.approx(40.0)
    assert e.left_s(20.0, 60.0) == pytest.approx(120.0)
    assert e.left_s(60.0, 100.0) == 0.0            # every round done: nothing left


def test_the_time_left_at_a_low_share_keeps_the_budget_cutting_rounds():
    """Rounds of 10 quiet s, a 60 s budget: quiet, 6 rounds (a verdict's fewest); at a
    quarter of a CPU still 6 (never fewer), each 40 s: the rest of the 6 at that pace."""
    e = Estimate(0.0, 10.0, rounds=8, budget_s=60.0, min_rounds=6)
    assert e.left_s(10.0, 40.0) == pytest.approx(5 * 40.0)


def test_the_old_rule_the_start_probe_alone_is_what_changes():
    """The run's time comes from the share its work got, not the probe's: at the start a
    spinning thread read a whole CPU while the run's requests got a quarter."""
    e = Estimate(10.0, 20.0, rounds=6)
    probe_says = e.at(1.0)
    assert probe_says == 130.0
    # the first round (10 s of start-up and calibration counted whole, 10 s of rounds) took 80 s
    done = e.done_s(1.0, 0.5)
    assert done == 20.0
    assert 80.0 + e.left_s(done, 80.0) == pytest.approx(130.0 / 0.25)


def _recording(tmp_path, est, clock):
    import io

    from rich.console import Console

    from cipherbench.scenarios.recording import Recording
    from cipherbench.store import Store
    buf = io.StringIO()
    con = Console(file=buf, width=200)
    store = Store.open(tmp_path / "r.sqlite")
    rec = Recording(store, "run", {}, {}, console=con, progress="lines", unit="points",
                    total=4, estimate_s=est, share=lambda: 1.0, clock=clock)
    return store, rec, buf


def test_every_round_corrects_the_expected_time(tmp_path):
    """The probe at the start read a whole CPU; the first round (half the run's points: their
    start and calibration, half a round's batches) took 4x its quiet time: the run now
    expects (2 + 10 + 6 x 20) / 0.25 s and says so once; each later round keeps it to the
    pace, and the time left is that, not the start's guess blended in."""
    from cipherbench.scenarios.primitive.interleaved import _Pace
    t = [0.0]
    est = Estimate(10.0, 20.0, rounds=6, start_s=2.0)
    store, rec, buf = _recording(tmp_path, est, lambda: t[0])
    with store, rec:
        assert rec.progress.expected_s == 132.0
        pace = _Pace(rec, 4)
        pace.started = 2
        t[0] = (2.0 + 5.0 + 10.0) * 4          # 17 quiet s took 68 s
        pace.round_done(2)
        assert rec.progress.expected_s == pytest.approx(528.0)
        assert rec.progress.left_text() == "about 7 min 40 s left"
        t[0] = 68.0 + 20.0                     # the next half round at a whole CPU's pace
        pace.round_done(2)
        share = 27.0 / 88.0
        assert rec.progress.expected_s == pytest.approx(88.0 + (132.0 - 27.0) / share)
        assert store.get_run(rec.run_id).metadata["estimate_after_first_round_s"] == 528.0
    out = buf.getvalue()
    assert "cipherbench: run: the first round got 25% of a CPU: about 8 min 48 s in all" in out
    assert out.count("the first round got") == 1


def test_a_library_without_serve_costs_a_process_for_every_batch_of_its_rounds():
    """The Go and Rust cores start a process a batch: their points' rounds cost that process
    each (the old estimate took the C core's serve for every library: a default `run --quick`
    said 19 s of work where its processes used 39 s of CPU)."""
    from cipherbench import presets
    from cipherbench.cores.core_client import Inventory
    from cipherbench.scenarios.primitive import scenario as primitive
    from cipherbench.scenarios.primitive.batches import Item, Selection

    class Core:
        def __init__(self, served):
            self.served = served

        def serves_lib(self, lib):
            return lib in self.served

    sel = Selection(libs=("openssl", "go"), algos=("aes-128-gcm",), ops=("encrypt",),
                    sizes=(1024, 16384), samples=6, min_sample_ms=0.5, run_budget_s=None)
    items = [Item("openssl", "aes-128-gcm", "encrypt", sel.sizes),
             Item("go", "aes-128-gcm", "encrypt", sel.sizes)]

    def plan(served):
        return primitive.RunPlan(Core(served), Inventory({"commands": ["serve"]}),
                                 presets.QUICK, sel, items, [], adaptive=True)

    both, one = primitive.estimate_s(plan({"openssl", "go"})), primitive.estimate_s(plan({"openssl"}))
    assert one.start_s == both.start_s / 2          # one served process, not two
    # go's two points: a process for each batch of every round
    assert one.per_round_s - both.per_round_s == pytest.approx(2 * primitive._PROCESS_S)


def test_ssh_rounds_cut_by_its_budget_under_load_not_stretched():
    """ssh's budget is wall time: at a quarter of a CPU its rounds are fewer (never fewer
    than a verdict's), so the estimate is well under the quiet one over the share (what a
    plain number of seconds gave)."""
    from cipherbench.scenarios.ssh import scenario, sweep
    combos = [sweep.Combo(c, "hmac-sha2-256") for c in ("aes128-ctr", "aes256-ctr", "chacha20-poly1305@openssh.com")]
    p = scenario.SshPlan(combos, 256 << 20, via=["pipe"], rounds=12, seed=5, budget_s=20.0)
    e = scenario.estimate_s(p)
    assert e.rounds_at(1.0) == 12 and e.rounds_at(0.25) == e.min_rounds == 6
    assert e.at(0.25) < 0.75 * e.quiet_s / 0.25


def test_the_pace_of_steps_keeps_a_budget_cutting_rounds():
    """tls, gpg, ssh count steps: a step is an equal part of the estimate's quiet work. 12
    rounds of 10 s fit a 120 s budget quietly; the first took 40 s (a quarter of a CPU), so
    the budget lets 6 start, not 12: 240 s in all by the pace (the steps' own pace said
    480 s), blended with the 120 s expected in proportion to the steps done."""
    from cipherbench.scenarios.progress import left_s
    e = Estimate(0.0, 10.0, rounds=16, budget_s=120.0, min_rounds=6)
    assert e.rounds_at(1.0) == 12
    assert left_s(40.0, 1, 12, expected_s=120.0, estimate=e) == pytest.approx(
        (240.0 + 11 * 120.0) / 12 - 40.0)
    assert left_s(40.0, 1, 12, expected_s=120.0) == pytest.approx((480.0 + 11 * 120.0) / 12 - 40.0)


def test_the_served_libraries_are_those_of_a_core_with_serve(env):
    """The real C core serves its libraries; the recorded Go core (from before its serve)
    has none: a process a batch, which the estimate counts."""
    import os

    from conftest import FAKE_CORE, real_core

    from cipherbench.cores import combined
    e = dict(env, CIPHERBENCH_CORE=str(real_core()),
             CIPHERBENCH_CORE_GO=str(FAKE_CORE.parent / "cipherbench-core-go"))
    e.pop("CIPHERBENCH_CORE_RUST", None)
    cores = combined.Cores.find(e)
    libs = cores.list().libs()
    assert "go" in libs and "openssl" in libs and os.path.exists(e["CIPHERBENCH_CORE"])
    assert cores.serves_lib("openssl") and not cores.serves_lib("go")


def test_the_share_expected_at_the_start_weighs_the_instant_against_the_minute():
    from cipherbench.analysis.estimate import expected_share
    assert expected_share(0.95, 0.2, 2) == pytest.approx(0.95 ** 0.5)   # quiet: the probe's
    # a probe reading 54% on a load of 13 over 2 CPUs: 2/14 of a CPU is the minute's share
    assert expected_share(0.54, 13.0, 2) == pytest.approx((0.54 * 2 / 14) ** 0.5)
    assert expected_share(0.12, 1.0, 2) == pytest.approx(0.12 ** 0.5)    # an unlucky instant
    assert expected_share(0.3, None, 2) == 0.3                           # no load average


def test_the_share_at_the_start_reads_the_load_average(tmp_path, monkeypatch):
    from cipherbench.machine import load
    (tmp_path / "loadavg").write_text("7.00 6.00 5.00 3/400 1234\n")
    monkeypatch.setattr(load, "probe_share", lambda seconds=0.2: 0.5)
    monkeypatch.setattr(load.os, "sched_getaffinity", lambda pid: {0, 1})
    assert load.start_share(root=tmp_path) == pytest.approx((0.5 * 2 / 8) ** 0.5)
