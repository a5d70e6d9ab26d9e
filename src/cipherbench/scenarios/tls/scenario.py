# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench tls`` as a scenario: the core's in-process TLS transfers per library, the suites
in randomized interleaved rounds against the library's default suite (``interleaved``), its
handshakes, then (for OpenSSL) the same suites over TCP on 127.0.0.1 through ``openssl
s_server``/``s_client``, in rounds too; estimate, measure inside a ``Recording``, draw a
stored run with each suite's paired ratio to the default and its verdict.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field, replace
from typing import Sequence

from cipherbench.machine import metadata
from cipherbench.analysis import verdict as V
from cipherbench.analysis.estimate import Estimate
from cipherbench import run_warnings as W
from cipherbench.analysis import stats
from cipherbench.cores.core_client import Core, CoreCrashed
from cipherbench.cores.combined import Cores, tls_listing
from cipherbench.cores.cpu_profiles import follows, openssl_env, profile_of
from cipherbench.display.console import display_fitted
from cipherbench.display.footnotes import footnote_long
from cipherbench.errors import EnvironmentProblem, UsageError
from cipherbench.scenarios import Screen
from cipherbench.scenarios.outcome import MeasureOutcome
from cipherbench.scenarios.recording import Recording
from cipherbench.scenarios.tls import interleaved
from cipherbench.scenarios.tls import loopback as lb
from cipherbench.scenarios.tls import tables
from cipherbench.scenarios.tls.core_tls import (HANDSHAKE_SUITE, SCENARIO, Plan,
                                                TlsRunner, handshake_combos)
from cipherbench.scenarios.tls.suites import Suite, parse_list, resolve, tls_libraries
from cipherbench.store import Result, Run, StoredWarning
from cipherbench.suggest import did_you_mean

NAME = "tls"
UNIT = "points"
#: The loopback rows are whole TCP transfers of tens of MiB, one per suite and round: their
#: rounds get a budget of 3x the in-process one per suite (at least 1.5 s), so a loopback row
#: costs seconds, not minutes; the precision asked is the user's (a row that misses it says
#: so in a warning).
LOOPBACK_BUDGET_FACTOR = 3.0
LOOPBACK_MIN_BUDGET_S = 0.5
#: Rounds at most (fewer when every figure is precise or the budget is spent, never fewer
#: than a verdict needs).
DEFAULT_ROUNDS = V.RECOMMENDED_ROUNDS


def _new_seed() -> int:
    return random.SystemRandom().randrange(1 << 31)


@dataclass
class TlsPlan:
    """One stored tls run: the core's plan, and the loopback transfers beside it."""

    core: Core | Cores
    plan: Plan
    known: list[Suite]
    preamble: dict | None
    libraries: dict[str, dict]
    openssl: str | None = None          # the openssl program, when loopback rows are measured
    openssl_version: str = ""
    loopback_size: int = 32 << 20
    notes: list[str] = field(default_factory=list)
    rounds: int = DEFAULT_ROUNDS
    seed: int = field(default_factory=_new_seed)
    hw_off: tuple[str, ...] = ()         # --cpu-profile's features, off in every library
    loopback_env: dict[str, str] = field(default_factory=dict)   # its switch for openssl

    def args(self) -> dict:
        p = self.plan
        return {"libs": list(p.libs), "suites": [s.iana for s in p.suites],
                "sizes": list(p.sizes), "handshakes": p.handshakes, "transfer": p.transfer,
                "precision": p.precision, "budget": p.budget_s,
                "loopback_size": self.loopback_size if self.openssl else None,
                "headline_size": p.sizes[-1], "rounds": self.rounds, "seed": self.seed,
                "hw_disabled": list(self.hw_off), "cpu_profile": profile_of(self.hw_off)}

    def metadata(self) -> dict:
        meta = metadata.collect(self.preamble, self.libraries)
        if self.openssl_version:
            meta["programs"] = {"openssl": self.openssl_version}
        meta["hw_disabled"] = list(self.hw_off)
        if self.hw_off:
            meta["cpu_profile"] = profile_of(self.hw_off) or "custom"
        return meta

    def loopback_budget_s(self) -> float:
        """Seconds of loopback rounds per suite."""
        return max(self.plan.budget_s, LOOPBACK_MIN_BUDGET_S) * LOOPBACK_BUDGET_FACTOR

    def suites_of(self, lib: str) -> tuple[list[Suite], Suite | None]:
        """The suites one library's rounds measure, and its default suite (added to the
        chosen ones when missing: the reference of the ratios)."""
        suites = list(self.plan.suites)
        default = interleaved.default_suite(lib, suites, self.known)
        if default is not None and default not in suites:
            suites.append(default)
        return suites, default


