# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench tls``: the suites of one library in randomized interleaved rounds
(``scenarios.rounds``), and each suite against the library's default suite, paired per round.

Each round starts one short core process per suite (``cipherbench-core tls --suites S`` at
every write size), the suites in a new random order, so a slow moment of the machine falls
on every suite alike. A round's figure of a point is its fastest sample that kept the CPU
(``stats.best_point``); a point's figure is the median of its rounds with its interval over
the rounds. Against the default suite the ratio is taken in every round that measured both
(``verdict``). Rounds repeat until ``n_rounds``, or stop earlier by the planned looks of
``rounds.PlannedStop`` (every suite's figure precise or its ratio to the default decided) or
once the budget is spent, never before a verdict has its rounds. Refusals and failures are stored
the moment they come, and the suite leaves the later rounds.

The loopback transfers (``openssl s_server``/``s_client``) are measured the same way:
``loopback_in_rounds``, one transfer per suite and round.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Sequence

from cipherbench.analysis import stats
from cipherbench.analysis import verdict as V
from cipherbench import run_warnings as W
from cipherbench.cores.records import CoreError, Library, Point, Preamble
from cipherbench.scenarios.rounds import PlannedStop, Round, Sequential, rounds, settled
from cipherbench.scenarios.tls import loopback as lb
from cipherbench.scenarios.tls.core_tls import SCENARIO, TlsRunner, label
from cipherbench.scenarios.tls.suites import Suite
from cipherbench.store import Result
from cipherbench.units import rate_interval

#: The suite each library negotiates when nothing is configured: the first of its default
#: TLS 1.3 list (OpenSSL's TLS_DEFAULT_CIPHERSUITES; GnuTLS's NORMAL priority), the reference
#: of the ratios.
DEFAULT_SUITES = {"openssl": "TLS_AES_256_GCM_SHA384", "gnutls": "TLS_AES_256_GCM_SHA384"}
FALLBACK_DEFAULT = "TLS_AES_256_GCM_SHA384"


def default_suite(lib: str, suites: Sequence[Suite], known: Sequence[Suite]) -> Suite | None:
    """The library's default suite (from the known ones), or the first chosen when it has
    none the core knows."""
    name = DEFAULT_SUITES.get(lib, FALLBACK_DEFAULT)
    for s in list(suites) + list(known):
        if s.iana == name:
            return s
    return suites[0] if suites else None


@dataclass
class LibRounds:
    """One library's rounds: per round, each suite's points (size -> the core's record)."""

    lib: str
    done: list[Round[str, dict[int, Point]]] = field(default_factory=list)

    def figures(self, iana: str, size: int) -> dict[int, float]:
        """Round index -> that round's figure (ns per write) of one point."""
        out = {}
        for r in self.done:
            p = r.samples.get(iana, {}).get(size)
            if p is not None:
                out[r.index] = round_figure(p)
        return out


def round_figure(p: Point) -> float:
    """A round's figure of a point: its fastest sample that kept the CPU (ns per write)."""
    return stats.best_point(p.wall_ns, p.cpu_ns, p.iters).figure


def paired(base: dict[int, float], other: dict[int, float]) -> V.PairedRatio | None:
    """Speed of ``other`` against ``base`` from per-round times (rounds that have both)."""
    both = sorted(set(base) & set(other))
    if not both:
        return None
    return V.paired_ratio([base[i] for i in both], [other[i] for i in both])


def _answered(figs: dict[tuple[str, int], dict[int, float]], base: str | None,
              seq: Sequential, precision: float) -> bool:
    """At a look: every suite's figure precise, or its ratio to the default decided, at every
    size (``rounds.settled``)."""
    for (iana, size), f in figs.items():
        if not f:
            continue
        b = figs.get((base, size)) if base else None
        pr = paired(b, f) if b and iana != base else None
        if not settled(list(f.values()), pr.ratios if pr else (), seq, precision,
                       is_reference=pr is None):
            return False
    return True


def run_lib(runner: TlsRunner, lib: str, suites: Sequence[Suite], default: Suite | None,
            n_rounds: int, rng: random.Random, *, budget_s: float,
            clock: Callable[[], float]) -> LibRounds:
    """The transfers of one library in rounds; every point stored at the end (a stop or a
    crash stores what the finished rounds measured, then goes on)."""
    p = runner.plan
    out = LibRounds(lib)
    sizes = list(p.sizes)

    def one(iana: str, index: int) -> dict[int, Point] | None:
        args = runner._base_args(lib, p.samples) + ["--suites", iana, "--sizes",
                                                     ",".join(str(x) for x in sizes)]
        runner.rec.progress.working(f"{lib} {iana}")
        got: dict[int, Point] = {}
        error = None
        with runner._stream(args) as stream:
            for rec in stream:
                if isinstance(rec, Point) and rec.kind == "point" and rec.size is not None:
                    got[int(rec.size)] = rec
                elif isinstance(rec, CoreError):
                    error = rec
                elif isinstance(rec, Preamble):
                    runner.out.preamble = runner.out.preamble or rec.raw
                elif isinstance(rec, Library):
                    runner.out.libraries[rec.lib] = rec.raw
        if error is not None:
            runner._store_error(error)     # stored now, and counted on the progress
            return None
        runner.rec.progress.done(f"{lib} {iana}", len(sizes))
        if not out.done or out.done[-1].index != index:
            out.done.append(Round(index, []))
        out.done[-1].order.append(iana)
        out.done[-1].samples[iana] = got
        return got

    t0 = clock()
    base = default.iana if default else None
    seq = Sequential.within(n_rounds)

    def answered(done) -> bool:  # noqa: ARG001 - ``out`` holds the rounds
        figs = {(s.iana, z): out.figures(s.iana, z) for s in suites for z in sizes}
        return _answered(figs, base, seq, p.precision)

    stop = PlannedStop(seq, answered, budget_s=budget_s, clock=clock)
    try:
        rounds([s.iana for s in suites], one, n_rounds, rng, enough=stop)
    finally:
        _store(runner, out, suites, sizes, base, clock() - t0, stop.by)
    return out


def _store(runner: TlsRunner, out: LibRounds, suites: Sequence[Suite], sizes: list[int],
           base: str | None, spent_s: float, stopped_by: str = "rounds") -> None:
    p = runner.plan
    n = len(out.done)
    for s in suites:
        for size in sizes:
            figs = out.figures(s.iana, size)
            if not figs:
                continue
            at = sorted(figs)
            per_round = [figs[i] for i in at]
            fig = stats.robust(per_round, best_of=1)
            first = next(r.samples[s.iana][size] for r in out.done
                         if size in r.samples.get(s.iana, {}))
            stable = fig.rel_half_width <= p.precision
            text = label(first)
            if not stable and n:
                runner._warn(W.not_stable(text, fig.rel_half_width, p.precision, p.budget_s,
                                          what=f"median of {n} rounds"))
            ratios = {}
            if base and s.iana != base:
                pr = paired(out.figures(base, size), figs)
                if pr is not None:
                    ratios = {"paired_ratios": [round(x, 5) for x in pr.ratios]}
            g = s.grade
            extra = {"proto": first.raw.get("proto"), "iters": first.iters,
                     "samples_ns": [round(x, 3) for x in per_round], "rounds_at": at,
                     "rounds": n, "round_best_ns": [round(x, 3) for x in per_round],
                     "stable": stable, "stopped_by": stopped_by, "spent_s": round(spent_s, 3),
                     "ns_per_write": fig.figure, "lib_suite": first.raw.get("suite"),
                     "default_suite": base, "grade": g.level, "grade_reason": g.reason,
                     "grade_reference": g.reference, "kx": s.kx, "cipher": s.cipher,
                     "mac": s.mac, "cpu_ratio": _cpu_ratio(first), **s.names(), **ratios}
            med, lo, hi = rate_interval(size, fig.figure, fig.ci_low, fig.ci_high)
            if med is None:   # no positive time, no rate
                continue
            runner.rec.add(Result(SCENARIO, out.lib, s.iana, "transfer", size, "bytes_per_s",
                                  "B/s", median=med, ci_low=lo, ci_high=hi,
                                  n_samples=len(per_round), cv=stats.cv(per_round)
                                  if len(per_round) > 1 else None, extra=extra))
            runner.out.points += 1


def _cpu_ratio(p: Point) -> float | None:
    r = p.cpu_ratio()
    return round(r, 4) if r is not None else None


# -- loopback ----------------------------------------------------------------------------------

@dataclass
class LoopRounds:
    """The loopback transfers of every suite, per round: suite -> seconds per transfer."""

    done: list[Round[str, float]] = field(default_factory=list)
    setup_s: dict[str, list[float]] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)

    def times(self, iana: str) -> dict[int, float]:
        return {r.index: r.samples[iana] for r in self.done if iana in r.samples}


