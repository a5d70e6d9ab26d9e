# SPDX-License-Identifier: GPL-3.0-or-later
"""Stored ``tls`` results to ranked tables (computing apart from printing: ``format_*`` return
text cells, the CLI draws them)."""
from __future__ import annotations

from dataclasses import dataclass, field

from cipherbench.analysis import verdict as V
from cipherbench.display.format import format_rate, format_size
from cipherbench.scenarios.tls.core_tls import SCENARIO
from cipherbench.store import Result

LOOPBACK_LIB = "openssl-s_server"


@dataclass
class SuiteRow:
    """One suite of one library: throughput per write size, and over loopback TCP."""

    lib: str
    iana: str
    openssl: str = ""
    gnutls: str = ""
    proto: str = ""
    grade: str = ""
    grade_reason: str = ""
    rates: dict[int, float] = field(default_factory=dict)      # write size -> B/s
    ci: dict[int, tuple[float, float]] = field(default_factory=dict)
    loopback: float | None = None
    loopback_error: str = ""
    status: str = "ok"            # ok | refused | error
    message: str = ""
    is_default: bool = False      # the library's default suite: the reference of the ratios
    versus: dict[int, V.Verdict] = field(default_factory=dict)   # write size -> vs default
    loopback_versus: V.Verdict | None = None

    def headline(self, size: int | None) -> float:
        """Throughput at ``size`` (0 when not measured)."""
        return self.rates.get(size, 0.0) if size is not None else 0.0


@dataclass
class HandshakeRow:
    """Full and resumed handshakes per second of one library, group and certificate."""

    lib: str
    group: str
    cert: str
    full: float | None = None
    resumed: float | None = None
    note: str = ""


def sizes_of(results: list[Result]) -> list[int]:
    """The write sizes measured, ascending."""
    return sorted({r.size for r in results if r.scenario == SCENARIO and r.op == "transfer"
                   and r.metric == "bytes_per_s" and r.size})


def suite_rows(results: list[Result]) -> dict[str, list[SuiteRow]]:
    """Per library, its suites ranked by throughput at the largest write size (refused and
    failed suites last, in the order met)."""
    rows: dict[tuple[str, str], SuiteRow] = {}
    loop: dict[str, Result] = {}
    for r in results:
        if r.scenario != SCENARIO:
            continue
        if r.lib == LOOPBACK_LIB:
            loop[r.algo] = r
            continue
        if r.op != "transfer":
            continue
        row = rows.setdefault((r.lib, r.algo), SuiteRow(r.lib, r.algo))
        x = r.extra
        row.openssl = x.get("openssl", row.openssl)
        row.gnutls = x.get("gnutls", row.gnutls)
        row.proto = x.get("proto") or row.proto
        row.grade = x.get("grade", row.grade)
        row.grade_reason = x.get("grade_reason", row.grade_reason)
        if r.metric == "bytes_per_s" and r.size:
            row.rates[r.size] = r.median
            row.ci[r.size] = (r.ci_low or r.median, r.ci_high or r.median)
        elif r.metric in ("refused", "error"):
            row.status = r.metric
            row.message = x.get("message", "")
    for row in rows.values():
        lr = loop.get(row.iana)
        if lr is not None and row.lib == "openssl":
            if lr.metric == "bytes_per_s":
                row.loopback = lr.median
            else:
                row.loopback_error = lr.extra.get("message", "")
    _versus(rows, results, loop)
    sizes = sizes_of(results)
    top = sizes[-1] if sizes else None
    out: dict[str, list[SuiteRow]] = {}
    for row in rows.values():
        out.setdefault(row.lib, []).append(row)
    for lib, rs in out.items():
        rs.sort(key=lambda r: (r.status != "ok" or not r.rates, -r.headline(top)))
    return out


def _per_round(r: Result, key: str) -> dict[int, float]:
    """Round index -> that round's time (``key``: the figures kept per round) of a row
    measured in rounds ({} for runs before them)."""
    at, xs = r.extra.get("rounds_at"), r.extra.get(key)
    return dict(zip(at, xs)) if at and xs and len(at) == len(xs) else {}


def _paired(base: dict[int, float], other: dict[int, float]) -> V.Verdict | None:
    both = sorted(set(base) & set(other))
    if not both:
        return None
    return V.verdict([base[i] for i in both], [other[i] for i in both])


