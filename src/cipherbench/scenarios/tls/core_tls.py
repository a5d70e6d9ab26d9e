# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs ``cipherbench-core tls`` for each library and stores every result as it is final.

One core process per library measures every suite and size (and handshakes) once; a point
whose median is not yet precise enough gets more samples from short core runs of that point
alone (``stats.until_stable``), as ``cipherbench run`` does for primitives. Nothing here times
anything: the samples are the core's.

Stored rows (scenario ``tls``):

- transfer: lib, algo = IANA suite name, op ``transfer``, size = bytes per application
  write, metric ``bytes_per_s`` (median and CI from the per-write times), ``extra`` with the
  suite's names, grade, protocol, the raw samples (ns per write) and the CPU/wall ratio;
- handshakes: algo ``GROUP+CERT`` (e.g. ``x25519+ecdsa-p256``), op ``handshake`` (full) or
  ``resume``, size None, metric ``per_s``;
- refusals: metric ``refused`` (median 0) with the library's reason in ``extra["message"]``;
  failures: metric ``error``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence, TypeGuard

from cipherbench.analysis import stats
from cipherbench import run_warnings as W
from cipherbench.cores.core_client import BenchStream, Core, CoreCrashed
from cipherbench.cores.combined import Cores, tls_program
from cipherbench.cores.records import CoreError, Library, Point, Preamble, Record
from cipherbench.scenarios.tls.suites import Suite
from cipherbench.scenarios.recording import Recording
from cipherbench.store import Result
from cipherbench.units import rate_interval

SCENARIO = "tls"
DEFAULT_SIZES = (1400, 16384)
GROUPS = ("x25519", "p256", "p384", "x448", "ffdhe2048")
CERTS = ("rsa2048", "rsa3072", "ecdsa-p256", "ed25519")
#: The handshake suite of the core (docs/protocol.md, "tls").
HANDSHAKE_SUITE = "TLS_AES_128_GCM_SHA256"


@dataclass(frozen=True)
class Plan:
    """What to measure and how precisely."""

    libs: tuple[str, ...]
    suites: tuple[Suite, ...]
    sizes: tuple[int, ...] = DEFAULT_SIZES
    handshakes: bool = False
    transfer: bool = True
    precision: float = stats.DEFAULT_PRECISION
    budget_s: float = 1.0          # per point, for the extra samples
    samples: int = 10              # first batch
    min_sample_ms: float | None = None
    cpu: int | None = None         # pin the core to this CPU


def handshake_combos() -> list[tuple[str, str]]:
    """(group, cert) pairs the core measures: each group with ECDSA P-256, each other
    certificate with X25519."""
    return [(g, "ecdsa-p256") for g in GROUPS] + [("x25519", c) for c in CERTS
                                                   if c != "ecdsa-p256"]


def work_count(plan: Plan) -> int:
    """Points the plan will produce (for the progress bar)."""
    per_lib = (len(plan.suites) * len(plan.sizes) if plan.transfer else 0) + \
        (2 * len(handshake_combos()) if plan.handshakes else 0)
    return per_lib * len(plan.libs)


@dataclass
class Outcome:
    """What a finished (or stopped) run produced."""

    points: int = 0
    refused: int = 0
    failed: int = 0               # points that failed (errors other than refusals)
    crashed: bool = False         # a core process died
    libraries: dict[str, dict] = field(default_factory=dict)
    preamble: dict = field(default_factory=dict)
    warnings: list[W.BenchWarning] = field(default_factory=list)


def label(rec: Point | CoreError) -> str:
    """``openssl TLS_AES_128_GCM_SHA256 16384 B`` / ``gnutls handshake x25519+rsa2048``."""
    if rec.op in ("handshake", "resume"):
        return f"{rec.lib} {rec.op} {rec.group}+{rec.cert}"
    size = rec.size if isinstance(rec, Point) else rec.raw.get("size")
    return f"{rec.lib} {rec.algo}" + (f" {size} B" if size else "")


