# SPDX-License-Identifier: GPL-3.0-or-later
"""Comparing two runs: per (scenario, library, algorithm, operation, size, metric) the speed
ratio of run B over run A with a confidence interval, and a summary per library.

Pure: stored results and run metadata in, plain records out; the CLI prints them and the
report draws them.

The method
----------
Every compared quantity is turned into a *speed*, so that a ratio above 1 always means "B is
faster": a rate (``bytes_per_s``, ``handshakes_per_s``, any ``*_per_s``) is a speed as it is;
a time (``ns_per_op``, ``*_s``) is inverted. For the primitive scenario the ratio is therefore
the ratio of throughputs at that message size, ``throughput_B / throughput_A``.

The interval is interval arithmetic on the stored 95% confidence intervals of the two medians:
with speeds ``A in [a_lo, a_hi]`` and ``B in [b_lo, b_hi]`` the ratio lies in
``[b_lo / a_hi, b_hi / a_lo]``. Whenever both intervals hold their true medians (at least
0.95 x 0.95 = 90% for independent runs) the true ratio lies inside it, so the interval is
conservative: it never claims more precision than the two measurements have.

A change is *real* only when the two intervals do not overlap, which is exactly when the ratio
interval lies wholly above 1 (``faster``) or wholly below 1 (``slower``); otherwise the mark is
``same`` (no change that the measurements can tell). A quantity stored without an interval
gets ``unknown``. Fit slopes are left out (they carry no interval); errors too.

The machine itself moves between two runs (other work, frequency, memory placement): the
*noise floor* is how far the reference rows (``memcpy`` and ``null`` of library ``ref``,
measured in every primitive run) moved, as a factor ``f >= 1``, at the same message size (all
sizes for a quantity without a reference row at its size). A change is then real only when
the ratio interval lies wholly above ``f`` or wholly below ``1 / f``; the reference rows
themselves are the machine's movement, never a change of the code (``same``). Entries that the
floor turned from faster or slower into ``same`` say so (``within_floor``).

One run's interval is its own samples' spread: two runs of the same command on the same
machine differ by more than that (the process's memory placement, the frequency, what else
ran). So at the default settings a change must also clear ``min_change`` (5%: the A/A
comparison of ``bench/compare/aa.py``, the same command twice, then calls at most 1 cell in 20
different; docs/performance.md), and a cell that either run warned about (noisy, not stable,
lost its CPU, headline against slope: ``HOLDING_KINDS``) must clear ``WARNED_FACTOR`` (2x:
its interval says nothing then, and two runs of a warned cell were seen up to 2.6x apart,
their intervals never wholly beyond 2x): its entry says which run warned (``held_back``). Runs of two machines are compared as machines: the reference
rows measure the machines' memory then, not the noise, so they set no floor and are compared
like any other row.

The summary of a library is the geometric mean of its ratios (the mean of ratios that treats
"twice as fast" and "half as fast" symmetrically), with the counts of real changes.

Runs may come from two machines, two library versions, or the same machine with and without
hardware acceleration: ``differences`` lists what their metadata and arguments say differs
(CPU, flags, library versions and capabilities, what was switched off), so the reader knows
what the ratios measure. ``mismatches`` (``coherence``) are the differences that make the two
runs not like for like: machine, core build, hardware switches, the version of a compared
library or program; ``mismatch_line`` says them in one line. The comparison is still made (a
maintainer compares library versions on purpose), labelled with the versions.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping

from cipherbench import catalog
from cipherbench.machine import coherence
from cipherbench.display.format import format_rate
from cipherbench.store import Result, Run

#: Version of the ``compare --json`` document. History:
#: - 1: runs, differences, entries (ratio with interval and mark), per-library summary.
#: - 2: ``noise_floor`` (from the reference rows) and each entry's ``within_noise_floor``.
#: - 3: ``mismatches``: what makes the runs not like for like (machine, core build, hardware
#:   switches, versions of the compared libraries), each ``{"what", "a", "b"}``.
#: - 4: the rule a change must clear (``rule``: ``min_change``, ``warned_factor``, ``machines``
#:   same or different, the noise floor applied or not, the warning kinds that hold a cell
#:   back) and
#:   each entry's ``held_back`` (why a difference beyond both intervals is not called real:
#:   ``noise floor``, ``min change``, or ``warned in run N: KIND``; null otherwise).
#: - 5: ``machines``: runs of two machines end with each machine's answer side by side (one
#:   target of the ``cipherbench-machines`` document); null for one machine.
COMPARE_FORMAT_VERSION = 5

#: A change must be at least this large to be called real (``--min-change``): the run-to-run
#: movement of one command on one machine that one run's interval does not see.
MIN_CHANGE = 0.05

#: Warning kinds about one point (subject ``LIB ALGO OP SIZE B``) after which its interval says
#: little: its change must clear ``WARNED_FACTOR`` to be called real.
HOLDING_KINDS = ("noisy", "not_stable", "steal", "coherence", "unlike_before")
#: What a change in a cell either run warned about must clear (both ways): in the A/A runs of
#: docs/performance.md (load 10-17, every cell warned about) no interval lay wholly beyond it.
WARNED_FACTOR = 2.0

#: The library of the reference rows (memcpy, null) that every primitive run measures.
REFERENCE_LIB = "ref"

#: Marks of an entry.
FASTER, SLOWER, SAME, UNKNOWN = "faster", "slower", "same", "unknown"

#: Metrics that are not compared: quantities over sizes without an interval, failures, and
#: single samples of interleaved rounds (``round_s`` of ssh: their run-level figures are compared).
SKIPPED_METRICS = ("slope_ns_per_byte", "error", "round_s")

#: Metadata keys that change from run to run on the same machine and say nothing about what
#: was compared (load, the measured frequency's jitter, the front end's Python).
VOLATILE_KEYS = ("loadavg", "freq_hz", "freq_end_hz", "python", "clock_trust", "load_start",
                 "load_end", "cpu_share")
#: Argument keys about how long or how precisely to measure, not about what.
VOLATILE_ARGS = ("budget_s", "samples", "precision", "headline_size", "preset", "algos",
                 "libs", "ops", "sizes")

Key = tuple[str, str, str, str, Any, str]   # scenario, lib, algo, op, size, metric


def higher_is_better(metric: str, unit: str = "") -> bool | None:
    """True for rates, False for times, None for metrics that are neither."""
    if metric.endswith("_per_s") or unit.endswith("/s"):
        return True
    if metric in ("ns_per_op",) or metric.endswith("_s") or unit in ("s", "ns", "ms", "us"):
        return False
    return None


def speed_interval(r: Result) -> tuple[float, float | None, float | None] | None:
    """(median, low, high) of ``r`` as a speed (bigger is faster), or None if ``r`` is not a
    positive rate or time. A time's interval flips: the slowest time is the lowest speed."""
    hib = higher_is_better(r.metric, r.unit)
    if hib is None or r.median is None or r.median <= 0:
        return None
    lo, hi = r.ci_low, r.ci_high
    if lo is not None and hi is not None and (lo <= 0 or hi <= 0):
        lo = hi = None
    if hib:
        return r.median, lo, hi
    return (1.0 / r.median, None if hi is None else 1.0 / hi, None if lo is None else 1.0 / lo)


