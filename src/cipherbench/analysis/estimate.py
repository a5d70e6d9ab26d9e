# SPDX-License-Identifier: GPL-3.0-or-later
"""How long a run will take, given the share of a CPU it gets. Pure: numbers in, seconds out.

A run is work done whatever the load (setup, checks, the first batches) and rounds that a
wall-clock budget may end early. Under load every second of work takes ``1 / share``
seconds, but the budget is wall time: once the rounds' budget is spent no new round starts,
so a busy machine runs *fewer* rounds, never fewer than ``min_rounds`` (a verdict's). Dividing
a quiet estimate by the share, as if the budget stretched too, overstates a budgeted run
several times at a share of 20%, and understates a run whose rounds are never cut.

Public API: ``Estimate`` (its ``at(share)``, ``quiet_s``, ``rounds_at`` and ``share_from``).
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
    time spends whatever the load (extra samples until a point's budget is spent)."""

    fixed_s: float
    per_round_s: float = 0.0
    rounds: int = 0
    budget_s: float | None = None
    min_rounds: int = 0
    wall_s: float = 0.0

    def rounds_at(self, share: float) -> int:
        """Rounds expected at ``share``: those planned, or as many as the budget lets start
        (a round that starts before it is spent runs to its end), never fewer than
        ``min_rounds``."""
        if self.budget_s is None or self.per_round_s <= 0:
            return self.rounds
        round_s = self.per_round_s / _clamp(share)
        fit = math.ceil(self.budget_s / round_s - 1e-9)
        return min(self.rounds, max(self.min_rounds, fit))

    def at(self, share: float) -> float:
        """Seconds the run should take when it gets ``share`` of a CPU (1: a quiet machine)."""
        s = _clamp(share)
        return (self.fixed_s + self.per_round_s * self.rounds_at(s)) / s + self.wall_s

    @property
    def quiet_s(self) -> float:
        return self.at(1.0)

    def share_from(self, part: float, real_s: float) -> float:
        """The CPU share a measured round got: ``part`` of a round's quiet seconds (the
        fraction of the run's points it measured) took ``real_s``. A probe of the share at
        the start reads what a spinning thread gets; a round of requests to the core
        processes can get far less, and this is what it got."""
        if real_s <= 0 or self.per_round_s <= 0:
            return 1.0
        return _clamp(self.per_round_s * part / real_s)


def _clamp(share: float) -> float:
    return min(1.0, max(MIN_SHARE, share))
