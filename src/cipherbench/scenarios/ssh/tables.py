# SPDX-License-Identifier: GPL-3.0-or-later
"""Samples to store rows, and store rows to the ranked tables (computing apart from printing).

What is stored (scenario ``ssh``; lib ``openssh``, the baseline ``tcp``; algo ``CIPHER`` or
``CIPHER+MAC``; op the tool that moved the bytes: ``pipe``, ``sftp``, ``scp``, ``rsync``, the
baseline ``transfer``):

- each timed sample the moment it is known: metric ``round_s`` (unit ``s``) and size, the
  seconds and bytes of its figure: the steady part after the warm-up (``steady``), or the
  whole data phase (``extra["figure"]`` says which; ``sent`` and ``whole_s`` keep the whole),
  ``extra`` with its round, its place in the round's order, its CPU times over the figure's
  part (and how each end's was read) and how it was checked. These rows are the one source
  of every figure below: ``show`` redraws a run from them, interrupted ones too.
- at the end, per candidate, the figures computed from them (``summary_results``): metric
  ``bytes_per_s`` (median over the rounds and its interval; ``extra`` has the paired verdicts
  against the client's default cipher of the same tool, by CPU per byte where both ends' CPU
  times allow it (``figure.py``), and against the baseline, by speed; each verdict names its
  ``figure``), and
  ``client_cpu_s``, ``server_cpu_s`` (CPU seconds of each end per transfer), as before the
  rounds, so ``advise``, ``compare`` and ``report`` read them unchanged.

Runs stored before the rounds have only the ``bytes_per_s`` rows: they are drawn from those,
with plain ratios and no verdict.
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

from cipherbench.analysis import stats
from cipherbench.analysis import verdict as V
from cipherbench.analysis.cpu_figure import CPU, WALL
from cipherbench.scenarios.ssh import bottleneck as bn
from cipherbench.scenarios.ssh import cipher_cost, steady
from cipherbench.scenarios.ssh import figure as F
from cipherbench.scenarios.ssh.sweep import (BASELINE, BASELINE_OP, Cand, Check, Combo,
                                             describe)
from cipherbench.scenarios.ssh.transfer import TransferSample
from cipherbench.store import Result
from cipherbench.units import format_bytes

SCENARIO = "ssh"
ROUND_METRIC = "round_s"
#: An end is called CPU-bound when its CPU time is at least this share of the wall time.
CPU_BOUND = bn.CPU_BOUND


def _bytes(r: Result) -> int:
    """A transfer sample's bytes: every ssh sample has a size."""
    if r.size is None:
        raise ValueError(f"ssh sample {r.algo} {r.op} without a size")
    return r.size


def _sent(r: Result) -> int:
    """What the sample sent: its ``sent`` when the transfer recorded it, else its size."""
    sent = r.extra.get("sent")
    return int(sent) if sent is not None else _bytes(r)


def _lib(c: Cand) -> str:
    return "tcp" if c.is_baseline else "openssh"


def round_result(c: Cand, round_index: int, position: int, s: TransferSample, check: Check,
                 *, target: str, client_default: Combo | None, requested: int) -> Result:
    """The store row of one timed sample."""
    extra = {"round": round_index, "position": position, "via": c.via,
             "cipher": None if c.is_baseline else c.combo.cipher, "mac": c.combo.mac,
             "client_default": c.combo == client_default and not c.is_baseline,
             "target": target, "setup_s": s.setup_s, "client_cpu_s": s.client_cpu_s,
             "client_cpu_method": s.client_cpu_method, "server_cpu_s": s.server_cpu_s,
             "server_cpu_method": s.server_cpu_method,
             "sink_cpu_s": s.sink_cpu_s, "verified": True,
             "checked_with": check.cand.combo.algo, "check_bytes": check.nbytes,
             "requested_size": requested, "cut": s.nbytes < requested,
             "tool": s.extra.get("tool"), "sent": s.nbytes, "whole_s": s.wall_s,
             "figure": steady.STEADY if s.steady_s else steady.WHOLE}
    nbytes, seconds = s.figure
    return Result(scenario=SCENARIO, lib=_lib(c), algo=c.combo.algo, op=c.op, size=nbytes,
                  metric=ROUND_METRIC, unit="s", median=seconds, ci_low=None, ci_high=None,
                  n_samples=1, cv=None, extra=extra)


