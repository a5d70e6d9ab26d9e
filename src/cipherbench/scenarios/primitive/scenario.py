# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench run`` as a scenario: plan from the core's inventory, estimate, measure inside a
``Recording``, and draw a stored run.
"""
from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field

from cipherbench import catalog
from cipherbench.analysis import verdict as V
from cipherbench.analysis.estimate import Estimate
from cipherbench.machine import metadata
from cipherbench import run_warnings as W
from cipherbench.cores.core_client import Core, CoreSession, Inventory
from cipherbench.analysis.delivered import CORE_SHARE_KEY, share_of
from cipherbench.cores.cpu_profiles import profile_of
from cipherbench.display import console as disp
from cipherbench.display.format import SUSPECT_LEGEND, format_results
from cipherbench.display.run_answer import RunAnswer, run_answer
from cipherbench.display.run_answer import answer_lines as format_answer
from cipherbench.errors import EnvironmentProblem, UsageError
from cipherbench.presets import HEADLINE_SIZE, Preset
from cipherbench.scenarios import Screen
from cipherbench.scenarios import threads as thr
from cipherbench.scenarios.primitive import history
from cipherbench.scenarios.primitive.interleaved import run_in_rounds
from cipherbench.scenarios.primitive.batches import (Item, PrimitiveRunner,
                                                     Selection, plan as plan_items)
from cipherbench.scenarios.outcome import MeasureOutcome
from cipherbench.scenarios.recording import Recording
from cipherbench.scenarios.rounds import Sequential
from cipherbench.store import Result, Run, StoredWarning
from cipherbench.suggest import did_you_mean

NAME = "run"
UNIT = "points"
#: Debian and Fedora packages of the libraries the core can measure (for a build with none).
LIBRARY_PACKAGES = ("Debian: libssl-dev libgcrypt20-dev nettle-dev libgnutls28-dev "
                    "libsodium-dev libbotan-2-dev libcrypto++-dev libwolfssl-dev "
                    "libmbedtls-dev libtomcrypt-dev; Fedora: openssl-devel libgcrypt-devel "
                    "nettle-devel gnutls-devel libsodium-devel botan2-devel cryptopp-devel "
                    "wolfssl-devel mbedtls-devel libtomcrypt-devel")


@dataclass
class RunPlan:
    """Everything one stored primitive run measures."""

    core: Core
    inventory: Inventory
    preset: Preset
    selection: Selection
    items: list[Item]
    missing: list[str]             # asked algorithms no chosen library has
    headline: int = HEADLINE_SIZE
    hw_off: list[str] = field(default_factory=list)
    threads: int = 1
    rounds: int = 0                # > 1: interleaved rounds (``interleaved.run_in_rounds``)
    seed: int = 0                  # of the rounds' random order
    adaptive: bool = False         # rounds until every cell is answered (``rounds=0``)
    #: library -> the loader's reason, for the modules that did not load when no --lib
    #: chose the libraries (each one warning: a column missing, not a library left out)
    unavailable: dict[str, str] = field(default_factory=dict)

    def args(self) -> dict:
        s = self.selection
        more = {"rounds": "adaptive" if self.adaptive else self.rounds,
                "rounds_seed": self.seed} if self.rounds or self.adaptive else {}
        return {**more, "preset": self.preset.name, "libs": list(s.libs), "algos": list(s.algos),
                "ops": list(s.ops) if s.ops else None, "sizes": list(s.sizes),
                "precision": s.precision, "budget_s": s.budget_s,
                "run_budget_s": s.run_budget_s, "samples": s.samples,
                "headline_size": self.headline, "hw_disabled": list(self.hw_off),
                "cpu_profile": profile_of(self.hw_off),
                "threads": self.threads, "cpu": s.cpu}

    def metadata(self) -> dict:
        inv = self.inventory
        meta = metadata.collect(inv.preamble, {l: inv.libraries[l] for l in self.selection.libs
                                               if l in inv.libraries})
        meta["hw_disabled"] = list(self.hw_off)
        if self.hw_off:
            meta["cpu_profile"] = profile_of(self.hw_off) or "custom"
        meta["threads"] = self.threads
        return meta

    def points(self) -> int:
        return sum(len(i.sizes) for i in self.items)


def check_libraries(inv: Inventory) -> None:
    """A core built without any crypto library measures nothing: say what to install; one
    whose library modules all failed to load says why the first did not."""
    if not [l for l in inv.libs() if l != "ref"]:
        if unavailable := inv.unavailable():
            lib, why = next(iter(unavailable.items()))
            more = f" (and {len(unavailable) - 1} more)" if len(unavailable) > 1 else ""
            raise EnvironmentProblem(f"no library module of this cipherbench-core loaded: {lib}: "
                                     f"{why}{more}; `cipherbench list` names each")
        raise EnvironmentProblem("this cipherbench-core was built without any crypto library "
                                 f"(only the reference rows): install their development "
                                 f"packages ({LIBRARY_PACKAGES}), then reinstall cipherbench "
                                 "(`pip install .` or scripts/setup.sh)")


def resolve_libs(inv: Inventory, asked: list[str], with_ref: bool) -> list[str]:
    """The libraries to run, validated against the core build."""
    have = [l for l in inv.libs() if l != "ref"]
    if asked:
        for name in asked:
            if name not in inv.libraries and (why := inv.unknown_library(name)):
                raise UsageError(why)
            if name not in inv.libraries:
                raise UsageError(f"unknown library {name!r}{did_you_mean(name, have)}; this "
                                 f"build has: {', '.join(have) or 'none'}")
        libs = [l for l in asked if l != "ref"]
    else:
        libs = have
    return (["ref"] if with_ref or "ref" in asked else []) + libs


def resolve_algos(inv: Inventory, patterns: list[str], preset: Preset,
                  with_ref: bool) -> list[str]:
    """Names and globs against the catalog and what the core knows."""
    pool = list(dict.fromkeys(list(catalog.ALGORITHMS) + inv.algo_names()))
    if patterns:
        try:
            algos = catalog.match(patterns, pool)
        except catalog.NoMatch as e:
            if e.is_glob:
                raise UsageError(f"no algorithm matches {e.pattern!r}; see `cipherbench list` "
                                 "for the names")
            hint = f" (did you mean {' or '.join(e.suggestions)}?)" if e.suggestions else ""
            raise UsageError(f"unknown algorithm {e.pattern!r}{hint}; see `cipherbench list`")
    elif preset.algos is not None:
        algos = [a for a in preset.algos if a in pool]
    else:
        algos = [a for a in inv.algo_names()]
    if with_ref:
        algos = [a for a in catalog.REFERENCE if a not in algos] + algos
    return sorted(algos, key=lambda a: (a not in catalog.REFERENCE, catalog.order_key(a)))


def make_plan(core: Core, preset: Preset, *, libs: list[str], algos: list[str],
              ops: list[str], sizes: list[int], precision: float, budget_s: float | None,
              samples: int | None, headline: int, with_ref: bool, hw_off: list[str],
              threads: int, rounds: int = 0, seed: int | None = None,
              cpu: int | None = None, adaptive: bool = False) -> RunPlan:
    """Ask the core what it has and turn the options into work items (UsageError when nothing
    asked can be measured). ``adaptive``: rounds until every cell is answered, within the
    preset's run budget, or an explicit ``budget_s`` per point for the whole run's rounds."""
    inv = core.list()
    check_libraries(inv)
    lib_list = resolve_libs(inv, libs, with_ref)
    algo_list = resolve_algos(inv, algos, preset, with_ref)
    ops_sel = tuple(dict.fromkeys(ops + ["ref"])) if ops else preset.ops
    sel = Selection(libs=tuple(lib_list), algos=tuple(algo_list), ops=ops_sel,
                    sizes=tuple(sizes), precision=precision,
                    budget_s=preset.budget_s if budget_s is None else budget_s,
                    run_budget_s=preset.run_budget_s if budget_s is None else None,
                    samples=samples, min_sample_ms=preset.min_sample_ms,
                    cpu=cpu)
    items = plan_items(inv, sel)
    if (adaptive or rounds) and samples is None:
        # a round's batch needs only a best of a few samples (the rounds give the interval):
        # the preset's count, not the core's ~100, keeps a round of every point short
        sel = dataclasses.replace(sel, samples=preset.samples)
    if adaptive and budget_s is not None:   # --budget: seconds a point, for all its rounds
        sel = dataclasses.replace(sel, run_budget_s=budget_s * sum(len(i.sizes) for i in items))
    measured = {i.algo for i in items}
    if not [i for i in items if i.lib != "ref"] and [a for a in algo_list
                                                    if a not in catalog.REFERENCE]:
        raise UsageError("none of the chosen libraries implements "
                         + ", ".join(a for a in algo_list if a not in catalog.REFERENCE)
                         + (f" with op {', '.join(ops)}" if ops else "")
                         + "; see `cipherbench list`")
    return RunPlan(core, inv, preset, sel, items, [a for a in algo_list if a not in measured],
                   headline, list(hw_off), threads, rounds,
                   seed if seed is not None else random.SystemRandom().randrange(1 << 31),
                   adaptive, {} if libs else inv.unavailable())


#: Cost model of the estimate, from the core on a quiet 2-core machine: a sample lasts at
#: least the core's 2 ms (or the preset's), calibration and setup add about 15 ms a point, a
#: core process (vectors, known answers) about 60 ms, and about a fifth of the points need
#: extra samples from the budget. A core with ``serve`` starts one process per library for
#: the whole run; without it every batch (a round, extra samples) is a process of its own.
_CORE_MIN_SAMPLE_MS = 2.0
_POINT_OVERHEAD_S = 0.015
_PROCESS_S = 0.06
_REFINED_SHARE = 0.2
#: Without --samples the core takes as many samples as fill about this long (docs/protocol.md).
_AUTO_POINT_S = 0.02
#: A point's batch in a round of a served core: its warm-up (1 ms once calibrated), the
#: clock probes of its end (0.4 ms) and the request's way there and back; the samples come
#: on top, each the core's short sample (0.1-0.2 ms) unless the preset sets one, as many as
#: the preset asks (the core's own count otherwise). Measured on a quiet 2-core machine:
#: 7.2 ms a batch of `run --quick` (6 samples of 0.5 ms) and of `run` (10 short samples).
_ROUND_BATCH_S = 0.0045
_SHORT_SAMPLE_MS = 0.2
_AUTO_SAMPLES = 100


def estimate_s(p: RunPlan) -> Estimate:
    """How long the plan should take, on a quiet machine and at any CPU share (shown before
    the run starts): the rounds' budget and the extra samples' budgets are wall time, so
    under load they cut the work rather than stretch (``analysis.estimate``). A library whose
    core has no ``serve`` (a Go or Rust core built before theirs) costs a process for every
    batch."""
    s = p.selection
    sample_s = (s.min_sample_ms or _CORE_MIN_SAMPLE_MS) / 1000
    first_s = s.samples * sample_s if s.samples else _AUTO_POINT_S
    n = p.points()
    served = {i.lib for i in p.items if _serves(p, i.lib)}
    # a point of a library without serve: a process for each of its batches
    unserved = sum(len(i.sizes) for i in p.items if i.lib not in served)
    start = len(served) * _PROCESS_S   # one served process per library, its checks
    if p.rounds:   # a batch per point and round, no extra samples
        return Estimate(0.0, n * (first_s + _POINT_OVERHEAD_S) + unserved * _PROCESS_S,
                        p.rounds, start_s=start)
    if p.adaptive:   # the first look's rounds, or the budget, never fewer than a verdict's
        batch_s = _ROUND_BATCH_S + (s.samples or _AUTO_SAMPLES) * (
            (s.min_sample_ms or _SHORT_SAMPLE_MS) / 1000)
        return Estimate(n * _POINT_OVERHEAD_S, n * batch_s + unserved * _PROCESS_S,
                        Sequential().looks[0], budget_s=s.run_budget_s,
                        min_rounds=V.MIN_ROUNDS, start_s=start)
    # the first batch of each library and op without serve; every later batch below
    t = len({(i.lib, i.op) for i in p.items if i.lib not in served}) * _PROCESS_S
    t += n * (first_s + _POINT_OVERHEAD_S)
    extra = _REFINED_SHARE * (n * s.budget_s + unserved * _PROCESS_S)
    if p.threads > 1:
        t += len([i for i in p.items if i.lib != "ref"]) * 2 * _thread_samples(p) * sample_s
    return Estimate(t, wall_s=extra if s.run_budget_s is None else min(extra, s.run_budget_s),
                    start_s=start)


def _serves(p: RunPlan, lib: str) -> bool:
    """Whether ``lib``'s batches go to one served core process for the run."""
    serves_lib = getattr(p.core, "serves_lib", None)
    if serves_lib is not None:
        return bool(serves_lib(lib))
    return "serve" in (p.inventory.preamble.get("commands") or ())


