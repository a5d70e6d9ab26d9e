# SPDX-License-Identifier: GPL-3.0-or-later
"""The primitive scenario: raw ciphers, AEADs, hashes and MACs through cipherbench-core.

``plan(inventory, selection)`` turns a selection into work items; ``PrimitiveRunner`` runs
them: one batch per library and operation (more where the core's limit of names per batch
asks) for the first samples of every size, then, for each
point not yet precise enough, more samples (``stats.until_stable``) from short batches of that
point alone. Every batch goes through the run's ``CoreSession``: the library's one served core
(known answers and calibration once), or a ``bench`` process per batch for a core without
``serve``. Every point is stored the moment it is final; the
slope fit of each (library, algorithm, operation) is computed here over the final medians and
stored after its sizes. The runner never times anything itself.
"""
from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable

from cipherbench.analysis import clock as clockmod, fit as fitmod, stats
from cipherbench import run_warnings as W
from cipherbench.cores.core_client import (Core, CoreCrashed, CoreSession, Inventory,
                                           request_batches)
from cipherbench.cores.records import CoreError, End, Library, Point, Preamble, Record
from cipherbench.scenarios.recording import Recording
from cipherbench.store import Result
from cipherbench.units import rate

SCENARIO = "primitive"
METRIC_POINT = "ns_per_op"
METRIC_SLOPE = "slope_ns_per_byte"


@dataclass(frozen=True)
class Selection:
    """What to measure and how precisely."""

    libs: tuple[str, ...]
    algos: tuple[str, ...]
    ops: tuple[str, ...] | None      # None: every op of each algorithm's kind
    sizes: tuple[int, ...]
    precision: float = stats.DEFAULT_PRECISION
    budget_s: float = 0.5            # per point, for the extra samples
    run_budget_s: float | None = None  # all extra samples of the run together (None: no cap)
    samples: int | None = None       # first batch (None: the core sizes it from its timers)
    min_sample_ms: float | None = None
    cpu: int | None = None           # the CPU the core pins itself to (--cpu K)

    def core_extra(self) -> list[str]:
        """Arguments every bench process of the run gets."""
        return ["--cpu", str(self.cpu)] if self.cpu is not None else []


@dataclass(frozen=True)
class Item:
    """One (library, algorithm, operation) over its sizes."""

    lib: str
    algo: str
    op: str
    sizes: tuple[int, ...]


def plan(inv: Inventory, sel: Selection) -> list[Item]:
    """Work items for the selection, the reference rows first, then by library and catalog
    order; only what each library supports."""
    items: list[Item] = []
    libs = sorted(sel.libs, key=lambda lib: (lib != "ref", sel.libs.index(lib)))
    for lib in libs:
        rows = {r.algo: r for r in inv.rows(lib)}
        for algo in sel.algos:
            row = rows.get(algo)
            if row is None:
                continue
            for op in row.ops:
                if sel.ops is None or op in sel.ops:
                    items.append(Item(lib, algo, op, tuple(sel.sizes)))
    return items


def point_label(lib: str, algo: str, op: str, size: int | None = None) -> str:
    """``openssl aes-128-gcm encrypt 16384 B`` (for progress and warnings)."""
    s = f"{lib} {algo} {op}"
    return s if size is None else f"{s} {size} B"


@dataclass
class _Group:
    """What one (library, op) core process has produced so far."""

    lib: str
    op: str
    pending: dict[str, set[int]]                 # algo -> sizes not answered yet
    medians: dict[str, dict[int, float]]         # algo -> size -> final median
    followups: list[tuple[Point, float]] = field(default_factory=list)
    t0: float = 0.0
    freq: float | None = None


@dataclass
class RunOutcome:
    """What a finished (or stopped) run produced."""

    points: int = 0
    fits: int = 0
    crashed: bool = False
    measured: set[str] = field(default_factory=set)   # libraries with a point stored
    warnings: list[W.BenchWarning] = field(default_factory=list)
    libraries: dict[str, dict] = field(default_factory=dict)
    preamble: dict = field(default_factory=dict)
    freq_end_hz: float | None = None
    core_cpu_ns: float = 0.0      # the core processes' CPU time over their end records'
    core_wall_ns: float = 0.0     # elapsed time (cpu_ns, elapsed_ns): the share they got
    clocks: list[clockmod.ClockEstimate] = field(default_factory=list)   # every record's
    clock: clockmod.ClockTrust | None = None    # the run's, once the fits are stored