def ratio_interval(a: tuple[float, float | None, float | None],
                   b: tuple[float, float | None, float | None]
                   ) -> tuple[float, float | None, float | None]:
    """Ratio B/A of two speeds with the interval ``[b_lo / a_hi, b_hi / a_lo]`` (None bounds
    when either side has no interval)."""
    ratio = b[0] / a[0]
    if None in (a[1], a[2], b[1], b[2]):
        return ratio, None, None
    return ratio, b[1] / a[2], b[2] / a[1]  # type: ignore[operator]


def mark(low: float | None, high: float | None) -> str:
    """``faster``/``slower`` when the ratio interval excludes 1 (the two confidence intervals
    do not overlap), ``same`` when it holds 1, ``unknown`` without an interval."""
    if low is None or high is None:
        return UNKNOWN
    if low > 1.0:
        return FASTER
    if high < 1.0:
        return SLOWER
    return SAME


def geometric_mean(xs: Iterable[float]) -> float | None:
    """exp(mean(log x)) of positive numbers; None for none."""
    logs = [math.log(x) for x in xs if x > 0]
    return math.exp(math.fsum(logs) / len(logs)) if logs else None


@dataclass
class Entry:
    """One compared quantity. ``a``/``b`` are the stored medians in their own unit; ``ratio``
    and its interval are speed ratios B/A (above 1: B is faster)."""

    scenario: str
    lib: str
    algo: str
    op: str
    size: int | None
    metric: str
    unit: str
    a: float
    b: float
    ratio: float
    low: float | None
    high: float | None
    mark: str
    within_floor: bool = False
    held_back: str = ""     # why a change beyond both intervals is not called real

    @property
    def key(self) -> Key:
        """The identity the two runs were matched on."""
        return (self.scenario, self.lib, self.algo, self.op, self.size, self.metric)


