# SPDX-License-Identifier: GPL-3.0-or-later
"""The estimator for one-sided noise, the clock's trust rule and the headline-against-slope
check, on synthetic samples with injected noise (nothing is timed)."""
import random

import pytest

from cipherbench.analysis import clock, stats
from cipherbench.analysis.fit import Fit, check_headline, fit_sizes, implied_clock_hz

TRUE_NS = 100_000.0


def noisy_point(rng, n=200, slowed=0.5, preempted=0.1, true=TRUE_NS):
    """Samples of a ``true``-ns sample: small two-sided jitter; a share ``slowed`` made slower
    while keeping the CPU (a busy sibling, cache thrash); a share ``preempted`` that lost the
    CPU for 1-4 ms (wall time grows, CPU time does not)."""
    wall, cpu, lost = [], [], []
    for i in range(n):
        w = true * (1 + rng.uniform(-0.002, 0.002))
        if rng.random() < slowed:
            w += rng.expovariate(1 / (0.3 * true))
        c = w + 300
        if rng.random() < preempted:
            w += rng.uniform(1e6, 4e6)
            lost.append(i)
        wall.append(w)
        cpu.append(c)
    return wall, cpu, lost


def test_lost_cpu_finds_exactly_the_preempted_samples():
    wall, cpu, lost = noisy_point(random.Random(1))
    f = stats.lost_cpu(wall, cpu)
    assert f.applied and list(f.dropped) == lost and f.n_dropped == len(lost) > 0
    assert len(f.kept) + f.n_dropped == len(wall)


def test_lost_cpu_keeps_everything_when_it_cannot_judge():
    assert not stats.lost_cpu([1.0, 2.0], None).applied
    f = stats.lost_cpu([10.0, 20.0], [0.0, 0.0])     # a CPU clock that never moved
    assert not f.applied and f.kept == (0, 1)


def test_robust_figure_stays_on_the_truth_where_the_median_does_not():
    rng = random.Random(2)
    wall, cpu, _ = noisy_point(rng, slowed=0.7)
    r = stats.robust_point(wall, cpu, iters=1, best_of=8)
    assert abs(r.figure / TRUE_NS - 1) < 0.005
    assert stats.median(wall) > TRUE_NS * 1.05          # the noise was really there
    assert r.ci_low <= r.figure <= r.ci_high and r.rel_half_width < 0.01
    assert r.n_dropped > 0 and r.n_groups == 25 and r.spread > 0.02


def test_robust_run_to_run_spread_is_far_below_the_medians():
    rng = random.Random(3)
    figs, meds = [], []
    for _ in range(30):
        load = rng.choice([0.1, 0.5, 0.8])              # each run under another load
        wall, cpu, _ = noisy_point(rng, slowed=load, preempted=load / 4)
        figs.append(stats.robust_point(wall, cpu).figure)
        meds.append(stats.median(wall))
    assert stats.cv(figs) < 0.01 < stats.cv(meds)


def test_robust_point_uses_per_operation_units_and_smaller_groups_when_few():
    r = stats.robust_point([1000.0 * (1 + i % 3) for i in range(12)], None, iters=10)
    assert r.best_of == 2 and r.n_groups == 6 and r.figure == 100.0


def test_best_of_groups_skips_samples_not_kept():
    assert stats.best_of_groups([5, 1, 7, 3, 9], 2) == [1, 3, 9]
    assert stats.best_of_groups([5, 1, 7, 3], 2, [True, False, False, False]) == [5]
    with pytest.raises(ValueError):
        stats.best_of_groups([1], 0)


def test_robust_summary_drives_until_stable():
    rng = random.Random(4)

    def sample(n):
        return noisy_point(rng, n=n, preempted=0)[0]

    ticks = iter(range(1000))
    st = stats.until_stable(sample, precision=0.01, budget_s=100, min_samples=48,
                            clock=lambda: next(ticks) * 0.001, estimator=stats.robust_summary)
    assert st.stable and abs(st.summary.median / TRUE_NS - 1) < 0.01
    assert st.summary.n >= stats.MIN_GROUPS


# --- the clock -------------------------------------------------------------------------

def probes(rng, n=64, ghz=3.7, cycles=180_000, preempted=0.1, slowed=0.3):
    wall, cpu = [], []
    for _ in range(n):
        w = cycles / ghz * (1 + rng.uniform(0, 0.001))
        if rng.random() < slowed:
            w *= 1 + rng.expovariate(1 / 0.2)
        c = w + 500
        if rng.random() < preempted:
            w += 2e6
        wall.append(round(w))
        cpu.append(round(c))
    return {"freq_cycles": cycles, "freq_wall_ns": wall, "freq_cpu_ns": cpu}


def test_clock_estimate_survives_interference():
    rec = probes(random.Random(5))
    e = clock.record_estimate(rec)
    assert e.freq_hz == pytest.approx(3.7e9, rel=0.005)
    assert e.n == 64 and e.n_kept < 64 and e.spread < 0.01
    t = clock.trust([e])
    assert t.trusted and clock.cycles_per_byte(0.25, t)[0] == pytest.approx(0.925, rel=0.01)


