# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench gpg`` as a scenario: real ``gpg --symmetric`` (and age) per cipher in a private
GnuPG home, measured in randomized interleaved rounds (``interleaved``) beside gpg's own
default cipher, with the same cipher alone from the core; estimate, measure inside a
``Recording``, draw a stored run with each cipher's paired ratio to the default and its
verdict (faster, slower, or cannot tell here).
"""
from __future__ import annotations

import math
import os
import random
from pathlib import Path
from dataclasses import dataclass, field

from cipherbench.machine import metadata
from cipherbench.analysis import stats
from cipherbench.analysis.estimate import Estimate
from cipherbench.analysis import verdict as V
from cipherbench.cores.core_client import Core
from cipherbench.cores.combined import Cores
from cipherbench.display.console import display_fitted, display_rows
from cipherbench.errors import EnvironmentProblem, UserError
from cipherbench.scenarios import Screen
from cipherbench.scenarios.gpg import cipher_alone, figure, interleaved, programs, tables
from cipherbench.scenarios.gpg import disk as disk_mod
from cipherbench.scenarios.gpg.home import GpgHomeError
from cipherbench.scenarios.gpg.candidates import Candidate, CandidateFailed, Measured
from cipherbench.scenarios.gpg.here import LocalGpg
from cipherbench.scenarios.gpg.on_host import HostGpg
from cipherbench.scenarios.outcome import MeasureOutcome
from cipherbench.scenarios.recording import Recording
from cipherbench.store import Result, Run, StoredWarning
from cipherbench.units import format_bytes, rate_interval

NAME = "gpg"
UNIT = "calls"
DEFAULT_BACKUP_SIZE = 50 << 30
#: A whole gpg call per sample: 2% is what its spread allows in a few seconds.
DEFAULT_PRECISION = 0.02
#: Rounds at most (fewer when every figure is precise or the budget is spent, never fewer
#: than a verdict needs).
DEFAULT_ROUNDS = V.RECOMMENDED_ROUNDS


def _new_seed() -> int:
    return random.SystemRandom().randrange(1 << 31)


@dataclass
class GpgPlan:
    """One stored gpg run."""

    gpg: str
    gpg_version: str
    chosen: list[Candidate]
    want: list[str] | None
    size: int
    ops: list[str]
    precision: float
    budget_s: float
    backup_size: int = DEFAULT_BACKUP_SIZE
    age: tuple[str, str] | None = None       # (program, version)
    core: Core | Cores | None = None         # None: no cipher-alone rows
    env: dict = field(default_factory=dict)   # the environment gpg and age get
    notes: list[str] = field(default_factory=list)
    cpu: int | None = None                   # the CPU gpg and age run on (--cpu K)
    rounds: int = DEFAULT_ROUNDS             # interleaved rounds at most
    seed: int = field(default_factory=_new_seed)   # of the rounds' random orders
    disk: str | None = None                  # --disk: a rate, or a directory to measure
    host: str | None = None                  # --host: gpg measured there (``on_host``)

    def args(self) -> dict:
        out = {"algos": self.want, "size": self.size, "ops": self.ops,
               "backup_size": self.backup_size, "precision": self.precision, "cpu": self.cpu,
               "budget": self.budget_s, "rounds": self.rounds, "seed": self.seed,
               "disk": self.disk}
        if self.host:
            out["host"] = self.host
        return out

    def programs(self) -> dict:
        """The versions of gpg and age (as they name themselves), stored with the run."""
        return {"gpg": self.gpg_version, **({"age": self.age[1]} if self.age else {})}

    def metadata(self) -> dict:
        """This machine's metadata and the programs (a host's: ``RemoteHost.run_metadata``
        over ``programs``)."""
        meta = metadata.collect()
        meta["programs"] = self.programs()
        return meta


#: The defaults: 32 MiB per call is a few tenths of a second through gpg, long beside the
#: fixed cost (the key derivation, measured apart on an empty message in the same rounds);
#: the budget (3.5 s per algorithm and operation) ends the rounds of every algorithm and
#: age after 6-12 rounds, so the default answers in about two minutes on a 2-core machine.
DEFAULT_SIZE = "32M"
DEFAULT_BUDGET_S = 3.5

#: gpg's own start and key derivation per call, and a pessimistic 150 MB/s through it.
_CALL_S = 0.15
_RATE_BPS = 150e6


def _candidates_with_default(p: GpgPlan) -> int:
    """Candidates the rounds measure: the chosen ones, and gpg's default cipher when a list
    was asked for (it may be in it: the estimate counts it once more, to be safe)."""
    return len(p.chosen) + (1 if p.gpg and p.want is not None else 0)


def _per_round_s(p: GpgPlan, n: int) -> float:
    """Seconds of one round of ``n`` candidates: every operation on the data and, with
    encryption, the empty message."""
    one = _CALL_S + p.size / _RATE_BPS
    return n * (len(p.ops) * one + (_CALL_S if "encrypt" in p.ops else 0.0))


def expected_rounds(p: GpgPlan, n: int) -> int:
    """The rounds the budget is expected to allow: all of them, or as many as fit in it
    (never fewer than a verdict needs), the round that passes it finished."""
    return min(p.rounds, max(V.MIN_ROUNDS,
                             math.ceil(p.budget_s * n * len(p.ops) / _per_round_s(p, n))))


def estimate_s(p: GpgPlan) -> Estimate:
    """Each candidate's check (a round trip of the data), then the rounds the budget allows
    (``expected_rounds`` on a quiet machine; a budget of wall time, ``analysis.estimate``)."""
    n = _candidates_with_default(p)
    check = n * (2 * (_CALL_S + p.size / _RATE_BPS) + _CALL_S)
    return Estimate(check + 2.0 + (2.0 if p.core else 0.0), _per_round_s(p, n), p.rounds,
                    budget_s=p.budget_s * n * len(p.ops), min_rounds=V.MIN_ROUNDS)


def measure(p: GpgPlan, rec: Recording, place: HostGpg | None = None) -> MeasureOutcome:
    """Cipher-alone rows from the core first, then every candidate through gpg (or age) in
    randomized interleaved rounds, beside gpg's own default cipher; on this machine, or on
    the host of ``place`` (``on_host``: opened by the caller, which read gpg there)."""
    for note in p.notes:
        rec.note(note)
    if p.disk and os.path.isdir(p.disk) and place is None:
        rec.progress.working(f"measuring the disk under {p.disk}")
        d = disk_mod.measure(Path(p.disk))
        rec.add(Result("gpg", "disk", str(Path(p.disk).resolve()), "write", disk_mod.PROBE_BYTES,
                       "bytes_per_s", "B/s", median=d.bps, n_samples=1,
                       extra={"source": d.source}))
    try:
        if place is not None:
            _rounds(p, rec, place)
        else:
            with LocalGpg(p.gpg, p.age[0] if p.age else None, p.env or None, p.cpu) as here:
                _rounds(p, rec, here)
    except GpgHomeError as e:
        raise EnvironmentProblem(str(e))
    # a candidate that failed has an ``error`` row per operation, its message said already
    return MeasureOutcome(failed=sum(r.metric == "error"
                                     for r in rec.store.results(rec.run_id)))


def _rounds(p: GpgPlan, rec: Recording, where: LocalGpg | HostGpg) -> None:
    """gpg's default cipher, the cipher-alone rows, the data, then the rounds, stored."""
    chosen = list(p.chosen)
    failed: dict[Candidate, str] = {}
    default = None
    if p.gpg:
        rec.progress.working("asking gpg for its default cipher")
        default = where.default_cipher()
        if Candidate("gpg", default) not in chosen:
            rec.note(f"{default} is measured too: it is gpg's own default here, the "
                     "reference of the ratios")
            chosen.append(Candidate("gpg", default))
    if p.core is not None:
        _cipher_alone(p.core, [c.algo for c in chosen if c.tool == "gpg"], rec)
    rec.progress.working("preparing data")
    where.prepare(p.size, len(chosen) + 1)
    if p.age is not None and any(c.tool == "age" for c in chosen):
        try:
            where.start_age()
        except CandidateFailed as e:
            failed[Candidate("age", "chacha20-poly1305")] = str(e)
    live = [c for c in chosen if c not in failed]
    slots = interleaved.slots_for(live, p.ops, p.size)
    base = {op: interleaved.Slot(Candidate("gpg", default), op, p.size)
            for op in p.ops} if default else {}
    rec.progress.set_total(len(slots) * expected_rounds(p, len(live)))
    rec.progress.working("checking every cipher end to end")
    out = interleaved.RoundsOutcome(failed=failed)
    try:
        interleaved.measure_in_rounds(
            {}, slots, b"", {}, n_rounds=p.rounds, rng=random.Random(p.seed),
            budget_s=p.budget_s * len(live) * len(p.ops), precision=p.precision,
            base=base, on_call=lambda s: rec.progress.done(s.label), out=out,
            calls=where.calls())
    except (KeyboardInterrupt, EnvironmentProblem):
        # stopped, or the host lost: the rounds measured so far are kept (too few give no
        # verdict)
        _store_rounds(p, rec, [c for c in chosen if c not in out.failed], slots, out,
                      default)
        raise
    _store_rounds(p, rec, chosen, slots, out, default)