@dataclass
class LibrarySummary:
    """The summary line of one library (and scenario)."""

    scenario: str
    lib: str
    version_a: str
    version_b: str
    geomean: float | None
    n: int
    faster: int
    slower: int
    same: int
    unknown: int


@dataclass
class Difference:
    """One thing that differs between the runs: a metadata or argument key."""

    key: str
    a: Any
    b: Any


@dataclass
class Comparison:
    """Everything ``cipherbench compare`` shows."""

    run_a: Run
    run_b: Run
    entries: list[Entry]
    summaries: list[LibrarySummary]
    differences: list[Difference]
    only_a: int = 0
    only_b: int = 0
    notes: list[str] = field(default_factory=list)
    noise_floor: "NoiseFloor | None" = None
    mismatches: list[coherence.Mismatch] = field(default_factory=list)
    rule: "Rule | None" = None


@dataclass(frozen=True)
class Rule:
    """What a difference had to clear to be called real in this comparison."""

    min_change: float
    same_machine: bool
    warned_cells: int = 0      # cells held back by a warning of either run

    def text(self) -> str:
        floor = ("the noise floor of the reference rows" if self.same_machine else
                 "no noise floor (two machines: the reference rows compare their memory)")
        return (f"a change is real when both 95% intervals, {floor} and a {self.min_change:.0%} "
                f"minimum (--min-change) are cleared, and {WARNED_FACTOR:g}x in a cell either "
                "run warned about"
                + (f" ({self.warned_cells} held back by a warning)" if self.warned_cells else ""))


@dataclass(frozen=True)
class NoiseFloor:
    """How far the machine moved between the runs: the reference rows' largest speed ratio
    (or its inverse), ``factor >= 1``; ``worst`` names that row."""

    factor: float
    n: int
    worst: str

    def text(self) -> str:
        return (f"the reference rows moved up to {self.factor - 1:.1%} between the runs "
                f"({self.worst}): differences within the reference rows' movement at the same "
                "size are the machine, not the code")


def noise_floor(entries: Iterable[Entry], size: int | None = None) -> NoiseFloor | None:
    """The noise floor from the reference rows measured in both runs (only those at ``size``
    when given); None without any."""
    refs = [e for e in entries if e.lib == REFERENCE_LIB and e.ratio > 0
            and (size is None or e.size == size)]
    if not refs:
        return None
    worst = max(refs, key=lambda e: max(e.ratio, 1 / e.ratio))
    label = f"{worst.algo}" + (f" at {worst.size} B" if worst.size else "")
    return NoiseFloor(max(worst.ratio, 1 / worst.ratio), len(refs), label)