@dataclass
class Row:
    """One line of a ranked table: a candidate's figures over its rounds."""

    rank: int | None
    via: str
    cipher: str
    mac: str
    throughput: float           # bytes/s, median over the rounds
    ci_pct: float | None        # half-width of its 95% CI, % of the median (None: < 6 rounds)
    spread_pct: float           # coefficient of variation over the rounds, %
    n: int                      # rounds with a sample
    vs_default: V.Verdict | None
    vs_baseline: V.Verdict | None
    client_cpu: float | None    # share of one core while sending
    server_cpu: float | None
    grade: str
    is_default: bool
    is_baseline: bool
    algo: str = ""
    note: str = ""
    size: int = 0               # bytes per timed sample (median)
    cut: bool = False           # fewer bytes than --size per sample (a slow combination)
    rates: dict[int, float] = field(default_factory=dict)   # round -> bytes/s
    extra: dict = field(default_factory=dict)               # what the first sample stored
    #: round -> bytes per CPU second of both ends ({}: not every round has it to the ns)
    cpu_rates: dict[int, float] = field(default_factory=dict)
    #: what ``vs_default`` was judged on: ``CPU`` (CPU per byte of both ends) or ``WALL``
    vs_default_figure: str | None = None
    #: the cipher and MAC alone (bytes/s), measured by the core in the same run (None: not)
    cipher_bps: float | None = None

    @property
    def cpu_rate(self) -> float | None:
        """Bytes per CPU second of both ends, median over the rounds (None: not measured
        to the nanosecond in every round)."""
        return stats.median(list(self.cpu_rates.values())) if self.cpu_rates else None


def _share(num: list[float | None], den: list[float]) -> float | None:
    xs = [a / b for a, b in zip(num, den) if a is not None and b > 0]
    return stats.median(xs) if xs else None


def _from_rounds(samples: list[Result], costs: dict[str, tuple[float, str]]) -> list[Row]:
    by: dict[tuple[str, str], list[Result]] = defaultdict(list)
    for r in samples:
        by[(r.op, r.algo)].append(r)
    out: list[Row] = []
    for (op, algo), rs in by.items():
        rs.sort(key=lambda r: r.extra.get("round", 0))
        walls = [r.median for r in rs]
        at = [int(r.extra.get("round", i)) for i, r in enumerate(rs)]
        rates = {i: _bytes(r) / r.median for i, r in zip(at, rs) if r.median > 0}
        figs = list(rates.values())
        s = stats.summarize(figs)
        first = rs[0].extra
        is_base = algo == BASELINE
        tool = first.get("tool")
        combo = Combo(algo) if is_base else Combo(first.get("cipher") or algo, first.get("mac"))
        info = describe(combo)
        precise = s.n >= V.MIN_ROUNDS
        out.append(Row(
            rank=None, via="tcp" if is_base else op,
            cipher=(f"cleartext ({tool})" if is_base and tool else
                    "cleartext" if is_base else combo.cipher),
            mac="" if is_base else (combo.mac or "(AEAD)"), throughput=s.median,
            ci_pct=100 * (s.ci_high - s.ci_low) / 2 / s.median if precise and s.median
            else None,
            spread_pct=100 * s.cv, n=s.n, vs_default=None, vs_baseline=None,
            client_cpu=_share([r.extra.get("client_cpu_s") for r in rs], walls),
            server_cpu=_share([r.extra.get("server_cpu_s") for r in rs], walls),
            grade=info.get("grade", ""), is_default=bool(first.get("client_default")),
            is_baseline=is_base, algo=algo, note=info.get("note", ""),
            size=int(stats.median([_sent(r) for r in rs])),
            cut=any(r.extra.get("cut") for r in rs), rates=rates, extra=dict(first),
            cpu_rates=F.cpu_rates(at, [_bytes(r) for r in rs],
                                  [F.round_cpu_s(r.extra) for r in rs]),
            cipher_bps=None if is_base else cipher_cost.combo_bps(
                info.get("cipher_algo"), info.get("mac_algo"), costs)))
    base = next((r for r in out if r.is_baseline), None)
    for row in out:
        if row.is_baseline:
            continue
        default = next((d for d in out if d.is_default and d.via == row.via), None)
        if default is not None and default is not row:
            v = F.versus(default.rates, row.rates, default.cpu_rates, row.cpu_rates)
            row.vs_default, row.vs_default_figure = v.verdict, v.figure
        if base is not None:
            row.vs_baseline = F.paired(base.rates, row.rates)     # a question of time
    return out