def measure(p: RunPlan, rec: Recording) -> MeasureOutcome:
    """Measure the plan into the recording; a crashed core marks the run interrupted."""
    meta = rec.metadata
    warnings = W.load(meta.get("loadavg"), meta.get("cores"),
                      others=rec.load_start.others if rec.load_start else None)
    for a in p.missing:
        warnings.append(W.BenchWarning(W.Kind.UNSUPPORTED, a, "no chosen library implements it "
                                       "with the chosen operations; not measured"))
    warnings += W.libraries_missing(p.unavailable)
    rec.warn(warnings)
    # One served core per library for the whole run, stopped on every way out.
    with CoreSession(p.core) as session:
        runner = PrimitiveRunner(p.core, rec, p.selection, session=session)
        try:
            if p.rounds or p.adaptive:
                out = run_in_rounds(runner, p.items, p.rounds, random.Random(p.seed),
                                    adaptive=Sequential() if p.adaptive else None,
                                    budget_s=p.selection.run_budget_s)
            else:
                out = runner.run(p.items)
        finally:   # a stopped run keeps the fits of what finished
            runner.store_fits(p.headline)
    rec.warn(W.frequency(meta.get("governor")))
    updates: dict = {"freq_end_hz": out.freq_end_hz} if out.freq_end_hz else {}
    if out.preamble.get("freq_hz"):
        updates["freq_hz"] = out.preamble["freq_hz"]
    if out.core_wall_ns > 0:
        updates[CORE_SHARE_KEY] = share_of(out.core_cpu_ns, out.core_wall_ns)
    if out.clock is not None:
        updates["clock_trust"] = {"trusted": out.clock.trusted, "freq_hz": out.clock.freq_hz,
                                  "reason": out.clock.reason, "spread": out.clock.spread}
    if out.libraries:
        updates["libraries"] = {**meta.get("libraries", {}), **metadata.from_core(
            None, out.libraries).get("libraries", {})}
    if updates:
        rec.update_metadata(updates)
    if not out.crashed:
        rec.warn(history.check(rec.store, rec.run_id))
    if p.threads > 1 and not out.crashed:
        _measure_threads(p, rec)
    if out.crashed:
        rec.status = "interrupted"
    elif not out.measured & _asked_libraries(p):
        # Nothing measured (every algorithm refused by its vectors, a malformed vector file):
        # not a complete run, and the reasons the warnings gave are the reason.
        rec.status = "failed"
        return MeasureOutcome(nothing_measured=_why_nothing(rec.warnings))
    return MeasureOutcome(crashed=out.crashed)