def mark_with_floor(low: float | None, high: float | None, floor: float) -> str:
    """``mark`` with the band ``[1/floor, floor]`` counted as no change."""
    if low is None or high is None:
        return UNKNOWN
    if low > floor:
        return FASTER
    if high < 1.0 / floor:
        return SLOWER
    return SAME


#: A cell of a warning: (library, algorithm, operation, size).
Cell = tuple[str, str, str, int]


def warned_cells(warnings: Iterable[Any]) -> dict[Cell, str]:
    """The points a run's warnings name (kinds of ``HOLDING_KINDS``, subject ``LIB ALGO OP
    SIZE B``), each with the kind; warnings about a whole run or library are not a cell's."""
    out: dict[Cell, str] = {}
    for w in warnings:
        kind = getattr(w.kind, "value", w.kind)
        parts = str(w.subject).split()
        if kind in HOLDING_KINDS and len(parts) == 5 and parts[4] == "B" and \
                parts[3].isdigit():
            out.setdefault((parts[0], parts[1], parts[2], int(parts[3])), str(kind))
    return out


def apply_floor(entries: list[Entry], min_change: float = 0.0, use_reference: bool = True,
                held: Mapping[Cell, str] | None = None) -> list[Entry]:
    """Entries re-marked against what a change must clear: the noise floor at their size
    (``noise_floor``, when ``use_reference``: the reference rows are then ``same``, being the
    floor), at least ``1 + min_change``, and ``WARNED_FACTOR`` in a cell either run warned
    about (``held``: cell -> ``warned in run N: KIND``)."""
    overall = noise_floor(entries) if use_reference else None
    out = []
    for e in entries:
        floor = 1.0 + min_change
        ref_floor = None
        if overall is not None and e.lib != REFERENCE_LIB:
            ref_floor = (noise_floor(entries, e.size) or overall).factor
        if e.lib == REFERENCE_LIB and overall is not None:
            m, why = (UNKNOWN, "") if e.mark == UNKNOWN else (SAME, "noise floor")
        else:
            m = mark_with_floor(e.low, e.high, max(floor, ref_floor or 1.0))
            why = ""
            if m == SAME and e.mark in (FASTER, SLOWER):
                # the first bound it failed to clear names it
                why = ("noise floor" if ref_floor is not None and ref_floor >= floor and
                       mark_with_floor(e.low, e.high, ref_floor) == SAME else "min change")
        warned = (held or {}).get((e.lib, e.algo, e.op, e.size or 0))
        if warned and m in (FASTER, SLOWER) and \
                mark_with_floor(e.low, e.high, WARNED_FACTOR) == SAME:
            m, why = SAME, f"{warned}, within {WARNED_FACTOR:g}x"
        out.append(replace(e, mark=m, within_floor=why == "noise floor" and e.mark in
                           (FASTER, SLOWER), held_back=why if e.mark in (FASTER, SLOWER)
                           else ""))
    return out


def _sort_key(k: Key) -> tuple:
    scenario, lib, algo, op, size, metric = k
    return (scenario != "primitive", scenario, lib != "ref", lib, catalog.order_key(algo), algo,
            op, -1 if size is None else size, metric)


def _index(results: Iterable[Result]) -> dict[Key, Result]:
    out: dict[Key, Result] = {}
    for r in results:
        if r.metric in SKIPPED_METRICS:
            continue
        out[(r.scenario, r.lib, r.algo, r.op, r.size, r.metric)] = r
    return out