def _store_rounds(p: GpgPlan, rec: Recording, chosen: list[Candidate],
                  slots: list[interleaved.Slot], out: interleaved.RoundsOutcome,
                  default: str | None) -> None:
    """Every candidate's rows from the rounds, or its failure."""
    for cand in chosen:
        version = p.gpg_version if cand.tool == "gpg" else (p.age[1] if p.age else "")
        if cand in out.failed:
            for op in p.ops:
                rec.add(result(Measured(cand, op, p.size, error=out.failed[cand]), version))
                rec.error(f"{cand.tool} {cand.algo} {op}: {out.failed[cand]}")
            continue
        for slot in slots:
            if slot.cand == cand:
                r = round_result(out, slot, version, default, p.precision)
                if r is not None:
                    rec.add(r)


def _cipher_alone(core: Core | Cores, gpg_algos: list[str], rec: Recording) -> None:
    """The core's rows of each cipher alone in CFB mode, and of SHA-1 (the MDC)."""
    try:
        alone, sha = cipher_alone.measure(core, gpg_algos)
    except UserError as e:
        rec.note(f"cipher-alone figures skipped: {e}")
        return
    for g, a in alone.items():
        r = alone_result(g, a, "cipher-alone")
        if r:
            rec.add(r)
    if sha is not None and (r := alone_result(None, sha, "mdc-hash")):
        rec.add(r)


