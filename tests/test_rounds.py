# SPDX-License-Identifier: GPL-3.0-or-later
"""The interleaved-rounds scheduler: every candidate once per round, a fresh random order per
round, reproducible from the seed, paired ratios per round; and the order the fake core is
actually asked in."""
from __future__ import annotations

import random

import pytest

from cipherbench.cores.core_client import Core, per_op_ns
from cipherbench.scenarios.rounds import paired_ratios, rounds, samples_of
from conftest import FAKE_CORE


def test_every_candidate_once_per_round_in_a_new_order():
    seen: list[tuple[str, int]] = []

    def measure(c: str, i: int) -> float:
        seen.append((c, i))
        return 1.0

    done = rounds(list("abcd"), measure, 30, random.Random(1))
    assert len(done) == 30
    for r in done:
        assert sorted(r.order) == list("abcd") and set(r.samples) == set("abcd")
        assert [c for c, i in seen if i == r.index] == r.order
    orders = {tuple(r.order) for r in done}
    assert len(orders) > 5                     # not one fixed order
    firsts = {r.order[0] for r in done}
    assert firsts == set("abcd")              # nobody is always first


def test_the_seed_makes_the_plan_reproducible():
    def plan(seed):
        return [r.order for r in rounds([1, 2, 3], lambda c, i: c, 5, random.Random(seed))]

    assert plan(7) == plan(7)
    assert plan(7) != plan(8)


def test_a_failing_candidate_leaves_the_later_rounds():
    def measure(c, i):
        return None if (c == "b" and i == 1) else 1.0

    done = rounds(["a", "b", "c"], measure, 4, random.Random(0))
    assert "b" in done[0].samples and "b" not in done[1].samples
    assert all("b" not in r.order for r in done[2:])


def test_enough_stops_after_the_minimum():
    calls = []
    done = rounds(["a", "b"], lambda c, i: 1.0, 50, random.Random(0),
                  enough=lambda rs: calls.append(len(rs)) or len(rs) >= 2, min_rounds=4)
    assert len(done) == 4 and calls == [4]


def test_bad_arguments():
    with pytest.raises(ValueError):
        rounds(["a"], lambda c, i: 1.0, 0, random.Random(0))
    with pytest.raises(ValueError):
        rounds(["a", "a"], lambda c, i: 1.0, 1, random.Random(0))


def test_paired_ratios_use_the_same_round():
    # a slow round (x3 for everyone) cancels out of the paired ratio
    factor = {0: 1.0, 1: 3.0, 2: 1.0}
    done = rounds(["fast", "slow"], lambda c, i: (1.0 if c == "fast" else 2.0) * factor[i],
                  3, random.Random(0))
    assert paired_ratios(done, "slow", "fast") == [2.0, 2.0, 2.0]
    assert samples_of(done, "slow") == [2.0, 6.0, 2.0]


def test_rounds_against_the_fake_core(tmp_path):
    """Each round asks the core for one point of every (library, algorithm) in the round's
    order; the core log shows that order."""
    log = tmp_path / "core.log"
    core = Core(FAKE_CORE, {"FAKE_CORE_LOG": str(log), "PATH": "/usr/bin:/bin"})
    cands = [("openssl", "aes-128-gcm"), ("libgcrypt", "aes-128-gcm"),
             ("nettle", "aes-128-gcm")]

    def measure(c, i):  # noqa: ARG001
        lib, algo = c
        with core.bench(lib, [algo], "encrypt", [16384], samples=3) as s:
            pts = [per_op_ns(r) for r in s if r.type == "point"]
        return min(pts[0]) if pts else None

    done = rounds(cands, measure, 4, random.Random(3))
    asked = [l.split() for l in log.read_text().splitlines() if l.startswith("bench")]
    libs = [a[a.index("--lib") + 1] for a in asked]
    assert libs == [lib for r in done for lib, _ in r.order]
    assert len(paired_ratios(done, cands[0], cands[1])) == 4


# --- adaptive rounds: sequential stopping without peeking ---------------------------------

def test_sequential_looks_share_the_error_rate():
    from cipherbench.scenarios.rounds import Sequential
    seq = Sequential()
    assert seq.looks == (8, 12, 16) and seq.max_rounds == 16
    assert seq.confidence == pytest.approx(1 - 0.05 / 3)
    assert [n for n in range(1, 17) if seq.at_look(n)] == [8, 12, 16]
    with pytest.raises(ValueError):
        Sequential(looks=(12, 8))