def inventory(core: Core | Cores) -> tuple[list[str], list[Suite], list[dict]]:
    """(TLS libraries, suites, the raw listing) of the core; EnvironmentProblem without any."""
    listing = tls_listing(core)   # with the Go and Rust cores' TLS libraries (cores.py)
    have = tls_libraries(listing)
    if not have:
        raise EnvironmentProblem("this cipherbench-core was built without a TLS library: "
                                 "install libssl-dev or libgnutls28-dev and rebuild it")
    return have, parse_list(listing), listing


def with_capabilities(core: Core | Cores, libraries: dict[str, dict], libs: list[str]
                      ) -> dict[str, dict]:
    """The TLS libraries with the CPU capabilities the core's ``list`` names for the same
    library and version (the TLS listing names none): stored with the run, they let
    ``advise`` and ``compare`` tell that it used the hardware the primitive runs did."""
    out = dict(libraries)
    for lib in libs:
        rec = out.get(lib)
        if rec is None or rec.get("caps") is not None:
            continue
        try:
            listed = core.list(lib).libraries.get(lib) or {}
        except Exception:  # noqa: BLE001 - without the listing the run stores no capabilities
            continue
        if _same_version(listed.get("version"), rec.get("version")) \
                and listed.get("caps") is not None:
            out[lib] = dict(rec, **{k: listed[k] for k in ("caps", "provider", "hw_used",
                                                           "hw_switch", "hw_off_requested",
                                                           "hw_env")
                                    if listed.get(k) is not None})
    return out


def _same_version(listed: str | None, tls: str | None) -> bool:
    """The ``list`` and ``tls --list`` versions name the same library ("3.7.9" is "GnuTLS
    3.7.9": the TLS listing adds the library's name)."""
    if not listed or not tls:
        return False
    return listed == tls or tls.endswith(" " + listed) or listed.endswith(" " + tls)


def make_plan(core: Core | Cores, env, *, libs: list[str] | None, suites: list[str] | None,
              sizes: tuple[int, ...], handshakes: bool, transfer: bool, loopback: bool,
              loopback_size: int, precision: float, budget_s: float,
              cpu: int | None, rounds: int = DEFAULT_ROUNDS,
              seed: int | None = None, hw_off: Sequence[str] = ()) -> TlsPlan:
    """Check the options against what the core has; find openssl for the loopback rows.
    With ``hw_off`` (a CPU profile) a library whose switch does not follow it is left out
    with a note, never measured as if it did."""
    have, known, listing = inventory(core)
    chosen_libs = libs or list(have)
    for name in chosen_libs:
        if name not in have:
            raise UsageError(f"--lib: unknown TLS library {name!r}; valid: "
                             f"{', '.join(have)}{did_you_mean(name, have)}")
    notes = []
    libraries = with_capabilities(core, {r["lib"]: r for r in listing
                                         if r["type"] == "library"}, chosen_libs)
    if hw_off:
        states = {f.lib: f for f in follows(libraries)}
        cannot = [l for l in chosen_libs if not (l in states and states[l].follows)]
        if cannot:
            notes.append(f"cannot follow the CPU profile, not measured: {', '.join(cannot)} "
                         "(no switch of their own for every feature, or none reported)")
        chosen_libs = [l for l in chosen_libs if l not in cannot]
        if not chosen_libs:
            raise UsageError(f"no TLS library can follow --cpu-profile "
                             f"{profile_of(hw_off) or 'custom'}: {', '.join(cannot)}")
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
    loopback_env = openssl_env(libraries) or {} if hw_off else {}
    if want_loopback and openssl is None:
        notes.append("openssl program not found: the TCP loopback figures are skipped "
                     "(Debian: apt-get install openssl, or leave out --loopback)")
    preamble = next((r for r in listing if r["type"] == "preamble"), None)
    plan = Plan(libs=tuple(chosen_libs), suites=tuple(chosen), sizes=sizes,
                handshakes=handshakes, transfer=transfer, precision=precision,
                budget_s=budget_s, cpu=cpu)
    out = TlsPlan(core, plan, known, preamble, libraries, openssl,
                  lb.openssl_version(openssl) if openssl else "", loopback_size, notes, rounds,
                  hw_off=tuple(hw_off), loopback_env=loopback_env)
    if seed is not None:
        out.seed = seed
    return out


