"""``cipherbench gpg`` as a scenario: real ``gpg --symmetric`` (and age) per cipher in a private
GnuPG home, beside the same cipher alone from the core; estimate, measure inside a
``Recording``, draw a stored run.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from cipherbench import metadata, stats
from cipherbench.core_client import Core
from cipherbench.display.console import display_rows
from cipherbench.errors import EnvironmentProblem, UserError
from cipherbench.scenarios import Screen
from cipherbench.scenarios.gpg import cipher_alone, programs, tables
from cipherbench.scenarios.gpg.home import GpgHomeError, private_gnupg_home
from cipherbench.scenarios.gpg.runner import (FIXED_COST_BUDGET_S, AgeTool, Candidate,
                                              CandidateFailed, GpgTool,
                                              Measured, measure_candidate, random_data)
from cipherbench.scenarios.recording import Recording
from cipherbench.store import Result, Run, StoredWarning
from cipherbench.units import format_bytes, rate_interval

NAME = "gpg"
UNIT = "ciphers"
DEFAULT_BACKUP_SIZE = 50 << 30
#: A whole gpg call per sample: 2% is what its spread allows in a few seconds.
DEFAULT_PRECISION = 0.02


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
    core: Core | None = None                 # None: no cipher-alone rows
    env: dict = field(default_factory=dict)   # the environment gpg and age get
    notes: list[str] = field(default_factory=list)
    cpu: int | None = None                   # the CPU gpg and age run on (--cpu K)

    def args(self) -> dict:
        return {"algos": self.want, "size": self.size, "ops": self.ops,
                "backup_size": self.backup_size, "precision": self.precision, "cpu": self.cpu}

    def metadata(self) -> dict:
        meta = metadata.collect()
        meta["programs"] = {"gpg": self.gpg_version,
                            **({"age": self.age[1]} if self.age else {})}
        return meta


#: The defaults: 32 MiB per run is a few tenths of a second through gpg, long beside the
#: fixed cost (measured apart on an empty message) yet short enough that every algorithm and
#: age answer in under two minutes on a 2-core machine.
DEFAULT_SIZE = "32M"
DEFAULT_BUDGET_S = 2.5

#: gpg's own start and key derivation per call, and a pessimistic 150 MB/s through it.
_CALL_S = 0.15
_RATE_BPS = 150e6
_MIN_SAMPLES = 6


def estimate_s(p: GpgPlan) -> float:
    """Each candidate: a round trip of the data and of an empty message (the check), then for
    each operation samples of the data until precise or its budget is spent, and the same on
    the empty message within the shorter fixed-cost budget."""
    one = _CALL_S + p.size / _RATE_BPS
    check = 2 * one + 2 * _CALL_S
    bulk = min(p.budget_s, _MIN_SAMPLES * one) + one      # a last batch may pass the budget
    fixed = min(p.budget_s, FIXED_COST_BUDGET_S, _MIN_SAMPLES * _CALL_S) + _CALL_S
    return len(p.chosen) * (check + len(p.ops) * (bulk + fixed)) + (2.0 if p.core else 0.0)


def measure(p: GpgPlan, rec: Recording) -> None:
    """Cipher-alone rows from the core first, then every candidate through gpg (or age)."""
    for note in p.notes:
        rec.note(note)
    if p.core is not None:
        try:
            alone, sha = cipher_alone.measure(p.core, [c.algo for c in p.chosen
                                                       if c.tool == "gpg"])
        except UserError as e:
            rec.note(f"cipher-alone figures skipped: {e}")
            alone, sha = {}, None
        for g, a in alone.items():
            r = alone_result(g, a, "cipher-alone")
            if r:
                rec.add(r)
        if sha is not None and (r := alone_result(None, sha, "mdc-hash")):
            rec.add(r)
    try:
        with private_gnupg_home(p.env or None) as home:
            rec.progress.working("preparing data")
            data = random_data(p.size)
            tools: dict[str, object] = {"gpg": GpgTool(p.gpg, home)} if p.gpg else {}
            for cand in p.chosen:
                rec.progress.working(f"{cand.tool} {cand.algo}")
                try:
                    if cand.tool == "age" and "age" not in tools:
                        assert p.age is not None
                        tools["age"] = AgeTool(p.age[0], home, home.env)
                    measured = measure_candidate(tools[cand.tool], cand, data, home.env,
                                                 precision=p.precision, budget_s=p.budget_s,
                                                 ops=p.ops, cpu=p.cpu)
                except CandidateFailed as e:
                    measured = [Measured(cand, op, p.size, error=str(e)) for op in p.ops]
                version = p.gpg_version if cand.tool == "gpg" else (p.age[1] if p.age else "")
                for m in measured:
                    rec.add(result(m, version))
                    if m.error:
                        rec.error(f"{cand.tool} {cand.algo} {m.op}: {m.error}")
                rec.progress.done(f"{cand.tool} {cand.algo}")
    except GpgHomeError as e:
        raise EnvironmentProblem(str(e))


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
    return Result("gpg", cipher_alone.LIB, a.algo, a.op, size, "bytes_per_s", "B/s",
                  median=med, ci_low=lo, ci_high=hi, n_samples=s.n, cv=s.cv,
                  extra={"role": role, "gpg_algo": gpg_algo, "ns_per_op": s.median})


def view(screen: Screen, run: Run, results: list[Result],
         warnings: list[StoredWarning]) -> None:  # noqa: ARG001
    """The gpg table and the answer of a stored gpg run."""
    backup_size = run.args.get("backup_size") or DEFAULT_BACKUP_SIZE
    size_text = format_bytes(backup_size)
    rows = tables.rows_from_results(results)
    header, cells = tables.format_rows(rows, backup_size, size_text)
    size = run.args.get("size")
    display_rows(screen.console, header, cells,
                 title=f"gpg --symmetric, {format_bytes(size) if size else '?'} per run "
                       f"(run {run.id})")
    cost_header, cost_cells = tables.format_cost_rows(rows)
    if cost_cells:
        display_rows(screen.console, cost_header, cost_cells, title="where the time goes")
        screen.console.print(tables.LEGEND, markup=False)
    screen.console.print(tables.answer(rows, backup_size, size_text), markup=False)


def summary(run: Run, results: list[Result]) -> dict:
    """The table's rows and the backup answer, for the export document beside the results."""
    backup_size = run.args.get("backup_size") or DEFAULT_BACKUP_SIZE
    rows = tables.rows_from_results(results)
    return {"backup_size": backup_size,
            "rows": [{"tool": r.tool, "algo": r.algo, "grade": r.grade.level if r.grade else None,
                      "encrypt_Bps": r.encrypt, "decrypt_Bps": r.decrypt,
                      "cipher_alone_Bps": r.alone, "cipher_mdc_alone_Bps": r.crypto,
                      "gpg_overhead": r.overhead, "overhead_within_noise": r.within_noise,
                      "fixed_s": r.fixed_s,
                      "backup_seconds": r.backup_seconds(backup_size), "error": r.error}
                     for r in rows]}