def _legacy(heads: list[Result]) -> list[Row]:
    """Rows of a run stored before the rounds: plain ratios, no verdict."""
    base = next((r for r in heads if r.algo == BASELINE), None)
    out = []
    for r in heads:
        is_base = r.algo == BASELINE
        default = next((d for d in heads if d.extra.get("client_default") and d.op == r.op),
                       None)
        half = ((r.ci_high or r.median) - (r.ci_low or r.median)) / 2

        def plain(ref: Result | None) -> V.Verdict | None:
            if ref is None or is_base or not ref.median:
                return None
            return V.Verdict(V.CANNOT_TELL, r.median / ref.median, None, None, 0,
                             reason="no paired rounds")

        tool = r.extra.get("tool")
        out.append(Row(
            rank=None, via="tcp" if is_base else ("pipe" if r.op == "transfer" else r.op),
            cipher=(f"cleartext ({tool})" if is_base and tool else
                    "cleartext" if is_base else r.extra.get("cipher", r.algo)),
            mac="" if is_base else (r.extra.get("mac") or "(AEAD)"), throughput=r.median,
            # a "95% CI" of two or three samples was their range: not shown
            ci_pct=100 * half / r.median if r.median and r.n_samples >= V.MIN_ROUNDS else None,
            spread_pct=100 * (r.cv or 0.0), n=r.n_samples, vs_default=plain(default),
            vs_baseline=plain(base), client_cpu=r.extra.get("client_cpu_share"),
            server_cpu=r.extra.get("server_cpu_share"), grade=r.extra.get("grade", ""),
            is_default=bool(r.extra.get("client_default")), is_baseline=is_base, algo=r.algo,
            note=r.extra.get("note", ""), size=r.size or 0,
            cut=bool(r.extra.get("sample_cut")), extra=dict(r.extra),
            vs_default_figure=WALL))
    return out


def rows(results: list[Result]) -> list[Row]:
    """Every candidate, fastest first (the baseline among them), ranked within its tool."""
    mine = [r for r in results if r.scenario == SCENARIO]
    samples = [r for r in mine if r.metric == ROUND_METRIC and r.median > 0]
    out = _from_rounds(samples, cipher_cost.rates(mine)) if samples else _legacy(
        [r for r in mine if r.metric == "bytes_per_s"])
    out.sort(key=lambda r: -r.throughput)
    ranks: dict[str, int] = defaultdict(int)
    for row in out:
        if not row.is_baseline:
            ranks[row.via] += 1
            row.rank = ranks[row.via]
    return out


def vias(table: list[Row]) -> list[str]:
    """The tools of a table's rows, in the order ``via.VIAS`` (cheapest first)."""
    from cipherbench.scenarios.ssh.via import VIAS
    found = {r.via for r in table if not r.is_baseline}
    return [v for v in VIAS if v in found] + sorted(found - set(VIAS))


def verdict_dict(v: V.Verdict | None, figure: str | None = WALL) -> dict | None:
    """A verdict as stored and exported, with the ``figure`` it was judged on (``CPU``: CPU
    per byte of both ends; ``WALL``: transfer speed)."""
    if v is None:
        return None
    return {"state": v.state, "ratio": v.ratio, "low": v.low, "high": v.high,
            "rounds": v.n_rounds, "within": v.within, "reason": v.reason, "text": v.text(),
            "figure": figure or WALL}


def _median_of(rs: list[Result], key: str) -> float | None:
    xs = [r.extra[key] for r in rs if r.extra.get(key) is not None]
    return stats.median(xs) if xs else None