def compare_results(results_a: Iterable[Result], results_b: Iterable[Result],
                    sizes: Iterable[int] | None = None, min_change: float = 0.0,
                    use_reference: bool = True, held: Mapping[Cell, str] | None = None
                    ) -> tuple[list[Entry], int, int]:
    """Entries for every quantity both runs hold (optionally only at ``sizes``), in a stable
    order; plus the counts of quantities found in only A and only B. ``min_change``,
    ``use_reference`` and ``held``: what a change must clear (``apply_floor``); the defaults
    here are the bare interval rule with the reference rows' floor."""
    ia, ib = _index(results_a), _index(results_b)
    wanted = set(sizes) if sizes else None
    entries: list[Entry] = []
    for k in sorted(set(ia) & set(ib), key=_sort_key):
        if wanted is not None and k[4] not in wanted:
            continue
        ra, rb = ia[k], ib[k]
        sa, sb = speed_interval(ra), speed_interval(rb)
        if sa is None or sb is None:
            continue
        ratio, low, high = ratio_interval(sa, sb)
        entries.append(Entry(*k, unit=ra.unit, a=ra.median, b=rb.median, ratio=ratio, low=low,
                             high=high, mark=mark(low, high)))
    entries = apply_floor(entries, min_change, use_reference, held)
    return entries, len(set(ia) - set(ib)), len(set(ib) - set(ia))


def _version(run: Run, lib: str) -> str:
    info = (run.metadata.get("libraries") or {}).get(lib) or {}
    return str(info.get("version", ""))


def summarize(entries: list[Entry], run_a: Run | None = None,
              run_b: Run | None = None) -> list[LibrarySummary]:
    """Per (scenario, library): geometric mean of the ratios and counts of each mark."""
    groups: dict[tuple[str, str], list[Entry]] = {}
    for e in entries:
        groups.setdefault((e.scenario, e.lib), []).append(e)
    out = []
    for (scenario, lib), es in groups.items():
        marks = [e.mark for e in es]
        out.append(LibrarySummary(
            scenario, lib, _version(run_a, lib) if run_a else "",
            _version(run_b, lib) if run_b else "",
            geometric_mean(e.ratio for e in es), len(es), marks.count(FASTER),
            marks.count(SLOWER), marks.count(SAME), marks.count(UNKNOWN)))
    return out


def _flat(prefix: str, value: Any, out: dict[str, Any]) -> None:
    if isinstance(value, Mapping):
        for k, v in value.items():
            _flat(f"{prefix}.{k}" if prefix else str(k), v, out)
    else:
        out[prefix] = value


def differences(run_a: Run, run_b: Run) -> list[Difference]:
    """Metadata and argument keys whose values differ (nested keys dotted:
    ``libraries.openssl.version``; argument keys prefixed ``args.``). Volatile keys (load,
    measured frequency, precision settings) are left out."""
    fa: dict[str, Any] = {}
    fb: dict[str, Any] = {}
    _flat("", {k: v for k, v in run_a.metadata.items() if k not in VOLATILE_KEYS}, fa)
    _flat("", {k: v for k, v in run_b.metadata.items() if k not in VOLATILE_KEYS}, fb)
    _flat("args", {k: v for k, v in run_a.args.items() if k not in VOLATILE_ARGS}, fa)
    _flat("args", {k: v for k, v in run_b.args.items() if k not in VOLATILE_ARGS}, fb)
    both = set(run_a.metadata.get("libraries") or {}) & set(run_b.metadata.get("libraries")
                                                             or {})
    out = []
    for key in sorted(set(fa) | set(fb)):
        # A library that only one run measured is not a difference of the compared ones (a
        # variant's column has dots of its own: libraries.nettle@3.10.version).
        if key.startswith("libraries.") and not any(key.startswith(f"libraries.{lib}.")
                                                    for lib in both):
            continue
        va, vb = fa.get(key), fb.get(key)
        if isinstance(va, list) and isinstance(vb, list) and sorted(map(str, va)) == \
                sorted(map(str, vb)):
            continue
        if va != vb:
            out.append(Difference(key, va, vb))
    return out


