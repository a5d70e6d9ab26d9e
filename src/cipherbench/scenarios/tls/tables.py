"""Stored ``tls`` results to ranked tables (computing apart from printing: ``format_*`` return
text cells, the CLI draws them)."""
from __future__ import annotations

from dataclasses import dataclass, field

from cipherbench.display.format import format_rate, format_size
from cipherbench.scenarios.tls.runner import SCENARIO
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
    sizes = sizes_of(results)
    top = sizes[-1] if sizes else None
    out: dict[str, list[SuiteRow]] = {}
    for row in rows.values():
        out.setdefault(row.lib, []).append(row)
    for lib, rs in out.items():
        rs.sort(key=lambda r: (r.status != "ok" or not r.rates, -r.headline(top)))
    return out


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
        lines.append(line + ".")
    return lines
