# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench run --rounds N``: the points of each size measured in randomized interleaved
rounds (``scenarios.rounds``) instead of one library after the other.

Each round asks the core for one short batch of every (library, algorithm, operation) point of
the size, in a new random order; a slow moment of the machine then falls on every point alike.
A point's figure is the median of its rounds' bests (each the fastest sample that kept the
CPU), with its interval over the rounds; beside it the store keeps each round's
best and, against the fastest library of the same algorithm and operation, the ratio of the
two bests in every round (paired: both measured within the same round). Every batch goes to
the library's served core of the run (``CoreSession``): its known answers are checked at its
first batch and each point is calibrated once, so the rounds of a point run the same loop
count (recalibrated only when it no longer lasts half a sample's minimum); a core without ``serve``
gets a process per batch.

Adaptive (the default of ``run`` and ``run --quick``): the rounds of a size stop at the first
planned look (``rounds.Sequential``) where every cell is answered, its figure precise or its
paired ratio to the fastest library decided, or once the size's share of the run's budget is
spent (never before a verdict's rounds); a cell still open then is stored with a warning.
"""
from __future__ import annotations

import random
import statistics
import time
from typing import Callable, Iterable, Sequence

from cipherbench.analysis import stats
from cipherbench.units import format_duration
from cipherbench import run_warnings as W
from cipherbench.cores.core_client import CoreCrashed
from cipherbench.cores.records import CoreError, Point
from cipherbench.scenarios.primitive.batches import (Item, PrimitiveRunner, RunOutcome,
                                                     kept_samples, point_label)
from cipherbench.scenarios.recording import Recording
from cipherbench.scenarios.rounds import (PlannedStop, Round, Sequential, paired_ratios, rounds,
                                          samples_of, settled)

Cand = tuple[str, str, str]   # (lib, algo, op)


def run_in_rounds(runner: PrimitiveRunner, items: list[Item], n_rounds: int,
                  rng: random.Random, *, adaptive: Sequential | None = None,
                  budget_s: float | None = None,
                  clock: Callable[[], float] = time.monotonic) -> RunOutcome:
    """Measure ``items`` size by size in ``n_rounds`` interleaved rounds (adaptive: until
    every cell is answered at a look, within ``budget_s`` for the whole run); store every
    point, then the fits. Stop signals pass through (what finished is stored)."""
    rec, sel = runner.rec, runner.sel
    if rec.progress.total is None:
        rec.progress.set_total(sum(len(i.sizes) for i in items))
    medians: dict[Cand, dict[int, float]] = {(i.lib, i.algo, i.op): {} for i in items}
    failed: set[Cand] = set()
    t_run = clock()
    pace = _Pace(rec, sum(len(i.sizes) for i in items))
    for k, size in enumerate(sel.sizes):
        cands = [c for c in medians if c not in failed
                 and any((i.lib, i.algo, i.op) == c and size in i.sizes for i in items)]
        stop, share = None, None
        if adaptive is not None:
            # this size's even share of what is left of the run's budget
            share = None if budget_s is None else \
                max(0.0, budget_s - (clock() - t_run)) / (len(sel.sizes) - k)
            stop = PlannedStop(adaptive, lambda d: _all_answered(d, cands, adaptive,
                                                                 sel.precision),
                               budget_s=share, clock=clock)
        pace.started += len(cands)

        def enough(d: Sequence[Round]) -> bool:
            pace.round_done(len(d[-1].order))   # every round tells the share the run gets
            return stop(d) if stop is not None else False

        done: list[Round] = []
        try:
            rounds(cands, lambda c, i: _one(runner, c, size, failed),
                   adaptive.max_rounds if adaptive else n_rounds, rng, enough=enough, into=done)
        except BaseException:   # stopped (a signal, a lost host): keep the rounds it took
            try:
                _store_size(runner, cands, done, size, None, None, None, medians)
            except Exception:   # noqa: S110 - the error that stopped the run is the one to tell
                pass
            raise
        _store_size(runner, cands, done, size, adaptive, stop, share, medians)
    for (lib, algo, op), m in medians.items():
        runner.add_fit(lib, algo, op, m)
    return runner.out


def _store_size(runner: PrimitiveRunner, cands: list[Cand], done: Sequence[Round], size: int,
                adaptive: Sequential | None, stop: PlannedStop | None, share: float | None,
                medians: dict[Cand, dict[int, float]]) -> None:
    """Store each candidate's cell of one size from its rounds: the median of the rounds'
    bests, its interval over the rounds, paired to the fastest library. Without a stopping
    rule (``adaptive`` None) every cell counts as answered by its rounds."""
    rec, sel = runner.rec, runner.sel
    firsts = {c: samples_of(done, c) for c in cands}
    round_best = {c: [_best(p) for p in pts] for c, pts in firsts.items()}
    for c in cands:
        pts = firsts[c]
        if not pts:
            rec.progress.done(point_label(*c, size))
            continue
        best = _fastest(c, cands, round_best)
        ratios = paired_ratios(done, c, best, value=_best)
        answered = adaptive is None or _answered(c, best, round_best, ratios, adaptive,
                                                 sel.precision)
        more = {"rounds": len(done), "round_best_ns": [round(x, 4) for x in round_best[c]],
                "paired_to": "/".join(best), "paired_ratios": [round(x, 5) for x in ratios],
                "n_lost_cpu": sum(stats.lost_cpu(p.wall_ns, p.cpu_ns).n_dropped for p in pts)}
        fig = stats.robust(round_best[c], best_of=1)
        samples = [x for p in pts for x in kept_samples(p)]
        if not answered:
            runner._warn(W.not_stable(point_label(*c, size), fig.rel_half_width,
                                      sel.precision, round(share or 0.0, 1), what="figure"))
        medians[c][size] = runner._store_point(pts[0], fig, samples, answered,
                                               stop.by if stop else "rounds", more)


class _Pace:
    """The run's expected time kept from its real progress (``Estimate.left_s``: the quiet
    seconds of the work done over the time it took): after every round, so the time left is
    never the start's guess frozen. A probe at the start can read twice or four times the
    share a run of requests to the core processes gets; the first round's new expectation is
    shown once when it differs from the printed one by more than a third."""

    def __init__(self, rec: Recording, points: int):
        self.rec, self.points = rec, max(1, points)
        self.started = 0     # points whose first round began (their calibration done)
        self.batches = 0     # batches asked, over every size and round
        self.told = False

    def done_s(self) -> float:
        """Quiet seconds of the work done so far."""
        assert self.rec.estimate is not None
        return self.rec.estimate.done_s(self.started / self.points, self.batches / self.points)

    def round_done(self, batches: int) -> None:
        self.batches += batches
        est, prog = self.rec.estimate, self.rec.progress
        if est is None or prog.expected_s is None:
            return
        before, elapsed, done = prog.expected_s, prog.elapsed_s(), self.done_s()
        prog.expect(elapsed + est.left_s(done, elapsed))
        if not self.told:
            self.told = True
            self.rec.update_metadata({"estimate_after_first_round_s": round(prog.expected_s, 1)})
            if prog.mode != "off" and abs(prog.expected_s - before) > before / 3:
                share = est.share_from(done, elapsed)
                prog.say(f"cipherbench: {self.rec.command}: the first round got {share:.0%} of "
                         f"a CPU: about {format_duration(prog.expected_s)} in all")


def _answered(c: Cand, best: Cand, round_best: dict[Cand, list[float]], ratios: list[float],
              seq: Sequential, precision: float) -> bool:
    """A cell is answered when its figure is precise, or (against another library) its
    paired ratio to the fastest is decided (``rounds.settled``)."""
    return settled(round_best[c], ratios, seq, precision, is_reference=c == best)


def _all_answered(done: Sequence[Round], cands: list[Cand], seq: Sequential, precision: float) -> bool:
    """Every cell of one size answered at a look."""
    round_best = {c: [_best(p) for p in samples_of(done, c)] for c in cands}
    for c in cands:
        if not round_best[c]:
            continue
        best = _fastest(c, cands, round_best)
        if not _answered(c, best, round_best, paired_ratios(done, c, best, value=_best), seq,
                         precision):
            return False
    return True


def _best(p: Point) -> float:
    """A round's figure of a point: its fastest sample that kept the CPU (ns per op)."""
    return stats.best_point(p.wall_ns, p.cpu_ns, p.iters).figure


def _fastest(c: Cand, cands: Iterable[Cand], round_best: dict[Cand, list[float]]) -> Cand:
    """The library with the lowest median round of the same algorithm and operation."""
    same = [d for d in cands if d[1:] == c[1:] and round_best.get(d)]
    return min(same, key=lambda d: statistics.median(round_best[d]))


def _one(runner: PrimitiveRunner, c: Cand, size: int, failed: set[Cand]) -> Point | None:
    """One batch of one point; None (and a warning) when it cannot be measured."""
    lib, algo, op = c
    runner.rec.progress.working(point_label(lib, algo, op, size))
    point, error = None, None
    try:
        with runner.session.bench(lib, [algo], op, [size], samples=runner.sel.samples,
                                  min_sample_ms=runner.sel.min_sample_ms,
                                  extra=runner.sel.core_extra()) as stream:
            for r in stream:
                runner.note_clock(r)
                if isinstance(r, Point):
                    point = r
                elif isinstance(r, CoreError):
                    error = r
                else:
                    runner._on_meta(r)   # preamble, library, end
    except CoreCrashed as e:
        runner.out.crashed = True
        runner._warn([W.BenchWarning(W.Kind.CORE_CRASHED, lib, f"{e}; {algo} {op} of {lib} "
                                     "is left out of the later rounds")])
    if point is None:
        failed.add(c)
        if error is not None:
            runner._warn([runner.error_warning(lib, algo, op, error)])
    return point

