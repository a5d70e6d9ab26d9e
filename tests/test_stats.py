# SPDX-License-Identifier: GPL-3.0-or-later
"""Statistics: pure functions checked on synthetic data; adaptive repetition with a fake
sampler and a fake clock (nothing is timed)."""
import math
import random

import pytest

from cipherbench.analysis import stats


def test_median_odd_even():
    assert stats.median([3, 1, 2]) == 2
    assert stats.median([4, 1, 3, 2]) == 2.5
    with pytest.raises(ValueError):
        stats.median([])


@pytest.mark.parametrize("n,expected", [(6, (0, 5)), (10, (1, 8)), (20, (5, 14)),
                                        (100, (39, 60))])
def test_median_ci_ranks_match_binomial_tables(n, expected):
    # Known order-statistic ranks for the 95% CI of the median (1-based r = lo + 1).
    assert stats.median_ci_ranks(n) == expected


def test_median_ci_ranks_have_95_percent_coverage():
    for n in range(6, 80):
        lo, _ = stats.median_ci_ranks(n)
        r = lo + 1
        cover = 1 - 2 * sum(math.comb(n, i) for i in range(r)) / 2 ** n
        assert cover >= 0.95
        # and the next narrower interval would not reach 95%
        cover_narrower = 1 - 2 * sum(math.comb(n, i) for i in range(r + 1)) / 2 ** n
        assert cover_narrower < 0.95


def test_small_samples_use_the_whole_range():
    assert stats.median_ci([5, 1, 3]) == (1, 5)


def test_ci_contains_true_median_about_95_percent_of_the_time():
    rng = random.Random(7)
    hits = 0
    trials = 400
    for _ in range(trials):
        xs = [rng.lognormvariate(0, 0.5) for _ in range(25)]
        lo, hi = stats.median_ci(xs)
        hits += lo <= 1.0 <= hi   # the lognormal(0, s) median is exp(0) = 1
    assert 0.92 <= hits / trials <= 0.995


def test_cv_and_stdev():
    assert stats.cv([10, 10, 10]) == 0
    assert stats.stdev([2, 4, 4, 4, 5, 5, 7, 9]) == pytest.approx(2.138, abs=1e-3)
    assert stats.cv([1, 3]) == pytest.approx(math.sqrt(2) / 2)


def test_outliers_marked_by_tukey_fences():
    xs = [10, 11, 10, 12, 11, 10, 50, 11]
    marks = stats.outliers(xs)
    assert marks == [x == 50 for x in xs]
    assert stats.summarize(xs).n_outliers == 1
    assert stats.outliers([1, 2, 100]) == [False] * 3  # too few to judge


class FakeClock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_until_stable_stops_at_precision():
    calls = []

    def sample(n):
        calls.append(n)
        return [100.0 + (i % 3) * 0.1 for i in range(n)]   # +-0.1%: precise at once

    st = stats.until_stable(sample, precision=0.01, budget_s=10, clock=FakeClock())
    assert st.stable and st.reason == "precision"
    assert calls == [6]
    assert st.summary.rel_half_width <= 0.01


def test_until_stable_keeps_asking_until_precise():
    rng = random.Random(1)
    clock = FakeClock()

    def sample(n):
        clock.t += 0.01 * n
        return [rng.gauss(100, 5) for _ in range(n)]   # CV 5%: needs many samples for 1%

    st = stats.until_stable(sample, precision=0.01, budget_s=1000, clock=clock)
    assert st.stable and st.reason == "precision"
    assert st.summary.half_width <= 0.01 * st.summary.median
    assert len(st.samples) > 30
    # batches grow with the count taken, so few calls
    assert st.rounds < 15
    # and it stopped as soon as it was precise: without the last batch it was not
    before = stats.summarize(st.samples[: len(st.samples) - st.requests[-1]])
    assert not stats.is_precise(before, 0.01)


def test_until_stable_stops_at_budget():
    clock = FakeClock()

    def sample(n):
        clock.t += 0.1
        return [100.0, 200.0] * (n // 2) + [100.0] * (n % 2)   # bimodal: never precise

    st = stats.until_stable(sample, precision=0.01, budget_s=1.0, clock=clock)
    assert not st.stable and st.reason == "budget"
    assert 0.95 <= st.elapsed_s <= 1.2


def test_until_stable_uses_initial_samples_and_elapsed():
    calls = []
    st = stats.until_stable(lambda n: calls.append(n) or [1.0] * n,
                            initial=[1.0, 2.0] * 5, precision=0.01, budget_s=0.5,
                            elapsed_s=0.6, clock=FakeClock())
    assert calls == [] and st.reason == "budget" and len(st.samples) == 10


def test_until_stable_max_samples():
    st = stats.until_stable(lambda n: [1.0, 3.0] * (n // 2) + [1.0] * (n % 2),
                            precision=0.001, budget_s=1e9, max_samples=40, clock=FakeClock())
    assert st.reason == "max_samples" and len(st.samples) == 40
