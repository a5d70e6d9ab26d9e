"""``cipherbench tls`` as a scenario: the core's in-process TLS transfers and handshakes per
library, then (for OpenSSL) the same suites over TCP on 127.0.0.1 through ``openssl
s_server``/``s_client``; estimate, measure inside a ``Recording``, draw a stored run.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from cipherbench import metadata
from cipherbench.cli.options import did_you_mean
from cipherbench.core_client import Core
from cipherbench.cores import tls_listing
from cipherbench.display.console import display_fitted
from cipherbench.errors import EnvironmentProblem, UsageError
from cipherbench.scenarios import Screen
from cipherbench.scenarios.recording import Recording
from cipherbench.scenarios.tls import loopback as lb
from cipherbench.scenarios.tls import tables
from cipherbench.scenarios.tls.runner import (HANDSHAKE_SUITE, SCENARIO, Outcome, Plan,
                                              TlsRunner, work_count)
from cipherbench.scenarios.tls.suites import Suite, parse_list, resolve, tls_libraries
from cipherbench.store import Result, Run, StoredWarning

NAME = "tls"
UNIT = "points"
#: The loopback rows are whole TCP transfers of tens of MiB, each a sample: they are asked
#: for at least this precision and a budget of 3x (at least 1.5 s), whatever the in-process
#: rows get, so a loopback row costs seconds, not minutes.
LOOPBACK_MIN_PRECISION = 0.02
LOOPBACK_BUDGET_FACTOR = 3.0
LOOPBACK_MIN_BUDGET_S = 0.5


@dataclass
class TlsPlan:
    """One stored tls run: the core's plan, and the loopback transfers beside it."""

    core: Core
    plan: Plan
    known: list[Suite]
    preamble: dict | None
    libraries: dict[str, dict]
    openssl: str | None = None          # the openssl program, when loopback rows are measured
    openssl_version: str = ""
    loopback_size: int = 32 << 20
    notes: list[str] = field(default_factory=list)

    def args(self) -> dict:
        p = self.plan
        return {"libs": list(p.libs), "suites": [s.iana for s in p.suites],
                "sizes": list(p.sizes), "handshakes": p.handshakes, "transfer": p.transfer,
                "precision": p.precision, "budget": p.budget_s,
                "loopback_size": self.loopback_size if self.openssl else None,
                "headline_size": p.sizes[-1]}

    def metadata(self) -> dict:
        meta = metadata.collect(self.preamble, self.libraries)
        if self.openssl_version:
            meta["programs"] = {"openssl": self.openssl_version}
        return meta

    def loopback_precision(self) -> float:
        return max(self.plan.precision, LOOPBACK_MIN_PRECISION)

    def loopback_budget_s(self) -> float:
        return max(self.plan.budget_s, LOOPBACK_MIN_BUDGET_S) * LOOPBACK_BUDGET_FACTOR


def inventory(core: Core) -> tuple[list[str], list[Suite], list[dict]]:
    """(TLS libraries, suites, the raw listing) of the core; EnvironmentProblem without any."""
    listing = tls_listing(core)   # with the Go and Rust cores' TLS libraries (cores.py)
    have = tls_libraries(listing)
    if not have:
        raise EnvironmentProblem("this cipherbench-core was built without a TLS library: "
                                 "install libssl-dev or libgnutls28-dev and rebuild it")
    return have, parse_list(listing), listing


def make_plan(core: Core, env, *, libs: list[str] | None, suites: list[str] | None,
              sizes: tuple[int, ...], handshakes: bool, transfer: bool, loopback: bool,
              loopback_size: int, precision: float, budget_s: float,
              cpu: int | None) -> TlsPlan:
    """Check the options against what the core has; find openssl for the loopback rows."""
    have, known, listing = inventory(core)
    chosen_libs = libs or list(have)
    for name in chosen_libs:
        if name not in have:
            raise UsageError(f"--lib: unknown TLS library {name!r}; valid: "
                             f"{', '.join(have)}{did_you_mean(name, have)}")
    chosen, unknown = resolve(suites or ["all"], known)
    if unknown:
        pool = [n for s in known for n in (s.iana, s.openssl)]
        raise UsageError(f"--suites: unknown suite {unknown[0]!r}"
                         f"{did_you_mean(unknown[0], pool)}; valid: IANA, OpenSSL or GnuTLS names "
                         "(`cipherbench tls --list-suites`), tls1.3, tls1.2, legacy, all")
    if not chosen and transfer:
        raise UsageError("--suites: nothing selected")
    want_loopback = loopback and transfer and "openssl" in chosen_libs
    openssl = lb.find_openssl(env) if want_loopback else None
    notes = []
    if want_loopback and openssl is None:
        notes.append("openssl program not found: the TCP loopback figures are skipped "
                     "(Debian: apt-get install openssl, or leave them out with --no-loopback)")
    preamble = next((r for r in listing if r["type"] == "preamble"), None)
    libraries = {r["lib"]: r for r in listing if r["type"] == "library"}
    plan = Plan(libs=tuple(chosen_libs), suites=tuple(chosen), sizes=sizes,
                handshakes=handshakes, transfer=transfer, precision=precision,
                budget_s=budget_s, cpu=cpu)
    return TlsPlan(core, plan, known, preamble, libraries, openssl,
                   lb.openssl_version(openssl) if openssl else "", loopback_size, notes)


#: Cost model of the estimate (quiet 2-core machine): a point's first batch about 0.1 s,
#: a third of the points using their budget for more samples, a loopback transfer of 32 MiB
#: about 0.1 s plus 0.3 s to start the server.
_POINT_S = 0.1
_REFINED_SHARE = 0.3
_LOOPBACK_START_S = 0.3
_LOOPBACK_BPS = 400e6


