# SPDX-License-Identifier: GPL-3.0-or-later
"""Each figure of a run against this machine's earlier runs of the same cell.

A run's own statistics cannot see a machine that was slower for the whole of it: every round
is slow alike, the interval is narrow, and the figure is 10-25% off without a word (a host
that slows its guest's CPU, a sibling thread busy). The store can: the same library version
measured the same way on the same machine. A figure more than ``OFF`` from the median of the
last ``LOOKBACK`` comparable runs (at least ``MIN_EARLIER`` of them) gets a warning naming that
median; a cell without that many earlier runs is not judged.

Comparable (``machine.coherence``): the same machine, core build, CPU features switched off,
library version and hardware in use, as many processes a point, a complete run. Public API:
``off_by`` (pure) and ``check(store, run_id)``.
"""
from __future__ import annotations

import statistics
from collections import defaultdict

from cipherbench import run_warnings as W
from cipherbench.machine.coherence import facts, machine_identity, mismatches
from cipherbench.scenarios.primitive.batches import point_label
from cipherbench.store import Run, Store

#: A figure further than this from the earlier runs' median is called out.
OFF = 0.05
#: The fewest earlier figures a judgement needs, and the most recent runs looked at: enough
#: for the machine's usual level, not only its last hour's.
MIN_EARLIER = 3
LOOKBACK = 100
#: The figure judged: time per operation at one size.
METRIC = "ns_per_op"

Cell = tuple[str, str, str, int]     # lib, algo, op, size


def off_by(figure: float, earlier: list[float]) -> float | None:
    """``figure`` over the median of ``earlier`` when it is more than ``OFF`` away from it
    (above 1: slower), None when it is not, or when there are fewer than ``MIN_EARLIER``."""
    if len(earlier) < MIN_EARLIER or figure <= 0:
        return None
    med = statistics.median(earlier)
    if med <= 0:
        return None
    ratio = figure / med
    return ratio if abs(ratio - 1) > OFF else None


def _earlier_runs(store: Store, run: Run) -> list[Run]:
    """The last ``LOOKBACK`` complete runs before ``run`` on the same machine
    (``coherence.machine_identity``) with as many processes a point."""
    me, threads = machine_identity(run), run.metadata.get("threads") or 1
    same = [r for r in store.runs("run") if r.id < run.id and r.status == "complete"
            and (r.metadata.get("threads") or 1) == threads and machine_identity(r) == me]
    return same[-LOOKBACK:]


def check(store: Store, run_id: int) -> list[W.BenchWarning]:
    """One warning per figure of run ``run_id`` that is off this machine's earlier runs."""
    run = store.get_run(run_id)
    earlier_runs = _earlier_runs(store, run)
    if len(earlier_runs) < MIN_EARLIER:
        return []
    mine = facts(run)
    theirs = {r.id: facts(r) for r in earlier_runs}
    like: dict[tuple[int, str], bool] = {}   # (run, library) -> comparable, asked once

    def comparable(run_id: int, lib: str) -> bool:
        # the same core build, hardware switches, library version and hardware in use
        if (run_id, lib) not in like:
            like[(run_id, lib)] = not mismatches(theirs[run_id], mine, [lib])
        return like[(run_id, lib)]

    earlier: dict[Cell, list[float]] = defaultdict(list)
    for f in store.figures([r.id for r in earlier_runs], METRIC):
        if f.size and comparable(f.run_id, f.lib):
            earlier[(f.lib, f.algo, f.op, f.size)].append(f.median)
    out = []
    for f in store.figures([run_id], METRIC):
        if not f.size:
            continue
        cell = (f.lib, f.algo, f.op, f.size)
        ratio = off_by(f.median, earlier.get(cell, []))
        if ratio is None:
            continue
        n, med = len(earlier[cell]), statistics.median(earlier[cell])
        how = f"{ratio - 1:.0%} slower" if ratio > 1 else f"{1 - ratio:.0%} faster"
        out.append(W.BenchWarning(
            W.Kind.UNLIKE_BEFORE, point_label(*cell),
            f"{how} than in this machine's {n} earlier runs of {f.lib} at the same version "
            f"(median {med:,.0f} ns): the machine ran differently this time; "
            f"{W.Kind.UNLIKE_BEFORE.remedy}"))
    return out