#: Cost model of the estimate (quiet 2-core machine): a core process of one suite at every
#: write size about 0.25 s (start, certificate, handshake, samples); a loopback transfer of
#: 32 MiB about 0.1 s plus 0.3 s to start the server; a handshake point about 0.4 s.
_PROCESS_S = 0.25
_HANDSHAKE_S = 0.4
_LOOPBACK_START_S = 0.3
_LOOPBACK_BPS = 400e6


def _expected_rounds(p: TlsPlan, per_round: float, budget: float) -> int:
    """The rounds the budget is expected to allow: all of them, or as many as fit in it
    (never fewer than a verdict needs), the round that passes it finished."""
    if per_round <= 0:
        return p.rounds
    return min(p.rounds, max(V.MIN_ROUNDS, math.ceil(budget / per_round)))


def _rounds_s(p: TlsPlan, per_round: float, budget: float) -> float:
    return _expected_rounds(p, per_round, budget) * per_round


def _core_rounds(p: TlsPlan) -> int:
    n = len(p.plan.suites) + 1
    return _expected_rounds(p, n * _PROCESS_S, p.plan.budget_s * n * len(p.plan.sizes))


def _loop_rounds(p: TlsPlan) -> int:
    n = len(p.plan.suites) + 1
    per = _LOOPBACK_START_S + p.loopback_size / _LOOPBACK_BPS * 5
    return _expected_rounds(p, n * per, p.loopback_budget_s() * n)


def estimate_s(p: TlsPlan) -> Estimate:
    """Every library's transfer rounds as the estimate's rounds (their budgets are wall
    time: under load they cut rounds, ``analysis.estimate``; one budget per library, so all
    of them together cut the same rounds), the handshakes (their budgets wall time too) and
    the loopback transfers, whose rounds are counted as on a quiet machine unless they are
    the only rounds."""
    pl = p.plan
    n_suites = len(pl.suites) + 1            # the default suite may join them
    fixed = wall = per_round = 0.0
    budget: float | None = None
    if pl.handshakes:
        k = len(pl.libs) * 2 * len(handshake_combos())
        fixed += k * _HANDSHAKE_S
        wall += k * 0.3 * pl.budget_s
    loop_round = loop_budget = 0.0
    if p.openssl:
        per = _LOOPBACK_START_S + p.loopback_size / _LOOPBACK_BPS * 5
        fixed += per
        loop_round, loop_budget = n_suites * per, p.loopback_budget_s() * n_suites
    if pl.transfer:
        per_round = len(pl.libs) * n_suites * _PROCESS_S
        budget = len(pl.libs) * pl.budget_s * n_suites * len(pl.sizes)
        if p.openssl:
            fixed += _rounds_s(p, loop_round, loop_budget)
    elif p.openssl:
        per_round, budget = loop_round, loop_budget
    return Estimate(fixed, per_round, p.rounds, budget_s=budget, min_rounds=V.MIN_ROUNDS,
                    wall_s=wall)


def total_steps(p: TlsPlan) -> int:
    """Points the progress counts: every suite and size of every round the budget is
    expected to allow, the handshakes, and one loopback transfer per suite and round."""
    pl = p.plan
    n_suites = len(pl.suites) + (0 if all(
        interleaved.default_suite(lib, pl.suites, p.known) in pl.suites for lib in pl.libs)
        else 1)
    n = _core_rounds(p) * n_suites * len(pl.sizes) * len(pl.libs) if pl.transfer else 0
    n += 2 * len(handshake_combos()) * len(pl.libs) if pl.handshakes else 0
    return n + (_loop_rounds(p) * n_suites if p.openssl else 0)