def compare_runs(run_a: Run, results_a: Iterable[Result], run_b: Run,
                 results_b: Iterable[Result], sizes: Iterable[int] | None = None,
                 warnings_a: Iterable[Any] = (), warnings_b: Iterable[Any] = (),
                 min_change: float = MIN_CHANGE) -> Comparison:
    """The whole comparison of two stored runs, with their stored warnings (``StoredWarning``
    or ``BenchWarning``): a change is real only beyond both intervals, the reference rows'
    noise floor (one machine) and ``min_change``, and ``WARNED_FACTOR`` in a cell either run
    warned about."""
    same = coherence.machine_identity(run_a) == coherence.machine_identity(run_b)
    held = {cell: f"warned in run {run_b.id}: {kind}"
            for cell, kind in warned_cells(warnings_b).items()}
    held.update({cell: f"warned in run {run_a.id}: {kind}"
                 for cell, kind in warned_cells(warnings_a).items()})
    entries, only_a, only_b = compare_results(results_a, results_b, sizes, min_change,
                                              use_reference=same, held=held)
    ms = coherence.mismatches(coherence.facts(run_a), coherence.facts(run_b),
                              libs={e.lib for e in entries})
    if not same and not any(m.what == coherence.MACHINE for m in ms):
        ms.insert(0, coherence.Mismatch(coherence.MACHINE, coherence.machine_label(run_a),
                                        coherence.machine_label(run_b)))
    n_held = sum(1 for e in entries if e.held_back.startswith("warned"))
    rule = Rule(min_change, same, n_held)
    cmp = Comparison(run_a, run_b, entries, summarize(entries, run_a, run_b),
                     differences(run_a, run_b), only_a, only_b,
                     noise_floor=noise_floor(entries) if same else None,
                     mismatches=ms, rule=rule)
    if cmp.noise_floor is not None:
        cmp.notes.append(cmp.noise_floor.text())
    elif not same:
        cmp.notes.append(f"runs {run_a.id} and {run_b.id} come from two machines: they are "
                         "compared as machines (the reference rows compare their memory and "
                         "set no noise floor)")
    cmp.notes.append(rule.text())
    if only_a or only_b:
        cmp.notes.append(f"{only_a} quantities only in run {run_a.id} and {only_b} only in run "
                         f"{run_b.id} are not compared")
    return cmp


def mismatch_line(cmp: Comparison) -> str | None:
    """One line naming what makes the two runs not like for like, or None when nothing
    does."""
    if not cmp.mismatches:
        return None
    return (f"runs {cmp.run_a.id} and {cmp.run_b.id} are not like for like: "
            f"{coherence.describe(cmp.mismatches)}; the ratios measure that difference too, "
            "not only the noise")


def _sig(x: float | None, digits: int = 6) -> float | None:
    """Round to ``digits`` significant digits (stable JSON, no false precision)."""
    if x is None or x == 0 or not math.isfinite(x):
        return x
    return round(x, digits - 1 - int(math.floor(math.log10(abs(x)))))


def _run_doc(run: Run) -> dict[str, Any]:
    m = run.metadata
    return {"id": run.id, "command": run.command, "started_at": run.started_at,
            "status": run.status, "hostname": m.get("hostname"), "cpu_model": m.get("cpu_model"),
            "libraries": {k: (v or {}).get("version") for k, v in
                          (m.get("libraries") or {}).items()}}


