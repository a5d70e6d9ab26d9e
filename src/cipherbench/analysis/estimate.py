# SPDX-License-Identifier: GPL-3.0-or-later
"""How long a run will take, given the share of a CPU it gets. Pure: numbers in, seconds out.

A run is work done whatever the load (setup, checks, the first batches) and rounds that a
wall-clock budget may end early. Under load every second of work takes ``1 / share``
seconds, but the budget is wall time: once the rounds' budget is spent no new round starts,
so a busy machine runs *fewer* rounds, never fewer than ``min_rounds`` (a verdict's). Dividing
a quiet estimate by the share, as if the budget stretched too, overstates a budgeted run
several times at a share of 20%, and understates a run whose rounds are never cut.

The share a run gets is read twice. Before it starts, a short probe of the share a busy
thread gets and the load average's fair share (``expected_share``). As it goes, the work done (its quiet
seconds, ``done_s``) over the wall time it took is the share the run really got, its own
processes, wake-ups and the model's errors together (``share_from``), and ``at`` of that share
is the whole run's expected time again (``left_s``: what is left of it), so the time left
follows real progress and is never frozen on the first guess.

Public API: ``Estimate`` (its ``at(share)``, ``quiet_s``, ``rounds_at``, ``work_s``,
``done_s``, ``share_from`` and ``left_s``); ``expected_share(probe, loadavg, cpus)``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

#: The smallest CPU share an estimate is scaled by (a probe can read nearly 0 on a stall).
MIN_SHARE = 0.05


@dataclass(frozen=True)
class Estimate:
    """``fixed_s``: seconds of work outside the rounds on a quiet machine; ``per_round_s``:
    one round's seconds on a quiet machine; ``rounds``: the rounds expected there;
    ``budget_s``: wall seconds after which no new round starts (None: no budget);
    ``min_rounds``: rounds the budget never cuts below; ``wall_s``: seconds a budget of wall
    time spends whatever the load (extra samples until a point's budget is spent);
    ``start_s``: seconds of work done once before the first round (processes started, known
    answers checked), apart from ``fixed_s``, which is spread over the run."""

    fixed_s: float
    per_round_s: float = 0.0
    rounds: int = 0
    budget_s: float | None = None
    min_rounds: int = 0
    wall_s: float = 0.0
    start_s: float = 0.0

    def rounds_at(self, share: float) -> int:
        """Rounds expected at ``share``: those planned, or as many as the budget lets start
        (a round that starts before it is spent runs to its end), never fewer than
        ``min_rounds``."""
        if self.budget_s is None or self.per_round_s <= 0:
            return self.rounds
        round_s = self.per_round_s / max(MIN_SHARE, share)
        fit = math.ceil(self.budget_s / round_s - 1e-9)
        return min(self.rounds, max(self.min_rounds, fit))

    def at(self, share: float) -> float:
        """Seconds the run should take when it gets ``share`` of a CPU (1: a quiet machine)."""
        s = _clamp(share)
        return self.work_s(s) / s + self.wall_s

    def work_s(self, share: float) -> float:
        """Quiet seconds of the work the run does at ``share`` (its budgets' rounds cut)."""
        return self.start_s + self.fixed_s + self.per_round_s * self.rounds_at(share)

    @property
    def quiet_s(self) -> float:
        return self.at(1.0)

    def done_s(self, fixed_part: float, rounds: float) -> float:
        """Quiet seconds of the work done once the start's work, ``fixed_part`` (0 to 1) of
        the fixed work and ``rounds`` rounds' worth (a fraction when a round measured only
        some of the run's points) have been done."""
        return self.start_s + self.fixed_s * min(1.0, fixed_part) + self.per_round_s * rounds

    def share_from(self, done_s: float, real_s: float) -> float:
        """The CPU share the run got: ``done_s`` quiet seconds of its work took ``real_s``.
        A probe at the start reads what a short burst gets; this is what the run's own
        processes got, their waits for a CPU included (1.0 when nothing can be told)."""
        if real_s <= 0 or done_s <= 0:
            return 1.0
        return _clamp(done_s / real_s)

    def left_s(self, done_s: float, elapsed_s: float) -> float:
        """Seconds left at the pace of the run so far: ``done_s`` quiet seconds of work took
        ``elapsed_s``, so the rest of the work (at that pace the budgets cut its rounds)
        takes as long per quiet second, and the wall-time budgets not yet spent come on top.
        A pace faster than the quiet estimate is kept too (the model can overstate a
        machine's work). 0 once the work expected is done."""
        if done_s <= 0 or elapsed_s <= 0:
            return self.at(1.0)
        speed = max(MIN_SHARE, done_s / elapsed_s)
        work = self.work_s(speed)
        if work <= 0:
            return 0.0
        left = max(0.0, work - done_s)
        return left / speed + self.wall_s * left / work


def expected_share(probe: float, loadavg: float | None, cpus: int) -> float:
    """The share of a CPU a run starting now should expect: the geometric mean of what a
    probe got in its instant (``probe``) and of the fair share of the last minute's load
    (the ``cpus`` shared among the load average's runnable tasks and the run's own). On a
    busy machine the instant swings both ways: at load 7-12 a 0.2 s probe read 12-54% of a
    CPU where the runs that followed got 22-36%; the minute's mean holds steadier, but
    counts a compiler's parallel jobs, which share one session's part, each as a rival."""
    if loadavg is None or cpus < 1:
        return _clamp(probe)
    fair = min(1.0, cpus / (loadavg + 1.0))
    return _clamp(math.sqrt(_clamp(probe) * max(MIN_SHARE, fair)))


def _clamp(share: float) -> float:
    return min(1.0, max(MIN_SHARE, share))