def _asked_libraries(p: RunPlan) -> set[str]:
    """The libraries the run was for: those of the plan beside the reference rows, or the
    reference rows when they alone were asked for."""
    libs = {i.lib for i in p.items}
    return libs - {"ref"} or libs


#: Warnings that say why an algorithm was not timed.
_NOT_TIMED = (W.Kind.KAT_FAILED, W.Kind.UNSUPPORTED, W.Kind.CORE_CRASHED)


def _why_nothing(warnings: list[W.BenchWarning]) -> str:
    """One line: the first reasons the run's warnings give for what was not timed."""
    reasons = [f"{w.subject}: {w.text}" for w in warnings if w.kind in _NOT_TIMED]
    if not reasons:
        return "no point was measured"
    more = f" (and {len(reasons) - 2} more)" if len(reasons) > 2 else ""
    return "; ".join(reasons[:2]) + more


def _thread_samples(p: RunPlan) -> int:
    """Samples of each process in a --threads measurement: --samples, else the preset's."""
    return max(p.selection.samples or p.preset.samples, 5)


def _measure_threads(p: RunPlan, rec: Recording) -> None:
    """Every planned item at the table's size, by one process and by N at once; stored."""
    sizes, head, sel = p.selection.sizes, p.headline, p.selection
    size = head if head in sizes else min(sizes, key=lambda s: (abs(s - head), -s), default=None)
    for it in p.items:
        if it.lib == "ref" or size is None:
            continue
        try:
            tp, why = thr.measure(p.core, it.lib, it.algo, it.op, size, p.threads,
                                  samples=_thread_samples(p), min_sample_ms=sel.min_sample_ms)
        except Exception as e:  # a crashed core: say so, keep the rest
            tp, why = None, str(e)
        if tp is None:
            rec.warn([W.BenchWarning(W.Kind.THREADS, f"{it.lib} {it.algo} {it.op}",
                                     f"not measured with {p.threads} threads: {why}")])
            continue
        rec.add(thr.to_result(tp))
        if tp.efficiency > thr.EFFICIENCY_NOISE:
            rec.warn([W.BenchWarning(W.Kind.THREADS, f"{it.lib} {it.algo} {it.op}",
                                     f"scaling efficiency {tp.efficiency:.2f} is above 1: the "
                                     "single and the paired figures differ by noise here, so "
                                     "it cannot be told apart from 1")])


