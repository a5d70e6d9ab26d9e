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
    assert e.share_from(0.5, 40.0) == 0.25        # 10 s of quiet work took 40 s
    assert e.share_from(0.5, 5.0) == 1.0          # faster than quiet: a whole CPU
    assert Estimate(10.0).share_from(0.5, 40.0) == 1.0   # no rounds: nothing to tell


def test_the_first_round_corrects_the_expected_time(tmp_path):
    """The probe at the start read a whole CPU; the first round of a size with half the
    run's points took 4x its quiet time: the run now expects (10 + 6 x 20) / 0.25 s, and
    says so once."""
    import io

    from rich.console import Console

    from cipherbench.scenarios.primitive.interleaved import _expect_again
    from cipherbench.scenarios.recording import Recording
    from cipherbench.store import Store
    est = Estimate(10.0, 20.0, rounds=6)
    buf = io.StringIO()
    con = Console(file=buf, width=200)
    with Store.open(tmp_path / "r.sqlite") as store, \
            Recording(store, "run", {}, {}, console=con, progress="lines", unit="points",
                      total=4, estimate_s=est, share=lambda: 1.0) as rec:
        assert rec.progress.expected_s == 130.0
        _expect_again(rec, 0.5, 40.0)
        assert rec.progress.expected_s == 520.0
    assert ("cipherbench: run: the first round got 25% of a CPU: about 8 min 40 s in all"
            in buf.getvalue())