def estimate_s(p: TlsPlan) -> float:
    n = work_count(p.plan)
    t = n * (_POINT_S + _REFINED_SHARE * p.plan.budget_s)
    if p.openssl:
        per = _LOOPBACK_START_S + p.loopback_size / _LOOPBACK_BPS * 5
        t += len(p.plan.suites) * min(per * 3, p.loopback_budget_s() + per)
    return t


def total_steps(p: TlsPlan) -> int:
    return work_count(p.plan) + (len(p.plan.suites) if p.openssl else 0)


def measure(p: TlsPlan, rec: Recording) -> Outcome:
    """The core's rows for every library, then the loopback rows of the suites OpenSSL
    transferred; every row stored as it is final."""
    for note in p.notes:
        rec.note(note)
    outcome = TlsRunner(p.core, rec, p.plan).run()
    if p.openssl:
        ok = [r for r in rec.store.results(rec.run_id) if r.lib == "openssl"
              and r.op == "transfer" and r.metric == "bytes_per_s"]
        measured = [s for s in p.plan.suites if any(r.algo == s.iana for r in ok)]
        skipped = len(p.plan.suites) - len(measured)
        if skipped:
            rec.progress.done("loopback: suites OpenSSL did not transfer", skipped)
        try:
            with lb.Loopback(p.openssl, p.loopback_size, p.core.env) as loop:
                for s in measured:
                    rec.progress.working(f"s_server {s.openssl}")
                    m = loop.measure(s, precision=p.loopback_precision(),
                                     budget_s=p.loopback_budget_s())
                    rec.add(loopback_result(m, p.openssl_version))
                    if m.error:
                        rec.note(f"loopback {s.iana}: {m.error}")
                    rec.progress.done(f"loopback {s.iana}")
        except lb.LoopbackError as e:
            rec.note(f"loopback figures skipped: {e}")
    if outcome.crashed:
        rec.status = "interrupted"
    return outcome


def loopback_result(m: lb.Measured, version: str) -> Result:
    """One loopback transfer (or its failure) as a stored row."""
    s = m.suite
    base = {"openssl": s.openssl, "gnutls": s.gnutls, "iana": s.iana, "proto": s.proto,
            "grade": s.grade.level, "tool_version": version}
    if m.error or m.stability is None or m.bytes_per_s is None:
        base["message"] = m.error or "not measured"
        return Result(SCENARIO, tables.LOOPBACK_LIB, s.iana, "loopback", m.size, "error", "",
                      0.0, extra=base)
    summ = m.stability.summary
    base.update({"setup_s": m.setup_s, "samples_s": m.samples_s, "stable": m.stability.stable,
                 "stopped_by": m.stability.reason, "verified": True})
    return Result(SCENARIO, tables.LOOPBACK_LIB, s.iana, "loopback", m.size, "bytes_per_s",
                  "B/s", median=m.bytes_per_s, ci_low=m.size / summ.ci_high,
                  ci_high=m.size / summ.ci_low,
                  n_samples=summ.n, cv=summ.cv, extra=base)


#: Columns of figures, right-aligned (the rate columns are named by their write size).
_RIGHT = ["#", "full handshakes/s", "resumed/s", "TCP loopback (s_server)"]


def view(screen: Screen, run: Run, results: list[Result], warnings: list[StoredWarning],
         libraries: dict | None = None, sizes=()) -> None:  # noqa: ARG001
    """The suite tables, handshake table and answer of a stored tls run."""
    rows = tables.suite_rows(results)
    hs = tables.handshake_rows(results)
    sizes_seen = tables.sizes_of(results) or list(sizes)
    libraries = libraries or (run.metadata.get("libraries") or {})
    for lib, rs in rows.items():
        version_text = (libraries.get(lib) or {}).get("version") or ""
        with_loopback = lib == "openssl" and any(r.lib == tables.LOOPBACK_LIB for r in results)
        header, cells = tables.format_suite_table(rs, sizes_seen, with_loopback=with_loopback)
        # the figures first, beside the suite; the libraries' own names last (a narrow
        # terminal splits them off into a table of their own)
        order = [0, 1, *range(4, len(header)), 2, 3]
        header, cells = [header[i] for i in order], [[c[i] for i in order] for c in cells]
        display_fitted(screen.console, header, cells, keep=2,
                       right=_RIGHT + [h for h in header if h.endswith(" writes")],
                       title=f"{lib} ({version_text}): TLS record layer in one process, "
                             f"server to client, both ends on one core (run {run.id})")
    if hs:
        header, cells = tables.format_handshake_table(hs)
        display_fitted(screen.console, header, cells, keep=3, right=_RIGHT,
                     title=f"TLS 1.3 handshakes per second ({HANDSHAKE_SUITE}), client "
                           "and server on one core")
    for line in tables.answer(rows, sizes_seen):
        screen.console.print(line, markup=False)


def summary(run: Run, results: list[Result]) -> dict:  # noqa: ARG001
    """The ranked suites and handshakes, for the export document beside the results."""
    rows = tables.suite_rows(results)
    hs = tables.handshake_rows(results)
    return {
        "suites": [{"lib": r.lib, "iana": r.iana, "openssl": r.openssl, "gnutls": r.gnutls,
                    "proto": r.proto, "grade": r.grade, "grade_reason": r.grade_reason,
                    "status": r.status, "message": r.message,
                    "bytes_per_s": {str(k): v for k, v in r.rates.items()},
                    "loopback_bytes_per_s": r.loopback}
                   for rs in rows.values() for r in rs],
        "handshakes": [{"lib": h.lib, "group": h.group, "cert": h.cert,
                        "full_per_s": h.full, "resumed_per_s": h.resumed, "note": h.note}
                       for h in hs]}