def round_result(out: interleaved.RoundsOutcome, slot: interleaved.Slot, version: str,
                 default: str | None, precision: float) -> Result | None:
    """One slot measured in rounds as a stored row: its robust per-call figure (CPU time of
    the fastest call that kept the CPU, ``figure``) with its interval, and each round's wall
    and CPU time with the round's index and the rounds whose call lost the CPU (so figures
    and paired ratios can be computed again from the store); None when no round measured
    it."""
    at, walls = out.walls(slot)
    fig = out.figure(slot)
    if not walls or fig is None:
        return None
    s = fig.robust.summary()
    cpus = out.cpus(slot)
    tool = "gnupg" if slot.cand.tool == "gpg" else "age"
    extra = {"figure": fig.kind, "wall_s": fig.wall_s,
             "cpu_s": stats.median(cpus) if cpus else None,
             "samples_s": walls, "cpu_samples_s": cpus, "rounds_at": at,
             "lost_cpu_at": [at[i] for i in fig.dropped], "rounds": len(out.done),
             "stable": stats.is_precise(s, precision), "tool_version": version,
             "default_cipher": default}
    if slot.size == 0:
        return Result("gpg", tool, slot.cand.algo, slot.op, 0, "seconds", "s",
                      median=s.median, ci_low=s.ci_low, ci_high=s.ci_high, n_samples=len(walls),
                      cv=s.cv, extra=extra)
    med, lo, hi = rate_interval(slot.size, s.median, s.ci_low, s.ci_high, per=1)
    if med is None:   # no positive time, no rate
        return None
    extra["canonical"] = programs.GPG_TO_CFB.get(slot.cand.algo.upper(), "")
    return Result("gpg", tool, slot.cand.algo, slot.op, slot.size, "bytes_per_s", "B/s",
                  median=med, ci_low=lo, ci_high=hi, n_samples=len(walls), cv=s.cv, extra=extra)


def result(m: Measured, version: str) -> Result:
    """One gpg (or age) measurement, or its failure, as a stored row."""
    tool = "gnupg" if m.candidate.tool == "gpg" else "age"
    if not m.error and m.stability is not None and m.size == 0:
        # an empty message: the run's fixed cost, a duration (a rate of 0 bytes means nothing)
        s = m.stability.summary
        return Result("gpg", tool, m.candidate.algo, m.op, 0, "seconds", "s",
                      median=s.median, ci_low=s.ci_low, ci_high=s.ci_high, n_samples=s.n,
                      cv=s.cv, extra={"wall_s": s.median, "samples_s": m.stability.samples,
                                      "stable": m.stability.stable, "tool_version": version})
    if m.error or m.stability is None:
        return Result("gpg", tool, m.candidate.algo, m.op, m.size, "error", "", 0.0,
                      extra={"message": m.error or "not measured", "tool_version": version})
    s = m.stability.summary
    med, lo, hi = rate_interval(m.size, s.median, s.ci_low, s.ci_high, per=1)
    if med is None:
        return Result("gpg", tool, m.candidate.algo, m.op, m.size, "error", "", 0.0,
                      extra={"message": "no positive time measured", "tool_version": version})
    return Result("gpg", tool, m.candidate.algo, m.op, m.size, "bytes_per_s", "B/s",
                  median=med, ci_low=lo, ci_high=hi, n_samples=s.n, cv=s.cv,
                  extra={"wall_s": s.median, "cpu_s": stats.median(m.cpu_s) if m.cpu_s else None,
                         "samples_s": m.stability.samples, "stable": m.stability.stable,
                         "tool_version": version,
                         "canonical": programs.GPG_TO_CFB.get(m.candidate.algo.upper(), "")})


