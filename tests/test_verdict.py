# SPDX-License-Identifier: GPL-3.0-or-later
"""Three-state verdicts from paired rounds, on synthetic rounds whose load changes from round
to round (nothing is timed)."""
import math
import random

import pytest

from cipherbench.analysis import verdict as V


def rounds(rng, n, speed_b_over_a=1.0, load_swing=0.3, jitter=0.005):
    """Per-round times of A and B: each round has its own load factor (up to +load_swing),
    shared by both members, plus a little independent jitter."""
    a, b = [], []
    for _ in range(n):
        load = 1 + rng.uniform(0, load_swing)
        a.append(100.0 * load * (1 + rng.gauss(0, jitter)))
        b.append(100.0 / speed_b_over_a * load * (1 + rng.gauss(0, jitter)))
    return a, b


def test_round_ratios_are_speed_ratios():
    assert V.round_ratios([2.0, 4.0], [1.0, 2.0]) == [2.0, 2.0]              # times
    assert V.round_ratios([2.0, 4.0], [1.0, 2.0], higher_is_better=True) == [0.5, 0.5]
    assert V.round_ratios([0.0, 4.0], [1.0, 2.0]) == [2.0]
    with pytest.raises(ValueError):
        V.round_ratios([1.0], [1.0, 2.0])


def test_a_real_ten_percent_difference_is_found_every_time_despite_the_load():
    rng = random.Random(1)
    states = [V.verdict(*rounds(rng, 12, 1.10)).state for _ in range(200)]
    assert states.count(V.FASTER) == 200
    states = [V.verdict(*rounds(rng, 12, 1 / 1.10)).state for _ in range(200)]
    assert states.count(V.SLOWER) == 200


def test_a_against_itself_is_cannot_tell_in_at_least_19_of_20():
    rng = random.Random(2)
    states = [V.verdict(*rounds(rng, 12, 1.0, jitter=0.02)).state for _ in range(400)]
    assert states.count(V.FASTER) <= 400 / 20 and states.count(V.SLOWER) <= 400 / 20
    assert states.count(V.CANNOT_TELL) >= 0.9 * 400


def test_separate_figures_would_have_been_fooled_where_pairs_are_not():
    """The point of pairing: the same 3% difference under a 30% load swing; the paired
    ratio's interval is narrow, the ratio of two medians taken apart is not."""
    rng = random.Random(3)
    a, b = rounds(rng, 20, 1.03, load_swing=0.3, jitter=0.002)
    p = V.paired_ratio(a, b)
    assert p.low > 1.01 and p.high < 1.05
    assert V.judge(p).state == V.FASTER
    spread_apart = (max(a) / min(a))
    assert spread_apart > 1.1


def test_too_few_rounds_is_no_verdict_with_the_reason():
    v = V.verdict([100.0, 101, 99], [50.0, 51, 49])
    assert v.state == V.CANNOT_TELL and not v.decided
    assert v.text() == "cannot tell: 3 rounds, a verdict needs 6"


def test_cannot_tell_says_within_how_much():
    rng = random.Random(4)
    v = V.verdict(*rounds(rng, 8, 1.0, jitter=0.02))
    assert v.state == V.CANNOT_TELL and v.within >= V.DEFAULT_MARGIN
    n = math.ceil(v.within * 100 - 1e-9)
    assert v.text() == f"cannot tell here (within {n}%)"
    assert v.low <= 1 <= v.high or v.within == pytest.approx(V.DEFAULT_MARGIN)


def test_a_difference_inside_the_margin_is_not_called():
    a = [100.0] * 10
    b = [99.5] * 10                   # 0.5% faster, measured exactly
    v = V.verdict(a, b)
    assert v.state == V.CANNOT_TELL and v.within == pytest.approx(V.DEFAULT_MARGIN)
    assert V.verdict(a, b, margin=0.001).state == V.FASTER
    assert V.verdict(a, b, margin=0.001).text().startswith("faster (1.01x, 95% CI")


def test_scaling_above_one_is_flagged_not_shown_as_a_fact():
    single = [1.0e9] * 8
    multi = [3.48e9] * 8             # 2 threads, 3.48x: efficiency 1.74
    s = V.scaling(single, multi, 2)
    assert s.efficiency == pytest.approx(1.74) and s.flag and "above 1" in s.flag
    ok = V.scaling(single, [1.9e9] * 8, 2)
    assert ok.efficiency == pytest.approx(0.95) and ok.flag is None
    assert "rounds" in V.scaling([1.0], [1.9], 2).flag