class TlsRunner:
    """Runs a plan, storing each result in the recording the moment it is final and counting
    every finished (or refused) point on its progress."""

    def __init__(self, core: Core | Cores, rec: Recording, plan: Plan,
                 clock: Callable[[], float] = time.monotonic):
        self.core = core
        self.rec = rec
        self.plan = plan
        self.clock = clock
        self.by_iana = {s.iana: s for s in plan.suites}
        self.out = Outcome()
        self._sizes_done: dict[tuple[str, str], int] = {}   # (lib, suite) -> points seen

    # -- plumbing ------------------------------------------------------------------------
    def _stream(self, args: Sequence[str]) -> BenchStream:
        lib = args[args.index("--lib") + 1]
        # the C, Go or Rust core's, through its launcher (ssh for a host); the hardware
        # switch (--cpu-profile) goes to whichever core runs the library
        if isinstance(self.core, Cores):
            return self.core.tls(lib, args)
        return self.core.start([str(self.core.path), "tls", *args, *self.core.common_args])

    def _base_args(self, lib: str, samples: int) -> list[str]:
        args = ["--lib", lib, "--samples", str(samples)]
        if self.plan.min_sample_ms is not None:
            args += ["--min-sample-ms", f"{self.plan.min_sample_ms:g}"]
        if self.plan.cpu is not None:
            args += ["--cpu", str(self.plan.cpu)]
        return args

    def _advance(self, n: int, text: str) -> None:
        self.rec.progress.done(text, n)

    def _warn(self, ws: Iterable[W.BenchWarning]) -> None:
        ws = list(ws)
        self.out.warnings.extend(ws)
        self.rec.warn(ws)

    # -- running -------------------------------------------------------------------------
    def run(self) -> Outcome:
        """Every library of the plan; KeyboardInterrupt passes through (what finished is
        stored)."""
        if self.rec.progress.total is None:  # the recording may count more steps
            self.rec.progress.set_total(work_count(self.plan))
        for lib in self.plan.libs:
            try:
                self._run_lib(lib)
            except CoreCrashed as e:
                self.out.failed += 1
                self.out.crashed = True
                self._warn([W.BenchWarning(W.Kind.CORE_CRASHED, lib,
                                           f"{e}; the TLS figures of {lib} after the crash are "
                                           "missing: report the bug with the command above")])
        return self.out

    def _run_lib(self, lib: str) -> None:
        p = self.plan
        args = self._base_args(lib, p.samples)
        args += ["--suites", ",".join(s.iana for s in p.suites) or "all",
                 "--sizes", ",".join(str(x) for x in p.sizes)]
        if p.handshakes:
            args.append("--handshakes")
        if not p.transfer:
            args.append("--no-transfer")
        followups: list[tuple[Point, float]] = []
        t0 = self.clock()
        with self._stream(args) as stream:
            for rec in stream:
                if isinstance(rec, Point):
                    if rec.kind == "point":
                        key = (rec.lib, rec.algo)
                        self._sizes_done[key] = self._sizes_done.get(key, 0) + 1
                    elapsed, t0 = self.clock() - t0, self.clock()
                    if stats.is_precise(stats.summarize(rec.per_op_ns()), p.precision):
                        self._store(rec, rec.per_op_ns(), True, "precision")
                    else:
                        followups.append((rec, elapsed))
                elif isinstance(rec, CoreError):
                    self._store_error(rec)
                elif isinstance(rec, Preamble):
                    self.out.preamble = self.out.preamble or rec.raw
                elif isinstance(rec, Library):
                    self.out.libraries[rec.lib] = rec.raw
        for rec, elapsed in followups:
            self._refine(rec, elapsed)

    def _refine(self, first: Point, elapsed: float) -> None:
        """More samples of one point until precise or out of budget; then store it."""
        lib = first.lib
        if first.kind == "point":
            args = self._base_args(lib, 2) + ["--suites", first.algo, "--sizes", str(first.size)]
        else:
            args = self._base_args(lib, 2) + ["--no-transfer", "--handshakes",
                                              "--groups", first.group, "--certs", first.cert]

        def same(rec: Record) -> TypeGuard[Point]:
            return isinstance(rec, Point) and rec.kind == first.kind and \
                (rec.algo, rec.size, rec.op, rec.group, rec.cert) == \
                (first.algo, first.size, first.op, first.group, first.cert)

        def sample(n: int) -> list[float]:
            a = list(args)
            a[a.index("--samples") + 1] = str(max(n, 2))
            got: list[float] = []
            with self._stream(a) as s:
                for rec in s:
                    if same(rec):
                        got.extend(rec.per_op_ns())
            return got

        try:
            st = stats.until_stable(sample, precision=self.plan.precision,
                                    budget_s=self.plan.budget_s, initial=first.per_op_ns(),
                                    elapsed_s=elapsed, clock=self.clock)
        except CoreCrashed:
            self._store(first, first.per_op_ns(), False, "crashed")
            raise
        if not st.stable:
            self._warn(W.not_stable(label(first), st.summary.rel_half_width,
                                    self.plan.precision, self.plan.budget_s))
        self._store(first, st.samples, st.stable, st.reason)

    # -- storing -------------------------------------------------------------------------
    def _store(self, rec: Point, samples: list[float], stable: bool, reason: str) -> None:
        summ = stats.summarize(samples)
        ratio = rec.cpu_ratio()
        text = label(rec)
        self._warn(W.noisy(text, summ.cv, limit=0.10))
        self._warn(W.steal(text, ratio))
        raw = rec.raw
        extra = {
            "proto": raw.get("proto"),
            "iters": rec.iters,
            "samples_ns": [round(x, 3) for x in samples],
            "cpu_ratio": round(ratio, 4) if ratio is not None else None,
            "stable": stable,
            "stopped_by": reason,
            "n_outliers": summ.n_outliers,
            "group": raw.get("group"),
            "cert": raw.get("cert"),
        }
        res: Result | None = None
        if rec.kind == "point":
            size = int(rec.size or 0)
            suite = self.by_iana.get(rec.algo)
            extra.update({"ns_per_write": summ.median, "lib_suite": raw.get("suite")})
            if suite is not None:
                g = suite.grade
                extra.update(suite.names())
                extra.update({"grade": g.level, "grade_reason": g.reason,
                              "grade_reference": g.reference, "kx": suite.kx,
                              "cipher": suite.cipher, "mac": suite.mac})
            med, lo, hi = rate_interval(size, summ.median, summ.ci_low, summ.ci_high)
            if med is not None:   # no positive time, no rate
                res = Result(SCENARIO, rec.lib, rec.algo, "transfer", size, "bytes_per_s",
                             "B/s", median=med, ci_low=lo, ci_high=hi,
                             n_samples=summ.n, cv=summ.cv, extra=extra)
        else:
            extra.update({"ns_per_handshake": summ.median, "suite": rec.algo,
                          "lib_group": raw.get("lib_group")})
            med, lo, hi = rate_interval(1, summ.median, summ.ci_low, summ.ci_high)
            if med is not None:
                res = Result(SCENARIO, rec.lib, f"{rec.group}+{rec.cert}", rec.op, None,
                             "per_s", "1/s", median=med, ci_low=lo, ci_high=hi,
                             n_samples=summ.n, cv=summ.cv, extra=extra)
        if res is not None:
            self.rec.add(res)
            self.out.points += 1
        self._advance(1, text)

    def _store_error(self, rec: CoreError) -> None:
        op = rec.op or "transfer"
        refused = rec.reason == "refused"
        extra = {"reason": rec.raw.get("reason"), "message": rec.message,
                 "group": rec.raw.get("group"), "cert": rec.raw.get("cert")}
        if op == "transfer":
            algo = rec.algo
            suite = self.by_iana.get(algo)
            if suite is not None:
                extra.update(suite.names())
                extra.update({"proto": suite.proto, "grade": suite.grade.level,
                              "grade_reason": suite.grade.reason})
            # The core stops a suite at its first failure: its other sizes are done too.
            n = max(0, len(self.plan.sizes) - self._sizes_done.get((rec.lib, algo), 0))
        else:
            algo = f"{rec.raw.get('group')}+{rec.raw.get('cert')}"
            n = 1
        self.rec.add(Result(
            SCENARIO, rec.lib, algo, op, None, "refused" if refused else "error", "", 0.0,
            extra=extra))
        if refused:
            self.out.refused += 1
        else:
            self.out.failed += 1
            self._warn([W.BenchWarning(W.Kind.TLS_FAILED, label(rec),
                                       f"{rec.message}: not measured; run "
                                       f"`{tls_program(self.core, rec.lib).name} tls --lib "
                                       f"{rec.lib} --suites {rec.algo}` to see it again")])
        self._advance(n, label(rec))
