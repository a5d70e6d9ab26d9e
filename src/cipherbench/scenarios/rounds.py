# SPDX-License-Identifier: GPL-3.0-or-later
"""Randomized interleaved rounds, the one scheduler for comparisons in every scenario.

Whatever disturbs the machine (another tenant, a backup, a frequency change) then falls on
every candidate alike instead of on whichever was measured at that moment: each round measures
every candidate once, in a new random order, and rounds repeat. A comparison is made per round
(``paired_ratios``), so a slow minute cancels out of the ratio (Abedi and Brecht, "Conducting
repeatable experiments in highly variable cloud computing environments", ICPE 2017).

Pure scheduling: ``measure_one`` does the measuring, ``rng`` decides the order (seed it for a
reproducible plan).

Adaptive rounds stop early without peeking (``Sequential``): the stopping rule is consulted
only at rounds planned in advance (its ``looks``), and each look judges at the confidence that
keeps the chance of any wrong call over all the looks within ``alpha`` (Bonferroni: ``alpha``
shared evenly among the looks). A clear difference stops at the first look; a close one runs
to the last look or the time budget (a budget stops on time, never on what the data say).
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Callable, Generic, Hashable, Sequence, TypeVar

from cipherbench import interrupts
from cipherbench.analysis import stats
from cipherbench.analysis import verdict as V

C = TypeVar("C", bound=Hashable)
S = TypeVar("S")


@dataclass
class Round(Generic[C, S]):
    """One round: the order it ran in, and each candidate's sample (absent if it failed)."""

    index: int
    order: list[C]
    samples: dict[C, S] = field(default_factory=dict)


def rounds(candidates: Sequence[C], measure_one: Callable[[C, int], S | None], n_rounds: int,
           rng: random.Random, *, enough: Callable[[list[Round[C, S]]], bool] | None = None,
           min_rounds: int = 1, into: list[Round[C, S]] | None = None) -> list[Round[C, S]]:
    """Measure every candidate once per round, in a fresh random order, for ``n_rounds``
    rounds (or fewer: after ``min_rounds``, stop when ``enough(rounds so far)`` says so).

    ``measure_one(candidate, round_index)`` returns a sample, or None when the candidate
    cannot be measured (it is then left out of the later rounds). ``into``: the caller's list
    the rounds go into as they are measured (the round under way too), so that a run stopped
    by a signal or a lost host still has every sample it took."""
    if n_rounds < 1:
        raise ValueError("n_rounds must be at least 1")
    if len(set(candidates)) != len(candidates):
        raise ValueError("candidates must be distinct")
    alive = list(candidates)
    done: list[Round[C, S]] = [] if into is None else into
    for i in range(n_rounds):
        order = list(alive)
        rng.shuffle(order)
        r: Round[C, S] = Round(i, order)
        done.append(r)
        for c in order:
            interrupts.check()   # a stop whose exception was lost still stops the rounds
            s = measure_one(c, i)
            if s is None:
                alive.remove(c)
            else:
                r.samples[c] = s
        if not alive:
            break
        if enough is not None and len(done) >= min_rounds and enough(done):
            break
    return done


def paired_ratios(done: Sequence[Round[C, S]], a: C, b: C,
                  value: Callable[[S], float] = float) -> list[float]:  # type: ignore[assignment]
    """``value(a) / value(b)`` of every round that measured both (and where b is not 0)."""
    out = []
    for r in done:
        if a in r.samples and b in r.samples:
            vb = value(r.samples[b])
            if vb:
                out.append(value(r.samples[a]) / vb)
    return out


def samples_of(done: Sequence[Round[C, S]], candidate: C) -> list[S]:
    """Every sample of one candidate, in round order."""
    return [r.samples[candidate] for r in done if candidate in r.samples]