def loopback_in_rounds(loop: lb.Loopback, suites: Sequence[Suite], n_rounds: int,
                       rng: random.Random, *, budget_s: float, precision: float,
                       base: str | None, clock: Callable[[], float],
                       on_done: Callable[[str], None] = lambda s: None,
                       out: LoopRounds | None = None) -> LoopRounds:
    """One loopback transfer per suite and round (the first of each suite compared with the
    payload), in rounds as the core's transfers."""
    out = out if out is not None else LoopRounds()
    by = {s.iana: s for s in suites}

    def one(iana: str, index: int) -> float | None:
        try:
            t, setup = loop.fetch(by[iana], verify=iana not in out.setup_s)
        except lb.LoopbackError as e:
            out.failed[iana] = str(e)
            return None
        out.setup_s.setdefault(iana, []).append(setup)
        if not out.done or out.done[-1].index != index:
            out.done.append(Round(index, []))
        out.done[-1].order.append(iana)
        out.done[-1].samples[iana] = t
        on_done(iana)
        return t

    seq = Sequential.within(n_rounds)

    def answered(done) -> bool:  # noqa: ARG001 - ``out`` holds the rounds
        return _answered({(s.iana, 0): out.times(s.iana) for s in suites}, base, seq,
                         precision)

    rounds([s.iana for s in suites], one, n_rounds, rng,
           enough=PlannedStop(seq, answered, budget_s=budget_s, clock=clock))
    return out