def test_a_clear_difference_is_decided_at_the_first_look_a_close_one_is_not():
    import random as rnd

    from cipherbench.scenarios.rounds import Sequential, decided
    conf = Sequential().confidence
    rng = rnd.Random(3)
    clear = [1.5 * (1 + rng.gauss(0, 0.02)) for _ in range(8)]
    assert decided(clear, conf, margin=0.01, tie=0.02)
    close = [1.02 * (1 + rng.gauss(0, 0.03)) for _ in range(8)]
    assert not decided(close, conf, margin=0.01, tie=0.02)
    same = [1 + rng.uniform(-0.005, 0.005) for _ in range(8)]
    assert decided(same, conf, margin=0.01, tie=0.02)      # equal within 2%: an answer


def test_sequential_stopping_keeps_false_calls_rare_where_peeking_does_not():
    """A/A: two candidates that do not differ, noise 3% a round. Judging after every round
    from the 6th on at 95% ("peeking") calls one faster far more often than the planned looks
    at their shared confidence do; the looks stay near the 5% they promise."""
    import random as rnd

    from cipherbench.scenarios.rounds import Sequential, decided
    from cipherbench.analysis import verdict as V
    seq = Sequential()
    rng = rnd.Random(11)
    peek_false = look_false = 0
    trials = 400
    for _ in range(trials):
        ratios = [1 + rng.gauss(0, 0.03) for _ in range(seq.max_rounds)]
        if any(V.judge(V.paired_ratio([1.0] * n, ratios[:n]), 0.0).decided
               for n in range(6, seq.max_rounds + 1)):
            peek_false += 1
        for n in seq.looks:
            lo_hi_called = decided(ratios[:n], seq.confidence, margin=0.0, tie=0.0)
            if lo_hi_called:
                look_false += 1
                break
    assert look_false / trials <= 0.06
    assert peek_false > 2 * look_false


# --- the one planned-look rule of run, tls, gpg and ssh -------------------------------------

def test_within_keeps_the_default_looks_below_the_maximum():
    from cipherbench.scenarios.rounds import Sequential
    assert Sequential.within(12).looks == (8, 12)
    assert Sequential.within(16).looks == (8, 12, 16)
    assert Sequential.within(6).looks == (6,)
    assert Sequential.within(12).confidence == pytest.approx(1 - 0.05 / 2)


def _stop_rounds(ratio: float, noise: float, max_rounds: int = 12, budget_s=None,
                 seconds_a_round: float = 0.0) -> tuple[int, str]:
    """Rounds of two candidates, B ``ratio`` times A's time with ``noise`` a round, under
    ``PlannedStop`` and the paired-ratio test every command uses (``settled``)."""
    from cipherbench.scenarios.rounds import PlannedStop, Sequential, settled
    rng = random.Random(5)
    t = {"now": 0.0}
    seq = Sequential.within(max_rounds)

    def measure(c, i):
        t["now"] += seconds_a_round / 2
        return (ratio if c == "b" else 1.0) * (1 + rng.gauss(0, noise))

    def answered(done):
        return settled(samples_of(done, "b"), paired_ratios(done, "b", "a"), seq, 0.0001,
                       is_reference=False)

    stop = PlannedStop(seq, answered, budget_s=budget_s, clock=lambda: t["now"])
    done = rounds(["a", "b"], measure, max_rounds, random.Random(1), enough=stop)
    return len(done), stop.by


def test_a_decided_comparison_stops_at_the_first_look_never_before():
    assert _stop_rounds(1.3, 0.02) == (8, "decided")       # not at 6 or 7: no peeking


def test_an_undecided_comparison_runs_to_the_last_look():
    assert _stop_rounds(1.004, 0.03) == (12, "rounds")


def test_the_budget_stops_on_time_but_not_before_a_verdict_has_its_rounds():
    assert _stop_rounds(1.004, 0.03, budget_s=0.5, seconds_a_round=1.0) == (6, "budget")


def test_a_stopped_rounds_loop_leaves_every_sample_it_took_in_the_callers_list():
    """A signal or a lost host raises out of ``measure_one``: the rounds finished and the
    samples of the round under way are in ``into``, for the caller to store."""
    class Stopped(Exception):
        pass

    taken: list[tuple[str, int]] = []

    def one(c: str, i: int) -> float:
        if i == 2 and len([t for t in taken if t[1] == 2]) == 1:
            raise Stopped
        taken.append((c, i))
        return 1.0

    into: list = []
    with pytest.raises(Stopped):
        rounds(["a", "b"], one, 6, random.Random(1), into=into)
    assert len(into) == 3 and all(len(r.samples) == 2 for r in into[:2])
    assert len(into[2].samples) == 1           # the round under way, as far as it got
    assert sum(len(samples_of(into, c)) for c in "ab") == len(taken) == 5