def alone_result(gpg_algo: str | None, a: cipher_alone.Alone, role: str) -> Result | None:
    """The core's figure of a cipher alone (CFB, or SHA-1 for the MDC) as a stored row."""
    if a.summary is None:
        return None
    s = a.summary
    size = cipher_alone.SIZE
    med, lo, hi = rate_interval(size, s.median, s.ci_low, s.ci_high)
    if med is None:   # no positive time, no rate
        return None
    return Result("gpg", cipher_alone.LIB, a.algo, a.op, size, "bytes_per_s", "B/s",
                  median=med, ci_low=lo, ci_high=hi, n_samples=s.n, cv=s.cv,
                  extra={"role": role, "gpg_algo": gpg_algo, "ns_per_op": s.median})


def view(screen: Screen, run: Run, results: list[Result],
         warnings: list[StoredWarning]) -> None:  # noqa: ARG001
    """The gpg tables of a stored gpg run (its answer: ``answer``)."""
    backup_size = run.args.get("backup_size") or DEFAULT_BACKUP_SIZE
    size_text = format_bytes(backup_size)
    rows = tables.rows_from_results(results)
    header, cells = tables.format_rows(rows, backup_size, size_text)
    size = run.args.get("size")
    display_rows(screen.console, header, cells,
                 title=f"gpg --symmetric, {format_bytes(size) if size else '?'} per run "
                       f"(run {run.id}); {tables.figure_note(results)}")
    vs_header, vs_cells = tables.format_versus_rows(rows)
    if vs_cells:
        display_fitted(screen.console, vs_header, vs_cells, title=tables.versus_title(
                           rows, tables.figure_kind(results) == figure.CPU),
                       keep=2, right=[vs_header[2], vs_header[3]], cap=32)
    cost_header, cost_cells = tables.format_cost_rows(rows)
    if cost_cells:
        display_rows(screen.console, cost_header, cost_cells, title="where the time goes")
        screen.console.print(tables.LEGEND, markup=False)


def answer_lines(run: Run, results: list[Result]) -> list[str]:
    """The verdict of a stored gpg run: the fastest sound choice for the backup and its
    time (and whether the disk or gpg decides it)."""
    backup_size = run.args.get("backup_size") or DEFAULT_BACKUP_SIZE
    return [tables.answer(tables.rows_from_results(results), backup_size,
                          format_bytes(backup_size), tables.disk_of(run.args, results))]


def answer(screen: Screen, run: Run, results: list[Result]) -> None:
    """The verdict, the command's last line."""
    for line in answer_lines(run, results):
        screen.console.print(line, markup=False)


def summary(run: Run, results: list[Result]) -> dict:
    """The table's rows and the backup answer, for the export document beside the results."""
    backup_size = run.args.get("backup_size") or DEFAULT_BACKUP_SIZE
    rows = tables.rows_from_results(results)
    gone, n = tables.calls_left_out(results)
    disk = tables.disk_of(run.args, results)
    times = {(r.tool, r.algo): r.backup_time(backup_size, disk) for r in rows}
    return {"backup_size": backup_size, "figure": tables.figure_kind(results),
            "calls_left_out": gone, "calls": n,
            "backup": {"disk_bytes_per_s": disk.bps if disk else None,
                       "disk_source": disk.source if disk else None,
                       "answer": tables.answer(rows, backup_size, format_bytes(backup_size),
                                               disk)},
            "rows": [{"tool": r.tool, "algo": r.algo, "grade": r.grade.level if r.grade else None,
                      "encrypt_Bps": r.encrypt, "decrypt_Bps": r.decrypt,
                      "cipher_alone_Bps": r.alone, "cipher_mdc_alone_Bps": r.crypto,
                      "gpg_overhead": r.overhead, "overhead_within_noise": r.within_noise,
                      "fixed_s": r.fixed_s,
                      "backup_seconds": r.backup_seconds(backup_size), "error": r.error,
                      "backup_wall_seconds": _wall(times[(r.tool, r.algo)]),
                      "backup_decided_by": _decides(times[(r.tool, r.algo)]),
                      "is_default": r.is_default,
                      "vs_default": {op: _verdict_doc(v) for op, v in r.versus.items()}}
                     for r in rows]}


def _wall(t) -> float | None:
    return None if t is None else t.total_s


def _decides(t) -> str | None:
    return None if t is None else t.decides


def _verdict_doc(v: V.Verdict) -> dict:
    """A verdict against the default for the export: the paired speed ratio, its interval,
    the rounds, the state and its text."""
    return {"ratio": v.ratio, "ci_low": v.low, "ci_high": v.high, "rounds": v.n_rounds,
            "verdict": v.state, "within": v.within, "text": v.text()}
