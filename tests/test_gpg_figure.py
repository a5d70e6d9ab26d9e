# SPDX-License-Identifier: GPL-3.0-or-later
"""The robust figure of whole gpg calls under one-sided noise (scenarios.gpg.figure), and that
the stored rows, the paired verdicts and the table title use it."""
from __future__ import annotations

import random

import pytest

from cipherbench.analysis import stats
from cipherbench.analysis import verdict as V
from cipherbench.scenarios.gpg import figure as F
from cipherbench.scenarios.gpg import tables
from cipherbench.store import Result


def _noisy_calls(cpu_s: float, n: int, seed: int, lost: float = 0.4):
    """``n`` calls of ``cpu_s`` CPU seconds (1% jitter, share 0.97 when alone); a share
    ``lost`` of them waited for the CPU (wall stretched 1.5-4x, a little CPU added by cold
    caches): noise that only ever adds time."""
    rng = random.Random(seed)
    walls, cpus = [], []
    for _ in range(n):
        c = cpu_s * (1 + rng.uniform(0, 0.01))
        w = c / 0.97
        if rng.random() < lost:
            w *= rng.uniform(1.5, 4.0)
            c *= 1 + rng.uniform(0, 0.03)
        walls.append(w)
        cpus.append(c)
    return walls, cpus


def test_calls_that_lost_the_cpu_are_left_out_and_counted():
    walls = [1.0, 1.0, 1.0, 3.0, 1.0, 1.0, 2.0, 1.0]
    cpus = [0.97, 0.96, 0.97, 0.99, 0.97, 0.96, 0.98, 0.97]
    f = F.lost_cpu(walls, cpus)
    assert f.dropped == (3, 6) and f.applied
    fig = F.call_figure(walls, cpus)
    assert fig.kind == F.CPU and fig.dropped == (3, 6)
    assert fig.wall_s == pytest.approx(1.0)
    assert fig.robust.n_kept == 6 and fig.robust.figure == pytest.approx(0.96)
    assert fig.robust.n == 8 and fig.robust.n_dropped == 2


def test_no_cpu_times_or_every_call_slowed_keeps_every_call():
    assert F.lost_cpu([1.0, 2.0], None).dropped == ()
    # every call got a third of a CPU: none stands out, none is left out
    f = F.lost_cpu([3.0] * 6, [1.0, 1.01, 0.99, 1.0, 1.0, 1.02])
    assert f.dropped == ()
    fig = F.call_figure([1.0, 1.2, 1.1, 1.05, 1.3, 1.0], None)   # the fastest, to the next
    assert fig.kind == F.WALL and fig.robust.figure == pytest.approx(1.0)
    assert (fig.robust.ci_low, fig.robust.ci_high) == (1.0, 1.0)


def test_one_sided_noise_moves_the_figure_little_and_the_median_wall_a_lot():
    """Ten runs of twelve calls each, 40% of them slowed: the CPU figure stays within 1% run
    to run, the median call's wall time (the figure before) does not."""
    figs, medians = [], []
    for seed in range(10):
        walls, cpus = _noisy_calls(0.2, 12, seed)
        fig = F.call_figure(walls, cpus)
        assert fig.dropped, "slowed calls were recognised"
        assert fig.robust.ci_low <= fig.robust.figure <= fig.robust.ci_high
        figs.append(fig.robust.figure)
        medians.append(stats.median(walls))
    assert stats.cv(figs) < 0.01
    assert stats.cv(medians) > 0.05
    assert all(0.2 <= f <= 0.2 * 1.02 for f in figs)


def test_paired_ratio_uses_the_cpu_time_of_every_round():
    """B costs 1.25x A; 40% of the calls lose the CPU: every round still pairs (on CPU
    time), and the paired verdict finds B slower by the true factor."""
    wa, ca = _noisy_calls(0.2, 12, 1)
    wb, cb = _noisy_calls(0.25, 12, 2)
    at = list(range(12))
    ra, rb = F.per_round(at, wa, ca), F.per_round(at, wb, cb)
    assert len(ra) == len(rb) == 12
    v = V.verdict([ra[i] for i in at], [rb[i] for i in at])
    assert v.ratio == pytest.approx(0.8, rel=0.03) and v.state == V.SLOWER
    walls = V.verdict(wa, wb)     # the wall times of the same calls cannot tell
    assert walls.state != V.SLOWER


def _row(algo, walls, cpus, default="AES"):
    mib = 1 << 20
    fig = F.call_figure(walls, cpus)
    extra = {"figure": fig.kind, "samples_s": walls, "rounds_at": list(range(len(walls))),
             "rounds": len(walls), "default_cipher": default}
    if cpus is not None:
        extra.update({"cpu_samples_s": cpus, "lost_cpu_at": list(fig.dropped)})
    return Result("gpg", "gnupg", algo, "encrypt", 32 * mib, "bytes_per_s", "B/s",
                  32 * mib / fig.robust.figure, extra=extra)


def test_stored_rows_pair_again_on_cpu_time_and_say_so():
    wa, ca = _noisy_calls(0.2, 12, 5, lost=0.2)
    wb, cb = _noisy_calls(0.25, 12, 6, lost=0.2)
    rows = [_row("AES", wa, ca), _row("TWOFISH", wb, cb)]
    v = tables.versus_default(rows)[("gnupg", "TWOFISH", "encrypt")]
    assert v.ratio == pytest.approx(0.8, rel=0.03) and v.state == V.SLOWER
    assert tables.figure_kind(rows) == F.CPU
    gone, n = tables.calls_left_out(rows)
    assert n == 24 and gone == sum(len(r.extra["lost_cpu_at"]) for r in rows) > 0
    assert "CPU time" in tables.figure_note(rows) and f"{gone} of 24" in tables.figure_note(rows)
    old = [_row("AES", wa, None), _row("TWOFISH", wb, None)]
    assert tables.figure_kind(old) == F.WALL
    assert tables.figure_note(old) == "median call, wall time"
