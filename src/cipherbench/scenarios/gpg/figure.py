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

Older stored rows without CPU times fall back on their wall times (nothing left out).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Sequence

from cipherbench import stats

#: A call whose CPU share is below this fraction of its slot's upper-quartile share lost the
#: CPU while it ran (waited for it: its wall time tells of the machine, not of the cipher).
REL_SHARE = 0.9
#: What the figure is, as stored in each row's ``extra["figure"]`` and the export.
CPU = "cpu_s"
WALL = "wall_s"


@dataclass(frozen=True)
class CallFigure:
    """The figure of one slot's calls: ``robust`` over the per-call ``kind`` seconds (CPU
    time, or wall time for rows without CPU times), the calls left out (indexes), and the
    median wall time of the kept calls."""

    robust: stats.Robust
    kind: str
    dropped: tuple[int, ...]
    wall_s: float


def lost_cpu(walls: Sequence[float], cpus: Sequence[float] | None,
             rel_share: float = REL_SHARE) -> stats.CpuFilter:
    """The calls whose CPU share is below ``rel_share`` of the upper quartile of the shares of
    all the calls (never all of them: then every call is kept)."""
    n = len(walls)
    if not cpus or len(cpus) != n or n == 0:
        return stats.CpuFilter(tuple(range(n)), (), False)
    shares = [c / w if w > 0 else 0.0 for c, w in zip(cpus, walls)]
    bar = rel_share * stats.quantile(shares, 0.75)
    dropped = tuple(i for i, s in enumerate(shares) if s < bar)
    if len(dropped) == n:
        return stats.CpuFilter(tuple(range(n)), (), False)
    gone = set(dropped)
    return stats.CpuFilter(tuple(i for i in range(n) if i not in gone), dropped, True)


def _has_cpu(walls: Sequence[float], cpus: Sequence[float] | None) -> bool:
    return bool(cpus) and len(cpus) == len(walls) and all(c > 0 for c in cpus)


def call_figure(walls: Sequence[float], cpus: Sequence[float] | None,
                rel_share: float = REL_SHARE) -> CallFigure:
    """The robust figure of one slot's calls (see the module)."""
    if not walls:
        raise ValueError("figure of no calls")
    has_cpu = _has_cpu(walls, cpus)
    f = lost_cpu(walls, cpus if has_cpu else None, rel_share)
    xs = list(cpus) if has_cpu else list(walls)
    best = stats.best_of_rounds([xs[i] for i in f.kept])
    r = dataclasses.replace(best, n=len(xs), dropped=f.dropped)
    wall = stats.median([walls[i] for i in f.kept])
    return CallFigure(r, CPU if has_cpu else WALL, f.dropped, wall)


def per_round(at: Sequence[int], walls: Sequence[float],
              cpus: Sequence[float] | None) -> dict[int, float]:
    """Round index -> the per-call figure (CPU seconds, or wall seconds without CPU times) of
    every round: what paired ratios are computed from."""
    if not at or len(at) != len(walls):
        return {}
    xs = cpus if _has_cpu(walls, cpus) else walls
    return {i: float(x) for i, x in zip(at, xs)}