def view(screen: Screen, run: Run, results: list[Result], warnings: list[StoredWarning],
         headline: int | None = None) -> None:
    """The results table (and the scaling table) of a stored primitive run."""
    head = headline or run.args.get("headline_size", HEADLINE_SIZE)
    table = format_results(results, head)
    if table is not None:
        disp.display_results(screen.console, table,
                             see_all=f"`cipherbench show {run.id} --lib {{libs}}`")
        if table.has_suspect:
            screen.console.print(SUSPECT_LEGEND, markup=False, highlight=False)
    else:
        screen.console.print("no results stored for this run", markup=False)
    scaling = thr.format_threads(results)
    if scaling is not None:
        screen.console.print("scaling across cores: aggregate = sum of the processes, "
                             "efficiency = aggregate / (N x 1 thread)", markup=False,
                             highlight=False)
        disp.display_rows(screen.console, *scaling)


def answer_of(run: Run, results: list[Result], headline: int | None = None) -> RunAnswer | None:
    """The run's answer as a record (``display.run_answer``), None when it has none."""
    found = run_answer(results, headline or run.args.get("headline_size", HEADLINE_SIZE))
    return found if found is not None and found.kinds else None


def answer_lines(run: Run, results: list[Result], headline: int | None = None,
                 width: int = 100, advise_targets: tuple[str, ...] = ()) -> list[str]:
    """The run's answer in lines of at most ``width``: per kind the fastest library and the
    fastest sound choice, then the ``advise`` command for the user's task."""
    found = answer_of(run, results, headline)
    return [] if found is None else format_answer(found, width, advise_targets)


def answer(screen: Screen, run: Run, results: list[Result], headline: int | None = None,
           advise_targets: tuple[str, ...] = ()) -> None:
    """The run's answer, its last lines."""
    lines = answer_lines(run, results, headline, screen.console.width, advise_targets)
    if lines:
        screen.console.print()
    for line in lines:
        screen.console.print(line, markup=False, highlight=False)