@dataclass(frozen=True)
class Sequential:
    """When adaptive rounds may stop: only after the rounds of ``looks``, each judged at
    ``confidence`` (``alpha`` shared among the looks). 8 rounds is the fewest whose range
    bounds a median at more than 99% (1 - 2/2^8), what a look of three needs."""

    looks: tuple[int, ...] = (8, 12, 16)
    alpha: float = 0.05

    def __post_init__(self) -> None:
        if not self.looks or list(self.looks) != sorted(set(self.looks)) or self.looks[0] < 2:
            raise ValueError("looks must be increasing round counts from 2")

    @property
    def confidence(self) -> float:
        return 1 - self.alpha / len(self.looks)

    @property
    def max_rounds(self) -> int:
        return self.looks[-1]

    def at_look(self, n_rounds: int) -> bool:
        return n_rounds in self.looks

    @classmethod
    def within(cls, max_rounds: int, alpha: float = 0.05) -> "Sequential":
        """The default looks below ``max_rounds``, then ``max_rounds`` itself: what a command
        whose ``--rounds N`` is at most uses (12: looks at 8 and 12)."""
        return cls(tuple(x for x in cls().looks if x < max_rounds) + (max_rounds,), alpha)


class PlannedStop:
    """The one stopping rule of every comparing command's rounds, as ``rounds``' ``enough``:
    at a planned look of ``seq``, stop when ``answered(rounds so far)`` says every comparison is answered
    (judged at ``seq.confidence``); at any round from ``min_rounds`` on, stop once
    ``budget_s`` of wall time is spent (a stop on time, never on what the data say). ``by``
    tells what ended the rounds: ``rounds`` (all of them ran), ``decided`` or ``budget``."""

    def __init__(self, seq: Sequential, answered: Callable[[Sequence[Round]], bool], *,
                 budget_s: float | None = None, min_rounds: int = V.MIN_ROUNDS,
                 clock: Callable[[], float] = time.monotonic):
        self.seq, self.answered, self.budget_s = seq, answered, budget_s
        self.min_rounds, self.clock = min_rounds, clock
        self.t0 = clock()
        self.by = "rounds"

    def __call__(self, done: Sequence[Round]) -> bool:
        n = len(done)
        if self.budget_s is not None and n >= self.min_rounds \
                and self.clock() - self.t0 >= self.budget_s:
            self.by = "budget"
            return True
        if self.seq.at_look(n) and self.answered(done):
            self.by = "decided"
            return True
        return False


def decided(ratios: Sequence[float], confidence: float, margin: float, tie: float) -> bool:
    """Whether paired per-round ratios answer the question at ``confidence``: their median's
    interval lies wholly beyond ``1 +- margin`` (one is faster), or wholly within ``1 +- tie``
    (no difference that matters). Anything else needs more rounds."""
    if not ratios:
        return True   # nothing to compare
    logs = [math.log(r) for r in ratios if r > 0]
    lo, hi = (math.exp(x) for x in stats.median_ci(logs, confidence))
    return lo > 1 + margin or hi < 1 / (1 + margin) or (lo >= 1 / (1 + tie) and hi <= 1 + tie)


def precise(values: Sequence[float], confidence: float, precision: float) -> bool:
    """Whether the median of one candidate's per-round figures is known to ``precision``
    (half its interval's width over the median) at ``confidence``."""
    if len(values) < 2:
        return False
    med = stats.median(values)
    lo, hi = stats.median_ci(values, confidence)
    return med > 0 and (hi - lo) / 2 / med <= precision


def settled(values: Sequence[float], ratios: Sequence[float], seq: Sequential,
            precision: float, *, is_reference: bool,
            margin: float = V.DEFAULT_MARGIN) -> bool:
    """Whether one candidate is answered at a look: its figure (per-round ``values``) is
    ``precise``, or, beside its reference, its paired ``ratios`` to it are ``decided``
    (beyond the verdicts' margin, or equal within ``precision``)."""
    if precise(values, seq.confidence, precision):
        return True
    return not is_reference and bool(ratios) and decided(ratios, seq.confidence, margin,
                                                         precision)
