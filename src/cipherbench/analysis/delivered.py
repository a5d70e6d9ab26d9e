# SPDX-License-Identifier: GPL-3.0-or-later
"""What a host delivers, from what it gave the core: a core sample's figure is a rate per CPU
second (the core times each sample with its thread's CPU clock beside the wall clock, and the
estimator leaves out samples that lost the CPU), while a host held to a fraction of a core (a
cgroup's cpu.max, steal, other work) moves only that fraction of it per wall-clock second.

- ``share_of(cpu_ns, wall_ns)``: the share of a CPU the core got, from its processes' CPU
  time over their elapsed time (the ``end`` records' ``cpu_ns`` and ``elapsed_ns``), at most 1;
  stored with a primitive run as ``core_cpu_share``.
- ``delivered(rate, share)``: the rate per wall-clock second.
"""
from __future__ import annotations

#: The run metadata key of the share (``machine.metadata``).
CORE_SHARE_KEY = "core_cpu_share"

#: Below this share the delivered rate is reported beside the rate per CPU second (above it
#: the two differ less than the figures' own spread).
THROTTLED_BELOW = 0.9


def share_of(cpu_ns: float, wall_ns: float) -> float | None:
    """CPU time over wall time, at most 1 (None without wall time)."""
    if wall_ns <= 0:
        return None
    return round(min(1.0, cpu_ns / wall_ns), 4)


def delivered(rate: float, share: float | None) -> float:
    """``rate`` (per CPU second) as delivered per wall-clock second with ``share`` of a CPU."""
    if share is None or share <= 0:
        return rate
    return rate * min(1.0, share)


def throttled(share: float | None) -> bool:
    """Whether the host gave the core so little of a CPU that delivered rates must be shown."""
    return share is not None and 0 < share < THROTTLED_BELOW