def summary_results(results: list[Result]) -> list[Result]:
    """The per-candidate rows stored at the end (see the module's description)."""
    samples_of: dict[tuple[str, str], list[Result]] = defaultdict(list)
    for r in results:
        if r.scenario == SCENARIO and r.metric == ROUND_METRIC:
            samples_of[("tcp" if r.algo == BASELINE else r.op, r.algo)].append(r)
    out = []
    for row in rows(results):
        if not row.rates:
            continue
        s = stats.summarize(list(row.rates.values()))
        e = row.extra
        extra = describe(Combo(row.algo) if row.is_baseline else
                         Combo(e.get("cipher") or row.algo, e.get("mac")))
        extra.update({
            "via": row.via, "target": e.get("target"), "client_default": row.is_default,
            "rounds": row.n, "verified": True, "checked_with": e.get("checked_with"),
            "check_bytes": e.get("check_bytes"), "requested_size": e.get("requested_size"),
            "sample_cut": row.cut, "client_cpu_share": row.client_cpu,
            "client_cpu_s": _median_of(samples_of.get((row.via, row.algo), []), "client_cpu_s"),
            "server_cpu_s": _median_of(samples_of.get((row.via, row.algo), []), "server_cpu_s"),
            "server_cpu_share": row.server_cpu, "tool": e.get("tool"),
            "server_cpu_method": e.get("server_cpu_method"),
            "cpu_bytes_per_s": row.cpu_rate,
            "vs_default": verdict_dict(row.vs_default, row.vs_default_figure),
            "vs_baseline": verdict_dict(row.vs_baseline, WALL)})
        op = BASELINE_OP if row.is_baseline else row.via
        lib = "tcp" if row.is_baseline else "openssh"
        out.append(Result(scenario=SCENARIO, lib=lib, algo=row.algo, op=op, size=row.size,
                          metric="bytes_per_s", unit="B/s", median=s.median, ci_low=s.ci_low,
                          ci_high=s.ci_high, n_samples=s.n, cv=s.cv, extra=extra))
    samples = [r for r in results if r.scenario == SCENARIO and r.metric == ROUND_METRIC]
    by: dict[tuple[str, str, str], list[Result]] = defaultdict(list)
    for r in samples:
        by[(r.lib, r.op, r.algo)].append(r)
    for (lib, op, algo), rs in by.items():
        for metric in ("client_cpu_s", "server_cpu_s"):
            xs = [r.extra[metric] for r in rs if r.extra.get(metric) is not None]
            if xs:
                s = stats.summarize(xs)
                out.append(Result(scenario=SCENARIO, lib=lib, algo=algo, op=op,
                                  size=int(stats.median([_bytes(r) for r in rs])), metric=metric,
                                  unit="s", median=s.median, ci_low=s.ci_low,
                                  ci_high=s.ci_high, n_samples=s.n, cv=s.cv,
                                  extra={"method": rs[0].extra.get("server_cpu_method")
                                         if metric == "server_cpu_s" else "process"}))
    return out


def bottleneck(table: list[Row]) -> bn.Bottleneck:
    """The one decision of the run, for the fastest cipher: its time split into the cipher's
    own work, the program's and the waiting (``bottleneck.split``). Among the tools that read
    both ends' CPU time (ssh's pipe) when the run has one: a file tool reads this end's only."""
    ciphers = [r for r in table if not r.is_baseline]
    if not ciphers:
        return bn.Bottleneck(bn.UNKNOWN, "", "", None, "no cipher was measured")
    both = [r for r in ciphers if r.client_cpu is not None and r.server_cpu is not None]
    return judge(max(both or ciphers, key=lambda r: r.throughput))


def judge(row: Row) -> bn.Bottleneck:
    """The bottleneck of one cipher's transfers (``advise`` judges its choice with it)."""
    s = bn.split(row.throughput, row.client_cpu, row.server_cpu, row.cipher_bps)
    if not row.rates:    # stored before the rounds
        return bn.Bottleneck(bn.UNKNOWN, row.cipher, row.via, None,
                             "this run was measured before paired rounds; measure again", s)
    return bn.decide_split(s, row.cipher, row.via, row.n, row.vs_baseline)


def cut_note(table: list[Row], requested: int | None, max_s: float | None) -> str | None:
    """The footnote of rows marked † (samples stopped before ``--size``), or None."""
    if not any(r.cut for r in table):
        return None
    bound = f"{max_s:g} s" if max_s else "the time bound"
    whole = f"all {format_bytes(requested)}" if requested else "all of --size"
    return (f"† slow: a sample stops sending after {bound} unless three quarters are sent; "
            f"MiB = what each sample sent (median); --full-samples always sends {whole}.")