def to_document(cmp: Comparison) -> dict[str, Any]:
    """The ``compare --json`` document (``format_version`` above)."""
    return {
        "format": "cipherbench-compare",
        "format_version": COMPARE_FORMAT_VERSION,
        "method": "ratio = speed B / speed A (above 1: B faster); interval = "
                  "[B_low / A_high, B_high / A_low] from the 95% CIs of the medians; "
                  "real change only when the two CIs do not overlap and the interval lies "
                  "beyond the noise floor of the reference rows (one machine) and the minimum "
                  "change, and beyond the warned factor in a cell either run warned about",
        "run_a": _run_doc(cmp.run_a),
        "run_b": _run_doc(cmp.run_b),
        "differences": [{"key": d.key, "a": d.a, "b": d.b} for d in cmp.differences],
        "mismatches": [{"what": m.what, "a": m.a, "b": m.b} for m in cmp.mismatches],
        "rule": None if cmp.rule is None else {
            "min_change": cmp.rule.min_change, "warned_factor": WARNED_FACTOR,
            "machines": "same" if cmp.rule.same_machine else "different",
            "noise_floor": cmp.rule.same_machine, "holding_warnings": list(HOLDING_KINDS),
            "held_back_by_warnings": cmp.rule.warned_cells},
        "entries": [{"scenario": e.scenario, "lib": e.lib, "algo": e.algo, "op": e.op,
                     "size": e.size, "metric": e.metric, "unit": e.unit, "a": _sig(e.a),
                     "b": _sig(e.b), "ratio": _sig(e.ratio), "ratio_low": _sig(e.low),
                     "ratio_high": _sig(e.high), "change": e.mark,
                     "within_noise_floor": e.within_floor,
                     "held_back": e.held_back or None} for e in cmp.entries],
        "noise_floor": None if cmp.noise_floor is None else {
            "factor": _sig(cmp.noise_floor.factor), "from": cmp.noise_floor.worst,
            "n": cmp.noise_floor.n},
        "summary": [{"scenario": s.scenario, "lib": s.lib, "version_a": s.version_a,
                     "version_b": s.version_b, "geomean_ratio": _sig(s.geomean), "n": s.n,
                     "faster": s.faster, "slower": s.slower, "same": s.same,
                     "unknown": s.unknown} for s in cmp.summaries],
        "only_a": cmp.only_a,
        "only_b": cmp.only_b,
    }


def summary_line(s: LibrarySummary) -> str:
    """``openssl 3.0.13: B/A 0.42x geometric mean over 12 (10 slower, 2 same)``."""
    ver = s.version_a if s.version_a == s.version_b else \
        f"{s.version_a or '?'} -> {s.version_b or '?'}"
    # a variant's column already names its version (nettle@3.10), else it is named here
    named = "@" in s.lib and s.lib.partition("@")[2] in (s.version_a, s.version_b)
    name = f"{s.lib} {ver}".strip() if ver and not named else s.lib
    if s.scenario != "primitive":
        name = f"{s.scenario}/{name}"
    parts = [f"{n} {label}" for n, label in ((s.faster, "faster"), (s.slower, "slower"),
                                             (s.same, "same"), (s.unknown, "unknown")) if n]
    gm = f"{s.geomean:.3g}x" if s.geomean is not None else "n/a"
    return f"{name}: B/A {gm} geometric mean over {s.n} ({', '.join(parts)})"


def describe_difference(d: Difference) -> str:
    """``libraries.openssl.caps: aes_hw, pclmul -> (none)``."""
    def show(v: Any) -> str:
        if v is None or v == [] or v == "":
            return "(none)"
        if isinstance(v, list):
            return ", ".join(map(str, v))
        return str(v)
    return f"{d.key}: {show(d.a)} -> {show(d.b)}"


def value_text(e: Entry, value: float) -> str:
    """A stored median as people read it: a primitive's ns/op as its throughput at that size,
    a rate in B/s scaled, anything else with its unit."""
    if e.metric == "ns_per_op" and e.size and e.algo != "null":
        return format_rate(e.size / value * 1e9) if value > 0 else ""
    if e.unit == "B/s":
        return format_rate(value)
    return f"{value:.4g} {e.unit}".strip()


def interval_text(e: Entry) -> str:
    """``0.97-1.04`` or ``n/a``."""
    if e.low is None or e.high is None:
        return "n/a"
    return f"{e.low:.3g}-{e.high:.3g}"