def measure(p: TlsPlan, rec: Recording, clock=time.monotonic) -> MeasureOutcome:
    """Every library's suites in rounds (each stored when its rounds end), its handshakes,
    then the loopback rows of the suites OpenSSL transferred, in rounds too."""
    for note in p.notes:
        rec.note(note)
    runner = TlsRunner(p.core, rec, p.plan)
    rng = random.Random(p.seed)
    if rec.progress.total is None:
        rec.progress.set_total(total_steps(p))
    if p.plan.transfer:
        for lib in p.plan.libs:
            suites, default = p.suites_of(lib)
            if default is not None and default not in p.plan.suites:
                rec.note(f"{default.iana} is measured too: it is {lib}'s default suite, the "
                         "reference of the ratios")
            runner.by_iana.update({s.iana: s for s in suites})
            try:
                interleaved.run_lib(runner, lib, suites, default, p.rounds, rng,
                                    budget_s=p.plan.budget_s * len(suites) * len(p.plan.sizes),
                                    clock=clock)
            except CoreCrashed as e:
                runner.out.failed += 1
                runner.out.crashed = True
                runner._warn([W.BenchWarning(W.Kind.CORE_CRASHED, lib,
                                             f"{e}; the TLS figures of {lib} after the crash "
                                             "are missing: report the bug with the command "
                                             "above")])
    outcome = runner.out
    if p.plan.handshakes:
        hs = TlsRunner(p.core, rec, replace(p.plan, transfer=False))
        hs.out = outcome
        hs.run()
    if p.openssl:
        _loopback(p, rec, rng, clock)
    if outcome.crashed:
        rec.status = "interrupted"
    return MeasureOutcome(failed=outcome.failed, crashed=outcome.crashed)


def _loopback(p: TlsPlan, rec: Recording, rng: random.Random, clock) -> None:
    """The suites OpenSSL transferred, through s_server/s_client, in rounds."""
    if p.openssl is None:   # the caller checks; the program is needed below
        return
    suites, default = p.suites_of("openssl")
    ok = {r.algo for r in rec.store.results(rec.run_id) if r.lib == "openssl"
          and r.op == "transfer" and r.metric == "bytes_per_s"}
    measured = [s for s in suites if s.iana in ok]
    skipped = len(suites) - len(measured)
    if skipped:
        rec.progress.done("loopback: suites OpenSSL did not transfer",
                          skipped * _loop_rounds(p))
    if not measured:
        return
    base = default.iana if default is not None and default.iana in ok else None
    out = interleaved.LoopRounds()
    finished = False
    try:
        # openssl s_server/s_client get the C core's switch for OpenSSL under a profile
        with lb.Loopback(p.openssl, p.loopback_size, {**p.core.env, **p.loopback_env}) as loop:
            try:
                interleaved.loopback_in_rounds(
                    loop, measured, p.rounds, rng, budget_s=p.loopback_budget_s() * len(measured),
                    precision=p.plan.precision, base=base, clock=clock, out=out,
                    on_done=lambda iana: rec.progress.done(f"loopback {iana}"))
                finished = True
            finally:
                # stopped: what the finished transfers measured is kept, nothing more
                for s in [s for s in measured if finished or out.times(s.iana)
                          or s.iana in out.failed]:
                    r = loopback_result(s, out, p.loopback_size, p.openssl_version, base,
                                        p.plan.precision)
                    rec.add(r)
                    if r.metric == "error":
                        rec.note(f"loopback {s.iana}: {r.extra['message']}")
                    elif not r.extra["stable"] and r.ci_high is not None \
                            and r.ci_low is not None:   # an unstable figure has its interval
                        rec.warn(W.not_stable(f"loopback {s.iana}",
                                              (r.ci_high - r.ci_low) / 2 / r.median,
                                              p.plan.precision, p.loopback_budget_s(),
                                              what=f"median of {len(out.done)} rounds"))
    except lb.LoopbackError as e:
        rec.note(f"loopback figures skipped: {e}")