class PrimitiveRunner:
    """Runs planned items, storing each point in the recording as it becomes final and
    counting it on the recording's progress. ``clock`` is only used for the time budget of
    extra samples. Batches go through ``session`` (the caller closes it; by default one over
    ``core``)."""

    def __init__(self, core: Core, rec: Recording, sel: Selection,
                 clock: Callable[[], float] = time.monotonic,
                 session: CoreSession | None = None):
        self.core = core
        self.session = session if session is not None else CoreSession(core)
        self.rec = rec
        self.sel = sel
        self.clock = clock
        self.out = RunOutcome()
        self._extra_s = 0.0          # spent on extra samples so far
        self._fits: list[tuple[str, str, str, dict[int, float]]] = []   # stored at the end

    # -- bookkeeping -------------------------------------------------------------------
    def _advance(self, n: int, label: str) -> None:
        self.rec.progress.done(label, n)

    def _warn(self, ws: Iterable[W.BenchWarning]) -> None:
        ws = list(ws)
        self.out.warnings.extend(ws)
        self.rec.warn(ws)

    # -- running -----------------------------------------------------------------------
    def run(self, items: list[Item]) -> RunOutcome:
        """Run every item; raises KeyboardInterrupt through (what finished is stored)."""
        if self.rec.progress.total is None:  # the recording may count more steps
            self.rec.progress.set_total(sum(len(i.sizes) for i in items))
        groups: dict[tuple[str, str], list[Item]] = {}
        for it in items:
            groups.setdefault((it.lib, it.op), []).append(it)
        crashed: set[str] = set()
        for (lib, op), group in groups.items():
            if lib in crashed:  # a library that crashed once is not asked again
                self._advance(sum(len(i.sizes) for i in group), point_label(lib, "-", op))
                continue
            try:
                self._run_group(lib, op, group)
            except CoreCrashed as e:
                self.out.crashed = True
                crashed.add(lib)
                self._warn([W.BenchWarning(W.Kind.CORE_CRASHED, lib,
                                           f"{e}; points of {lib} after the crash are missing:"
                                           f" run `{self.core.program_of(lib)} kat --lib {lib}`"
                                           " to check the library, and report the bug")])
        return self.out

    def _run_group(self, lib: str, op: str, group: list[Item]) -> None:
        """First batch for all algorithms and sizes of one library and op, in one process;
        then more samples for the points not yet precise, and the fits."""
        g = _Group(lib, op, {it.algo: set(it.sizes) for it in group},
                   {it.algo: {} for it in group})
        g.t0 = self.clock()
        try:
            # as many requests as the core's limits of names and sizes ask (`run --full`)
            for algos, sizes in request_batches([it.algo for it in group], group[0].sizes):
                with self.session.bench(lib, algos, op, sizes,
                                        samples=self.sel.samples,
                                        min_sample_ms=self.sel.min_sample_ms,
                                        extra=self.sel.core_extra()) as stream:
                    for rec in stream:
                        self._on_record(g, rec)
        except (CoreCrashed, KeyboardInterrupt):
            # Keep what finished: points waiting for more samples are stored as they are.
            for p, _ in g.followups:
                self._store_point(p, point_figure(p), kept_samples(p), False, "crashed")
            raise
        for p, elapsed in g.followups:
            g.medians[p.algo][bench_size(p)] = self._refine(p, elapsed)
        # Points the core never answered for (without an error record) count as done.
        for algo, left in g.pending.items():
            if left:
                self._advance(len(left), point_label(lib, algo, op))
        for it in group:
            self.add_fit(lib, it.algo, op, g.medians[it.algo])

    def note_clock(self, rec: Record) -> None:
        """Keep the clock estimate of a preamble, point or end record (probes or freq_hz)."""
        if isinstance(rec, (Preamble, Point, End)):
            self.out.clocks.append(clockmod.record_estimate(rec.raw))

    def _on_record(self, g: "_Group", rec: Record) -> None:
        self.note_clock(rec)
        if isinstance(rec, Point):
            self._on_point(g, rec)
        elif isinstance(rec, CoreError):
            self._on_error(g, rec)
        else:
            g.freq = self._on_meta(rec) or g.freq

    def _on_meta(self, rec: Record) -> float | None:
        """Preamble, library and end records, kept on the outcome; returns the frequency a
        preamble measured."""
        if isinstance(rec, Preamble):
            self.out.preamble = self.out.preamble or rec.raw
            return rec.freq_hz
        if isinstance(rec, Library):
            self.out.libraries[rec.lib] = rec.raw
        elif isinstance(rec, End):
            self.out.freq_end_hz = rec.freq_hz or self.out.freq_end_hz
            cpu, wall = rec.raw.get("cpu_ns"), rec.raw.get("elapsed_ns")
            if isinstance(cpu, (int, float)) and isinstance(wall, (int, float)) and wall > 0:
                self.out.core_cpu_ns += cpu
                self.out.core_wall_ns += wall
        return None

    def _on_point(self, g: "_Group", p: Point) -> None:
        now = self.clock()
        elapsed, g.t0 = now - g.t0, now
        g.pending.get(p.algo, set()).discard(bench_size(p))
        fig = point_figure(p)
        if stats.is_precise(fig.summary(), self.sel.precision):
            g.medians[p.algo][bench_size(p)] = self._store_point(p, fig, kept_samples(p), True,
                                                          "precision")
        else:
            g.followups.append((p, elapsed))

    def _on_error(self, g: "_Group", e: CoreError) -> None:
        left = len(g.pending.pop(e.algo, set()))
        self._warn([self.error_warning(g.lib, e.algo, g.op, e)])
        self._advance(left, point_label(g.lib, e.algo, g.op))

    def error_warning(self, lib: str, algo: str, op: str, e: CoreError) -> W.BenchWarning:
        """The warning of a point the core refused: a failed known answer (never timed, and
        the command that shows why) or an unsupported one."""
        kind = W.Kind.KAT_FAILED if e.reason == "kat_failed" else W.Kind.UNSUPPORTED
        text = e.message or e.reason
        if kind is W.Kind.KAT_FAILED:
            text += ": not timed (a wrong answer is never measured); run " \
                    f"`{self.core.program_of(lib)} kat --lib {lib}` for details"
        return W.BenchWarning(kind, point_label(lib, algo, op), text)

    def _refine(self, first: Point, elapsed: float) -> float:
        """Ask for more samples of one point until its robust figure is precise or the budget
        is spent; store it. Samples that lost the CPU are left out and counted."""
        lib, algo, op, size = first.lib, first.algo, first.op, bench_size(first)
        dropped = [point_figure(first).n_dropped]

        def sample(n: int) -> list[float]:
            got: list[float] = []
            with self.session.bench(lib, [algo], op, [size], samples=max(n, 2),
                                    min_sample_ms=self.sel.min_sample_ms,
                                    extra=self.sel.core_extra()) as s:
                for rec in s:
                    if isinstance(rec, Point) and rec.algo == algo:
                        got.extend(kept_samples(rec))
                        dropped[0] += point_figure(rec).n_dropped
                    self.note_clock(rec)
            return got

        budget = self._point_budget()
        t0 = self.clock()
        st = stats.until_stable(sample, precision=self.sel.precision, budget_s=budget,
                                initial=kept_samples(first), elapsed_s=elapsed,
                                clock=self.clock, estimator=stats.robust_summary)
        self._extra_s += self.clock() - t0
        if not st.stable:
            self._warn(W.not_stable(point_label(lib, algo, op, size), st.summary.rel_half_width,
                                    self.sel.precision, budget, what="figure"))
        # n counts every sample taken, those that lost the CPU included
        fig = dataclasses.replace(stats.robust(st.samples), n=len(st.samples) + dropped[0])
        return self._store_point(first, fig, st.samples, st.stable, st.reason,
                                 {"n_lost_cpu": dropped[0]})

    def _point_budget(self) -> float:
        """The per-point budget, or, under a run-wide cap, an even share of what is left of
        it among the points not yet final (so that the last libraries get their share too)."""
        cap = self.sel.run_budget_s
        if cap is None:
            return self.sel.budget_s
        p = self.rec.progress
        left = max(1, (p.total or 1) - p.count)
        return max(0.0, min(self.sel.budget_s, (cap - self._extra_s) / left))

    def _store_point(self, rec: Point, fig: stats.Robust, samples: list[float], stable: bool,
                     reason: str, more: dict | None = None) -> float:
        """Store a point whose figure is ``fig`` (the robust estimator: median of the groups'
        fastest samples, with its interval); ``samples`` are the kept ones, as ns per op."""
        lib, algo, op, size = rec.lib, rec.algo, rec.op, bench_size(rec)
        label = point_label(lib, algo, op, size)
        ratio = rec.cpu_ratio()
        self._warn(W.noisy(label, fig.cv, limit=0.10))
        self._warn(W.steal(label, ratio))
        extra = {
            "iters": rec.iters,
            "misalign": rec.raw.get("misalign", 0),
            "samples": [round(x, 4) for x in samples],
            "cpu_ratio": round(ratio, 4) if ratio is not None else None,
            "stable": stable,
            "stopped_by": reason,
            "estimator": "robust",
            "best_of": fig.best_of,
            "n_groups": fig.n_groups,
            "n_lost_cpu": fig.n_dropped,
            "spread": round(fig.spread, 5),
            "best_ns": round(fig.minimum, 4),
            "bytes_per_s": rate(size, fig.figure) if size else None,
            **(more or {}),
        }
        self.rec.add(Result(
            scenario=SCENARIO, lib=lib, algo=algo, op=op, size=size, metric=METRIC_POINT,
            unit="ns", median=fig.figure, ci_low=fig.ci_low, ci_high=fig.ci_high,
            n_samples=fig.n, cv=fig.cv, extra=extra))
        self.out.points += 1
        self.out.measured.add(lib)
        self._advance(1, label)
        return fig.figure

    def add_fit(self, lib: str, algo: str, op: str, medians: dict[int, float]) -> None:
        """A (library, algorithm, operation) whose points are final: its fit is stored by
        ``store_fits`` once the whole run's clock is known."""
        self._fits.append((lib, algo, op, dict(medians)))

    def store_fits(self, headline: int | None = None) -> None:
        """Fit and store every finished (library, algorithm, operation). Cycles per byte come
        from the clock of the whole run (``clock.trust`` over every record's estimate), or are
        withheld with one warning saying why. The figure at the ``headline`` size (or the size
        nearest it) is checked against the line; a disagreement is kept on the fit and
        warned about."""
        trust = clockmod.trust(self.out.clocks)
        self.out.clock = trust
        withheld = 0
        fits, self._fits = self._fits, []
        for lib, algo, op, medians in fits:
            f = fitmod.fit_sizes(medians)
            if f is None:
                continue
            cpb, why = clockmod.cycles_per_byte(f.slope, trust)
            withheld += cpb is None and not trust.trusted
            extra = {"intercept_ns": f.intercept, "r2": f.r2, "sizes": list(f.sizes),
                     "freq_hz": trust.freq_hz, "cycles_per_byte": cpb}
            if why:
                extra["cycles_per_byte_withheld"] = why
            size = _nearest(medians, headline) if headline else None
            if size is not None and lib != "ref":
                finding = fitmod.check_headline(f, size, medians[size])
                if finding:
                    extra["headline_check"] = {"size": size, "finding": finding}
                    self._warn(W.coherence(point_label(lib, algo, op, size), finding))
            self.rec.add(Result(
                scenario=SCENARIO, lib=lib, algo=algo, op=op, size=None, metric=METRIC_SLOPE,
                unit="ns/B", median=f.slope, n_samples=len(f.sizes), extra=extra))
            self.out.fits += 1
        if withheld and trust.reason:
            self._warn(W.clock_withheld(trust.reason, withheld))


def point_figure(p: Point) -> stats.Robust:
    """The robust figure of one core ``point``: samples that lost the CPU left out, the median
    of the fastest of each group (the record's ``best_of`` when it has one)."""
    return stats.robust_point(p.wall_ns, p.cpu_ns, p.iters, best_of=p.raw.get("best_of"))


def bench_size(p: Point) -> int:
    """A bench point's size (only tls handshakes have none; such a point counts as size 0)."""
    return int(p.size or 0)


def kept_samples(p: Point) -> list[float]:
    """The samples of ``p`` that kept the CPU, as ns per operation, in their order."""
    f = stats.lost_cpu(p.wall_ns, p.cpu_ns)
    per = p.per_op_ns()
    return [per[i] for i in f.kept]


def _nearest(medians: dict[int, float], wanted: int) -> int | None:
    """``wanted`` if measured, else the measured size closest to it (as the table picks)."""
    if not medians:
        return None
    return wanted if wanted in medians else min(medians, key=lambda s: (abs(s - wanted), -s))