def _versus(rows: dict[tuple[str, str], SuiteRow], results: list[Result],
            loop: dict[str, Result]) -> None:
    """Each row's verdicts against its library's default suite, paired again per round from
    the stored rounds (core transfers per write size, and the loopback transfers)."""
    points = [r for r in results if r.scenario == SCENARIO and r.op == "transfer"
              and r.metric == "bytes_per_s" and r.size and r.lib != LOOPBACK_LIB]
    defaults = {r.lib: r.extra.get("default_suite") for r in points
                if r.extra.get("default_suite")}
    base = {(r.lib, r.size): _per_round(r, "round_best_ns") for r in points
            if r.algo == defaults.get(r.lib)}
    for r in points:
        row = rows.get((r.lib, r.algo))
        if row is None:
            continue
        row.is_default = r.algo == defaults.get(r.lib)
        b = base.get((r.lib, r.size))
        if b and not row.is_default:
            v = _paired(b, _per_round(r, "round_best_ns"))
            if v is not None and r.size:   # every point here has a size
                row.versus[r.size] = v
    lb_default = next((r.extra.get("default_suite") for r in loop.values()
                       if r.extra.get("default_suite")), None)
    lb_base = _per_round(loop[lb_default], "samples_s") if lb_default in loop else {}
    for iana, r in loop.items():
        row = rows.get(("openssl", iana))
        if row is not None and lb_base and iana != lb_default:
            row.loopback_versus = _paired(lb_base, _per_round(r, "samples_s"))


def versus_cells(v: V.Verdict | None, is_default: bool) -> tuple[str, str]:
    """(ratio with its 95% interval, verdict) of a row against the default suite."""
    if is_default:
        return "1x", "the default: reference"
    if v is None:
        return "", ""
    return (f"{v.ratio:.2f}x ({v.low:.2f}-{v.high:.2f})",
            v.state if v.decided else v.text())


def handshake_rows(results: list[Result]) -> list[HandshakeRow]:
    """Handshake rows, by library then in the order measured."""
    rows: dict[tuple[str, str], HandshakeRow] = {}
    for r in results:
        if r.scenario != SCENARIO or r.op not in ("handshake", "resume"):
            continue
        group, _, cert = r.algo.partition("+")
        row = rows.setdefault((r.lib, r.algo), HandshakeRow(r.lib, group, cert))
        if r.metric == "per_s":
            if r.op == "handshake":
                row.full = r.median
            else:
                row.resumed = r.median
        else:
            row.note = f"{r.op} {r.metric}: {r.extra.get('message', '')}"
    return list(rows.values())


def format_suite_table(rows: list[SuiteRow], sizes: list[int],
                       with_loopback: bool) -> tuple[list[str], list[list[str]]]:
    """Header and text cells of one library's ranked suite table."""
    header = ["#", "suite (IANA)", "OpenSSL", "GnuTLS", "proto", "grade"]
    header += [f"{format_size(s)} writes" for s in sizes]
    if with_loopback:
        header.append("TCP loopback (s_server)")
    top = sizes[-1] if sizes else None
    paired = any(r.versus or r.is_default for r in rows)
    if paired and top is not None:
        header += [f"vs default ({format_size(top)})", "verdict"]
    loop_paired = with_loopback and any(r.loopback_versus for r in rows)
    if loop_paired:
        header += ["loopback vs default", "loopback verdict"]
    cells = []
    rank = 0
    for r in rows:
        ok = r.status == "ok" and bool(r.rates)
        if ok:
            rank += 1
        rates = [format_rate(r.rates.get(s)) for s in sizes]
        if not ok:
            rates = [f"{r.status}: {r.message}" if r.status != "ok" else "not measured"] + \
                [""] * (len(sizes) - 1)
        line = [str(rank) if ok else "-", r.iana, r.openssl, r.gnutls, r.proto, r.grade, *rates]
        if with_loopback:
            line.append(format_rate(r.loopback) if r.loopback else r.loopback_error)
        if paired and top is not None:
            line += versus_cells(r.versus.get(top), r.is_default and ok)
        if loop_paired:
            line += versus_cells(r.loopback_versus, r.is_default and bool(r.loopback))
        cells.append(line)
    return header, cells


def format_handshake_table(rows: list[HandshakeRow]) -> tuple[list[str], list[list[str]]]:
    """Header and cells of the handshake table."""
    header = ["library", "group", "certificate", "full handshakes/s", "resumed/s", "note"]
    cells = [[r.lib, r.group, r.cert, f"{r.full:,.0f}" if r.full else "",
              f"{r.resumed:,.0f}" if r.resumed else "", r.note] for r in rows]
    return header, cells


def answer(rows: dict[str, list[SuiteRow]], sizes: list[int]) -> list[str]:
    """One line per library: its fastest recommended suite, and the kernel's share."""
    top = sizes[-1] if sizes else None
    lines = []
    for lib, rs in rows.items():
        good = [r for r in rs if r.status == "ok" and r.rates and r.grade == "recommended"]
        if not good or top is None:
            continue
        best = max(good, key=lambda r: r.headline(top))
        line = (f"{lib}: fastest recommended suite here is {best.iana} at "
                f"{format_rate(best.headline(top))} with {format_size(top)} writes")
        if best.loopback:
            line += (f"; through TCP on 127.0.0.1 with openssl s_server/s_client "
                     f"{format_rate(best.loopback)}")
        v = best.versus.get(top)
        if v is not None and not v.decided:
            line += f"; against {lib}'s default suite: {v.text()}"
        lines.append(line + ".")
    return lines
