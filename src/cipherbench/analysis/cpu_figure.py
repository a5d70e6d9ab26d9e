# SPDX-License-Identifier: GPL-3.0-or-later
"""A process's own CPU time as the figure of a measurement disturbed by one-sided noise, for
every scenario that times whole processes (gpg calls, ssh transfers). Pure: numbers in, numbers
out.

The kernel gives each process its wall time and the CPU time it used itself. Another process
on the machine, or a transfer that waits on a pipe or a socket, stretches the wall time; the
CPU time the process used barely moves. So where every measurement of a slot has a CPU time,
that is the figure compared; where any lacks one (rows stored before CPU times were kept, a
far end without them), the wall time is, for the whole slot: a slot never mixes the two.

- ``CPU``, ``WALL``: what a figure is, as stored (``extra["figure"]``) and exported.
- ``has_cpu(walls, cpus)``: every measurement has a positive CPU time.
- ``per_round(at, walls, cpus) -> {round: figure}``: the CPU times of a slot's rounds, or its
  wall times when any CPU time is missing.
- ``lost_cpu(walls, cpus)``: the measurements that lost the CPU while they ran (their CPU share
  well below their slot's), for a figure taken from the best of them.
- ``common_rounds(a, b)``: the rounds two slots both measured, for a paired ratio.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from cipherbench.analysis import stats

#: A measurement whose CPU share is below this fraction of its slot's upper-quartile share lost
#: the CPU while it ran (waited for it: its wall time tells of the machine, not of the work).
REL_SHARE = 0.9
#: What a figure is, as stored in a row's ``extra["figure"]`` and in the export.
CPU = "cpu_s"
WALL = "wall_s"


def cpu_times(walls: Sequence[float], cpus: Sequence[float | None] | None
              ) -> list[float] | None:
    """The CPU times when each of the ``walls`` has a positive one beside it, else None."""
    if not cpus or len(cpus) != len(walls):
        return None
    known = [c for c in cpus if c is not None and c > 0]
    return known if len(known) == len(cpus) else None


def has_cpu(walls: Sequence[float], cpus: Sequence[float | None] | None) -> bool:
    """True when each of the ``walls`` has a positive CPU time beside it."""
    return cpu_times(walls, cpus) is not None


def kind(walls: Sequence[float], cpus: Sequence[float | None] | None) -> str:
    """``CPU`` when every measurement has a CPU time (``has_cpu``), else ``WALL``."""
    return CPU if has_cpu(walls, cpus) else WALL


def per_round(at: Sequence[int], walls: Sequence[float],
              cpus: Sequence[float | None] | None) -> dict[int, float]:
    """Round index -> the figure of every round: its CPU time, or its wall time when any
    measurement of the slot lacks a CPU time ({} when ``at`` and ``walls`` do not match)."""
    if not at or len(at) != len(walls):
        return {}
    times = cpu_times(walls, cpus)
    xs = times if times is not None else walls
    return {i: float(x) for i, x in zip(at, xs)}


def lost_cpu(walls: Sequence[float], cpus: Sequence[float | None] | None,
             rel_share: float = REL_SHARE) -> stats.CpuFilter:
    """The measurements whose CPU share is below ``rel_share`` of the upper quartile of the
    shares of all of them (never all of them: then every one is kept). A whole process never
    reaches a share of 1 (its start, its pipes), so the bar is relative to what the slot's
    measurements reached, not the core's fixed ``stats.MIN_CPU_SHARE``."""
    n = len(walls)
    known = [c for c in cpus or () if c is not None]
    if not cpus or len(cpus) != n or n == 0 or len(known) != n:
        return stats.CpuFilter(tuple(range(n)), (), False)
    shares = [c / w if w > 0 else 0.0 for c, w in zip(known, walls)]
    bar = rel_share * stats.quantile(shares, 0.75)
    dropped = tuple(i for i, s in enumerate(shares) if s < bar)
    if len(dropped) == n:
        return stats.CpuFilter(tuple(range(n)), (), False)
    gone = set(dropped)
    return stats.CpuFilter(tuple(i for i in range(n) if i not in gone), dropped, True)


def common_rounds(a: Mapping[int, float], b: Mapping[int, float]
                  ) -> tuple[list[float], list[float]]:
    """The figures of ``a`` and of ``b`` in the rounds that measured both, in round order."""
    both = sorted(set(a) & set(b))
    return [a[i] for i in both], [b[i] for i in both]