def legend(table: list[Row]) -> str:
    """What the verdict columns mean, naming the figure "vs dflt" was judged on for each tool
    of ``table``."""
    by_cpu: list[str] = []
    by_speed: list[str] = []
    for v in vias(table):
        figures = {r.vs_default_figure for r in table
                   if r.via == v and r.vs_default is not None}
        (by_cpu if CPU in figures else by_speed).append(v)
        if CPU in figures and WALL in figures:
            by_speed.append(f"some {v} rows")
    how = []
    if by_cpu:
        how.append("by the CPU time ssh and sshd spent per byte, both ends together ("
                   + ", ".join(by_cpu) + "; faster: less of it): what the cipher costs, which "
                   "a transfer that stalls or waits for the CPU does not change")
    if by_speed:
        how.append("by transfer speed ("
                   + ", ".join(by_speed) + (": no precise CPU times of both ends)" if by_cpu
                                             else ")"))
    return ("vs dflt: against the client's default cipher (*) of the same tool, "
            + "; ".join(how or ["by transfer speed"])
            + ". vs clear: speed against the cleartext path. Both paired per round (median "
            f"ratio); faster or slower when its 95% interval clears {V.DEFAULT_MARGIN:.0%}; "
            "within N%: cannot tell here, any difference is at most N%; ?: fewer than "
            f"{V.MIN_ROUNDS} rounds, no verdict.")


def verdict_cell(v: V.Verdict | None) -> str:
    """``1.23x faster``, ``0.81x slower``, ``within 3%`` or ``0.97x ?`` (no verdict)."""
    if v is None or v.ratio is None:
        return ""
    if v.reason:
        return f"{v.ratio:.2f}x ?"
    if v.state == V.CANNOT_TELL:
        return f"within {math.ceil((v.within or 0) * 100 - 1e-9):.0f}%"
    return f"{v.ratio:.2f}x {v.state}"


def mbps(bps: float) -> str:
    """Bytes/s as MB/s (10^6) text."""
    return f"{bps / 1e6:,.0f}" if bps >= 1e8 else f"{bps / 1e6:,.1f}"


def short(name: str) -> str:
    """An OpenSSH algorithm name without the ``@openssh.com`` suffix (for narrow tables)."""
    return name.removesuffix("@openssh.com")


def table_lines(table: list[Row]) -> tuple[list[str], list[list[str]]]:
    """Header and cells of one table (text only; the view renders them). Names lose their
    ``@openssh.com`` suffix. A ``MiB`` column (bytes per sample) appears when the time bound
    cut any row's samples."""
    sizes = any(r.cut for r in table)
    header = ["#", "cipher", "MAC", "MB/s"] + (["MiB"] if sizes else []) + [
        "±CI", "n", "vs dflt", "vs clear", "CPU %", "grade"]
    cells = []
    for r in table:
        cpu = "/".join("-" if c is None else f"{100 * c:.0f}" for c in (r.client_cpu, r.server_cpu))
        dflt = "1.00x" if r.is_default else verdict_cell(r.vs_default)
        cells.append([
            "" if r.rank is None else str(r.rank),
            short(r.cipher) + (" *" if r.is_default else ""),
            short(r.mac),
            mbps(r.throughput) + (" †" if r.cut else ""),
            *([f"{r.size / (1 << 20):.0f}"] if sizes else []),
            "-" if r.ci_pct is None else f"{r.ci_pct:.1f}%",
            str(r.n),
            dflt,
            verdict_cell(r.vs_baseline),
            cpu,
            "" if r.is_baseline else r.grade,
        ])
    return header, cells


def paired_versus(a: Row, b: Row) -> F.Versus:
    """B against A over the rounds of one run that measured both, on the figure the ``vs
    dflt`` column uses (``figure.versus``), for any two rows (``advise`` ranks with it); its
    verdict is None when no round measured both, or a row was stored before the rounds."""
    return F.versus(a.rates, b.rates, a.cpu_rates, b.cpu_rates)


def paired_verdict(a: Row, b: Row) -> V.Verdict | None:
    """``paired_versus``'s verdict alone."""
    return paired_versus(a, b).verdict
