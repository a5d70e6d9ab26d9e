# SPDX-License-Identifier: GPL-3.0-or-later
"""Scaling across cores (``cipherbench run --threads N``).

For one point (library, algorithm, operation, size), in interleaved rounds: one core process
alone on each CPU the threads will use (their mean is the single-thread throughput), then N
core processes started together on the same point, each pinned with the core's ``--cpu`` to its
own CPU while there are CPUs left to give. Each process's figure is its fastest sample that
kept the CPU (interference only ever adds time); across rounds the best round counts, for the
single and the paired figures alike, so both come from the same minutes. The aggregate is the
sum of the per-thread figures; the scaling efficiency is aggregate / (N x single-thread). An
efficiency above 1 is noise between the two measurements, flagged, never shown as a fact.
Nothing is timed here: the numbers are the core's samples.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from cipherbench.analysis import stats
from cipherbench.cores.core_client import BenchStream, Core
from cipherbench.cores.records import CoreError, Point
from cipherbench.errors import UsageError
from cipherbench.machine.cpus import allowed_cpus
from cipherbench.store import Result
from cipherbench.units import rate

METRIC = "threads_bytes_per_s"
ROUNDS = 3          # single, then together, this many times over
#: Above this, "efficiency" says more about noise than about the machine.
EFFICIENCY_NOISE = 1.0


def parse_threads(value: str | None) -> int:
    """``--threads``: a whole number >= 1, or ``all`` (every CPU this process may use)."""
    if value is None:
        return 1
    if value == "all":
        return len(allowed_cpus())
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n < 1 or n > 1024:
        raise UsageError(f"--threads: {value!r} is not valid; valid: a whole number from 1 to "
                         "1024, or 'all'")
    return n


@dataclass
class ThreadPoint:
    """One point measured by one process alone and by ``threads`` processes at once."""

    lib: str
    algo: str
    op: str
    size: int
    threads: int
    single_bps: float
    per_thread_bps: list[float]
    cpus: list[int | None]

    @property
    def aggregate_bps(self) -> float:
        """Sum of the per-process throughputs."""
        return sum(self.per_thread_bps)

    @property
    def efficiency(self) -> float:
        """aggregate / (threads x single-thread throughput); 1.0 is perfect scaling."""
        return self.aggregate_bps / (self.threads * self.single_bps)


def _best_bps(stream: BenchStream, size: int) -> tuple[float | None, str]:
    """Throughput of the one point a stream measures (its fastest sample that kept the CPU),
    or None and why not."""
    why = "no point"
    bps = None
    for rec in stream:
        if isinstance(rec, Point):
            best = stats.best_point(rec.wall_ns, rec.cpu_ns, rec.iters)
            bps = rate(size, best.figure)
        elif isinstance(rec, CoreError):
            why = f"{rec.reason}: {rec.message}"
    return bps, why


def measure(core: Core, lib: str, algo: str, op: str, size: int, threads: int, *,
            samples: int | None, min_sample_ms: float | None,
            cpus: Sequence[int] | None = None,
            rounds: int = ROUNDS) -> tuple[ThreadPoint | None, str]:
    """Single-thread and ``threads`` processes at once of one point, in ``rounds`` interleaved
    rounds. Returns the point, or None and the reason (the core's error, e.g. a failed
    known-answer check)."""
    cpus = list(cpus) if cpus is not None else allowed_cpus()

    def start(cpu: int | None) -> BenchStream:
        extra = ["--cpu", str(cpu)] if cpu is not None else []
        return core.bench(lib, [algo], op, [size], samples=samples, min_sample_ms=min_sample_ms,
                          extra=extra)

    pins: list[int | None] = [cpus[i] if i < len(cpus) else None for i in range(threads)]
    best_single: float | None = None
    best_per: list[float] | None = None
    for _ in range(max(1, rounds)):
        # One process alone on each CPU the threads use: CPUs of a shared machine differ in
        # how busy they are, so the baseline is their mean, not one CPU's figure.
        singles = []
        for cpu in dict.fromkeys(pins):
            with start(cpu) as s:
                bps, why = _best_bps(s, size)
            if bps is None:
                return None, why
            singles.append(bps)
        single = sum(singles) / len(singles)
        streams = [start(c) for c in pins]   # all started before any is read: they run together
        per: list[float] = []
        try:
            for s in streams:
                bps, why = _best_bps(s, size)
                if bps is None:
                    return None, why
                per.append(bps)
        finally:
            for s in streams:
                s.close()
        best_single = max(best_single or 0.0, single)
        if best_per is None or sum(per) > sum(best_per):
            best_per = per
    return ThreadPoint(lib, algo, op, size, threads, best_single or 0.0, best_per or [], pins), ""


def to_result(p: ThreadPoint) -> Result:
    """The stored form: the aggregate throughput, with the per-thread figures beside it."""
    return Result(scenario="primitive", lib=p.lib, algo=p.algo, op=p.op, size=p.size,
                  metric=METRIC, unit="B/s", median=p.aggregate_bps, n_samples=p.threads,
                  extra={"threads": p.threads, "single_bps": p.single_bps,
                         "per_thread_bps": p.per_thread_bps, "efficiency": p.efficiency,
                         "efficiency_is_noise": p.efficiency > EFFICIENCY_NOISE,
                         "cpus": p.cpus})


def format_efficiency(r: Result) -> str:
    """The efficiency, or, above 1, that the two measurements cannot tell it apart from 1."""
    eff = r.extra.get("efficiency", 0) or 0
    if eff > EFFICIENCY_NOISE:
        return f"~1 (noise: {eff:.2f})"
    return f"{eff:.2f}"


def format_threads(results: list[Result]) -> tuple[list[str], list[list[str]]] | None:
    """Headers and rows of the scaling table (None when nothing was measured)."""
    from cipherbench.display.format import format_rate, format_size
    rs = [r for r in results if r.metric == METRIC]
    if not rs:
        return None
    n = rs[0].extra.get("threads", 0)
    headers = ["library", "algorithm", "op", "size", "1 thread", f"{n} threads (sum)",
               "per thread", "efficiency"]
    rows = []
    for r in rs:
        per = r.extra.get("per_thread_bps") or []
        rows.append([r.lib, r.algo, r.op, format_size(r.size or 0),
                     format_rate(r.extra.get("single_bps")), format_rate(r.median),
                     " / ".join(format_rate(x) for x in per),
                     format_efficiency(r)])
    return headers, rows
