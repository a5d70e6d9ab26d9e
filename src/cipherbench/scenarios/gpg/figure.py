# SPDX-License-Identifier: GPL-3.0-or-later
"""The figure of a whole gpg (or age) call under one-sided noise. Pure: numbers in, numbers out.

A call is one program run; the kernel gives its wall time and its own CPU time (user + system,
from wait4). Another process on the machine stretches the wall time of a call that has to
wait for a CPU, and barely touches the CPU time the call itself used. So:

- a call that *lost the CPU* is one whose CPU share (CPU / wall) is well below that of the
  other calls of the same slot (below ``REL_SHARE`` of their upper quartile): it is left out,
  counted and stored. A whole call never reaches a share of 1 (process start, pipes), so the
  bar is relative to what the calls of that slot reached, not the core's fixed 0.95;
- the figure of a slot is the CPU time of its fastest kept call, as the primitives' cells are
  the best of their rounds (``stats.best_of_rounds``): the interval runs to the second
  fastest, the spread to the median kept call; the median wall time of the kept calls is
  kept beside it. (The median of the best of pairs of calls moved 2-5% from run to run on
  the shared machine of docs/performance.md, the fastest kept call 1-3%.)
- the paired per-round ratio uses the same per-call figure, the CPU time of a round's call,
  in every round: a call that lost the CPU barely used more of it (its CPU time was 0-6%
  above the kept calls' there), and the median of the ratios sets such rounds aside, while
  leaving out every round where either call lost the CPU left fewer rounds than a verdict
  needs in every loaded run there.

Older stored rows without CPU times fall back on their wall times (nothing left out). What is
not gpg's own (the kinds, ``lost_cpu``, ``per_round``) lives in
``cipherbench.analysis.cpu_figure``, shared with ssh, and is named here too.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Sequence

from cipherbench.analysis import stats
from cipherbench.analysis.cpu_figure import (CPU, REL_SHARE, WALL, cpu_times, lost_cpu,
                                             per_round)

__all__ = ["CPU", "REL_SHARE", "WALL", "CallFigure", "call_figure", "lost_cpu", "per_round"]


@dataclass(frozen=True)
class CallFigure:
    """The figure of one slot's calls: ``robust`` over the per-call ``kind`` seconds (CPU
    time, or wall time for rows without CPU times), the calls left out (indexes), and the
    median wall time of the kept calls."""

    robust: stats.Robust
    kind: str
    dropped: tuple[int, ...]
    wall_s: float


def call_figure(walls: Sequence[float], cpus: Sequence[float] | None,
                rel_share: float = REL_SHARE) -> CallFigure:
    """The robust figure of one slot's calls (see the module)."""
    if not walls:
        raise ValueError("figure of no calls")
    times = cpu_times(walls, cpus)
    f = lost_cpu(walls, times, rel_share)
    xs = times if times is not None else list(walls)
    best = stats.best_of_rounds([xs[i] for i in f.kept])
    r = dataclasses.replace(best, n=len(xs), dropped=f.dropped)
    wall = stats.median([walls[i] for i in f.kept])
    return CallFigure(r, CPU if times is not None else WALL, f.dropped, wall)