def loopback_result(s, out: interleaved.LoopRounds, size: int, version: str,
                    default: str | None, precision: float) -> Result:
    """One suite's loopback transfers (or their failure) as a stored row: the median transfer
    over the rounds with its interval, and each round's seconds with the round's index."""
    base = {"openssl": s.openssl, "gnutls": s.gnutls, "iana": s.iana, "proto": s.proto,
            "grade": s.grade.level, "tool_version": version, "default_suite": default}
    times = out.times(s.iana)
    if not times:
        base["message"] = out.failed.get(s.iana, "not measured")
        return Result(SCENARIO, tables.LOOPBACK_LIB, s.iana, "loopback", size, "error", "",
                      0.0, extra=base)
    at = sorted(times)
    samples = [times[i] for i in at]
    summ = stats.summarize(samples)
    base.update({"setup_s": stats.median(out.setup_s.get(s.iana) or [0.0]),
                 "samples_s": samples, "rounds_at": at, "rounds": len(out.done),
                 "stable": stats.is_precise(summ, precision), "stopped_by": "rounds",
                 "verified": True})
    if s.iana in out.failed:
        base["message"] = out.failed[s.iana]
    return Result(SCENARIO, tables.LOOPBACK_LIB, s.iana, "loopback", size, "bytes_per_s",
                  "B/s", median=size / summ.median, ci_low=size / summ.ci_high,
                  ci_high=size / summ.ci_low, n_samples=summ.n, cv=summ.cv, extra=base)


#: Columns of figures, right-aligned (the rate columns are named by their write size).
_RIGHT = ["#", "full handshakes/s", "resumed/s", "TCP loopback (s_server)"]


def view(screen: Screen, run: Run, results: list[Result], warnings: list[StoredWarning],
         libraries: dict | None = None, sizes=()) -> None:  # noqa: ARG001
    """The suite tables and handshake table of a stored tls run (its answer: ``answer``)."""
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
        figures = _RIGHT + [h for h in header if h.endswith(" writes")]
        # a refusal's reason below the table, not six lines of a column of figures
        cells, notes = footnote_long(header, cells, figures)
        display_fitted(screen.console, header, cells, keep=2, right=figures,
                       title=f"{lib} ({version_text}): TLS record layer in one process, "
                             f"server to client, both ends on one core (run {run.id})")
        for note in notes:
            screen.console.print(note, markup=False, highlight=False)
    if hs:
        header, cells = tables.format_handshake_table(hs)
        display_fitted(screen.console, header, cells, keep=3, right=_RIGHT,
                     title=f"TLS 1.3 handshakes per second ({HANDSHAKE_SUITE}), client "
                           "and server on one core")


def answer_lines(run: Run, results: list[Result], sizes=()) -> list[str]:  # noqa: ARG001
    """The verdict of a stored tls run: per library its fastest recommended suite (and
    against its default suite)."""
    return tables.answer(tables.suite_rows(results), tables.sizes_of(results) or list(sizes))


def answer(screen: Screen, run: Run, results: list[Result], sizes=()) -> None:
    """The verdict, the command's last lines."""
    for line in answer_lines(run, results, sizes):
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
                    "loopback_bytes_per_s": r.loopback, "is_default": r.is_default,
                    "vs_default": {str(k): _verdict_doc(v) for k, v in r.versus.items()},
                    "loopback_vs_default": _verdict_doc(r.loopback_versus)
                    if r.loopback_versus else None}
                   for rs in rows.values() for r in rs],
        "handshakes": [{"lib": h.lib, "group": h.group, "cert": h.cert,
                        "full_per_s": h.full, "resumed_per_s": h.resumed, "note": h.note}
                       for h in hs]}


def _verdict_doc(v: V.Verdict) -> dict:
    """A verdict against the default suite for the export: the paired speed ratio, its
    interval, the rounds, the state and its text."""
    return {"ratio": v.ratio, "ci_low": v.low, "ci_high": v.high, "rounds": v.n_rounds,
            "verdict": v.state, "within": v.within, "text": v.text()}