def test_clock_withheld_when_the_fastest_probes_spread_or_too_few_kept_the_cpu():
    rng = random.Random(6)
    few = clock.record_estimate(probes(rng, n=8, slowed=1.0))   # few probes, every one slowed
    t = clock.trust([few])
    assert not t.trusted and "spread" in t.reason
    cpb, why = clock.cycles_per_byte(0.25, t)
    assert cpb is None and why == t.reason
    gone = clock.record_estimate(probes(rng, preempted=0.97, n=64))
    t = clock.trust([gone])
    assert not t.trusted
    assert f"only {gone.n_kept} of the run's 64 clock probes ran without losing" in t.reason


def test_a_busy_run_reads_its_clock_from_the_fastest_probes_of_all_its_records():
    """Load 4 on 2 cores: every point record carries two probes, most slowed or preempted;
    pooled over the run, the fastest that kept the CPU still give the clock (bench-slope's
    auto mode), where one record alone could not."""
    rng = random.Random(9)
    recs = [clock.record_estimate(probes(rng, n=2, slowed=0.7, preempted=0.3))
            for _ in range(200)]
    t = clock.trust(recs)
    assert t.trusted and t.freq_hz == pytest.approx(3.7e9, rel=0.005)
    assert not clock.trust(recs[:1]).trusted
    assert "took only 2 clock probes" in clock.trust(recs[:1]).reason


def test_clock_withheld_when_it_moved_during_the_run():
    rng = random.Random(7)
    a = clock.record_estimate(probes(rng, ghz=3.7))
    b = clock.record_estimate(probes(rng, ghz=2.2))
    t = clock.trust([a, b])
    assert not t.trusted and "2.20 GHz" in t.reason and "3.70 GHz" in t.reason


def test_older_records_without_probes_still_give_a_clock():
    t = clock.trust([clock.record_estimate({"freq_hz": 3.0e9}),
                     clock.record_estimate({"freq_hz": 3.01e9})])
    assert t.trusted and t.freq_hz == pytest.approx(3.005e9)
    t = clock.trust([clock.record_estimate({"freq_hz": None})])
    assert not t.trusted and t.reason == "the core could not measure its clock"


# --- the headline against the slope -------------------------------------------------------

def test_headline_faster_than_one_over_slope_is_flagged():
    f = fit_sizes({1024: 0.25 * 1024 + 400, 16384: 0.25 * 16384 + 400, 65536: 0.25 * 65536 + 400})
    assert f.max_rate() == pytest.approx(4e9)
    assert check_headline(f, 16384, 0.25 * 16384 + 400) is None
    # The headline says 8 GB/s at 16 KiB, twice what the slope allows.
    why = check_headline(f, 16384, 16384 / 8.0)
    assert why and "exceeds 1/slope" in why
    # 20% slower than the line: measured under other conditions.
    why = check_headline(f, 16384, (0.25 * 16384 + 400) * 1.2)
    assert why and "+20% off the fitted line" in why


def test_implied_clock_of_cycles_per_byte_and_throughput():
    assert implied_clock_hz(1.0, 3.7e9) == 3.7e9
    assert Fit(0.0, 1.0, 1.0, (1024, 2048)).max_rate() is None


def test_best_point_holds_when_the_load_outlasts_the_groups():
    """Load that lasts longer than a group (a busy sibling for most of the point): the
    median of group minima moves with it, the fastest kept sample does not."""
    rng = random.Random(8)
    wall, cpu, _ = noisy_point(rng, n=200, slowed=0.0, preempted=0.05)
    for i in range(40, 180):                      # 70% of the point run 20% slower
        wall[i] *= 1.2
        cpu[i] *= 1.2
    b = stats.best_point(wall, cpu, iters=4)
    assert abs(b.figure * 4 / TRUE_NS - 1) < 0.005
    assert b.n_dropped > 0 and b.n_kept + b.n_dropped == 200
    assert stats.robust_point(wall, cpu, 4, best_of=8).figure * 4 > TRUE_NS * 1.1
    # Per-round bests of interleaved rounds: the median and its interval over the rounds.
    per_round = [stats.best_point(*noisy_point(rng, n=100)[:2]).figure for _ in range(8)]
    r = stats.robust(per_round, best_of=1)
    assert r.n_groups == 8 and r.ci_low <= r.figure <= r.ci_high
    assert abs(r.figure / TRUE_NS - 1) < 0.005
    with pytest.raises(ValueError):
        stats.best_point([], None)


def test_best_of_rounds_keeps_the_undisturbed_round_and_says_how_far_the_rest_were():
    rounds = [130.0, 100.2, 125.0, 100.0, 160.0, 128.0]
    r = stats.best_of_rounds(rounds)
    assert (r.figure, r.ci_low, r.ci_high, r.n_groups) == (100.0, 100.0, 100.2, 6)
    assert r.spread == pytest.approx(0.265)
    assert stats.best_of_rounds([5.0]).ci_high == 5.0
    with pytest.raises(ValueError):
        stats.best_of_rounds([])
