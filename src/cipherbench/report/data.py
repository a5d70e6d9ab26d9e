# SPDX-License-Identifier: GPL-3.0-or-later
"""What the charts and tables of a report show, taken from stored results (pure: no drawing).

Primitive results (``ns_per_op`` per size, ``slope_ns_per_byte`` per fit) become throughput
bars per algorithm family, cycles/byte bars and throughput-by-size series; real-path results
(ssh, gpg, tls: ``bytes_per_s``) become bars beside their baselines.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from cipherbench import catalog
from cipherbench.display.format import format_rate
from cipherbench.units import format_bytes, rate_interval
from cipherbench.store import Result, Run

PRIMITIVE = "primitive"
REF_LIB = "ref"
#: The libraries in the order their colours and bars are given, so every chart agrees.
LIB_ORDER = ("openssl", "libgcrypt", "nettle", "gnutls", "libsodium", "botan", "cryptopp",
             "wolfssl", "mbedtls", "libtomcrypt")
#: The libraries of the Go and Rust cores, after the C core's.
EXTRA_LIB_ORDER = ("go", "ring", "rustcrypto", "aws-lc")

#: Algorithm families: one grouped bar chart each. (key, title)
FAMILIES = (("aead", "AEAD"), ("aes", "AES modes"), ("cipher", "other ciphers"),
            ("hash", "hashes"), ("mac", "MACs"), ("keywrap", "key wrap"))
#: The operation shown in bar charts per kind (the tables hold every operation; a key wrap's
#: encrypt is the wrap).
CHART_OP = {"aead": "encrypt", "cipher": "encrypt", "hash": "hash", "mac": "mac",
            "keywrap": "encrypt"}


def lib_sort_key(lib: str) -> tuple[int, str]:
    """Known libraries in ``LIB_ORDER`` then ``EXTRA_LIB_ORDER``, others after them by name."""
    order = LIB_ORDER + EXTRA_LIB_ORDER
    return (order.index(lib) if lib in order else len(order), lib)


def family_of(algo: str) -> str | None:
    """The chart family of an algorithm (None for the reference rows)."""
    entry = catalog.get(algo)
    kind = entry.kind if entry else ""
    if kind == "ref" or algo in catalog.REFERENCE:
        return None
    if kind == "cipher":
        return "aes" if algo.startswith("aes-") else "cipher"
    return kind or "cipher"


def throughput(r: Result) -> tuple[float, float | None, float | None] | None:
    """Bytes per second of a primitive point with its interval (the slowest time gives the
    lowest rate); None for a point without a size."""
    if r.metric != "ns_per_op" or not r.size or r.median <= 0:
        return None
    med, lo, hi = rate_interval(r.size, r.median, r.ci_low, r.ci_high)
    assert med is not None
    return med, lo, hi


def machine_line(run: Run) -> str:
    """``AMD EPYC, 2 cores, hypervisor kvm, run 3, 2025-01-31`` for chart subtitles."""
    m = run.metadata
    bits = [str(m.get("cpu_model") or "unknown CPU")]
    if m.get("cores"):
        bits.append(f"{m['cores']} cores")
    hv = m.get("hypervisor")
    if hv and hv != "none":
        bits.append("VM" if hv == "unknown" else f"VM ({hv})")
    if m.get("hostname"):
        bits.append(f"host {m['hostname']}")
    bits.append(f"run {run.id}, {run.started_at[:10]}")
    return ", ".join(bits)


def pick_size(results: Iterable[Result], wanted: int) -> int | None:
    """``wanted`` if measured, else the measured size closest to it."""
    sizes = {r.size for r in results if r.size}
    if not sizes:
        return None
    return wanted if wanted in sizes else min(sizes, key=lambda s: (abs(s - wanted), -s))


@dataclass
class Bars:
    """A grouped bar chart: groups (algorithms) by series (libraries)."""

    key: str                      # file-name stem
    title: str
    subtitle: str
    ylabel: str
    groups: list[str]
    series: list[str]
    values: dict[tuple[str, str], float]                  # (series, group) -> value
    errors: dict[tuple[str, str], tuple[float, float]] = field(default_factory=dict)
    ceiling: float | None = None  # a reference line (memcpy)
    ceiling_label: str = ""
    lower_is_better: bool = False
    #: a colour per series where the series are not libraries (machines side by side)
    colours: dict[str, str] = field(default_factory=dict)


@dataclass
class SizeLines:
    """Throughput against message size: one panel per algorithm, one line per library."""

    key: str
    title: str
    subtitle: str
    panels: list[str]
    lines: dict[str, dict[str, list[tuple[int, float]]]]   # algo -> lib -> [(size, B/s)]
    ceiling: list[tuple[int, float]] = field(default_factory=list)


@dataclass
class PathBars:
    """A real path's results (one bar per cipher) beside its baselines."""

    key: str
    title: str
    subtitle: str
    labels: list[str]
    values: list[float]
    errors: list[tuple[float, float] | None]
    kinds: list[str]              # 'measured', 'baseline' or 'alone' (the cipher by itself)
    grades: list[str]
    xlabel: str = "throughput (MB/s)"


#: A table cell: its text and the value it sorts by.
Cell = tuple[str, float | str | None]


@dataclass
class TableData:
    """A sortable table: header and rows of (text, sort value) cells."""

    title: str
    header: list[str]
    rows: list[list[Cell]]


def primitive_bars(run: Run, results: list[Result], size: int = 16384) -> list[Bars]:
    """Throughput bars per family at ``size`` (or the closest measured size), with memcpy's
    rate as the ceiling."""
    points = [r for r in results if r.scenario == PRIMITIVE and r.metric == "ns_per_op"]
    at = pick_size(points, size)
    if at is None:
        return []
    memcpy = next((throughput(r) for r in points if r.algo == "memcpy" and r.size == at), None)
    out = []
    for fam, fam_title in FAMILIES:
        chosen = [r for r in points if r.size == at and family_of(r.algo) == fam
                  and r.op == CHART_OP.get(_kind(r.algo), r.op)]
        if not chosen:
            continue
        groups = sorted({r.algo for r in chosen}, key=catalog.order_key)
        series = sorted({r.lib for r in chosen}, key=lib_sort_key)
        values, errors = {}, {}
        for r in chosen:
            t = throughput(r)
            if t is None:
                continue
            values[(r.lib, r.algo)] = t[0]
            if t[1] is not None and t[2] is not None:
                errors[(r.lib, r.algo)] = (t[1], t[2])
        op = CHART_OP.get(_kind(groups[0]), "")
        out.append(Bars(
            key=f"run{run.id}-throughput-{fam}", title=f"{fam_title}: throughput at "
            f"{_size_text(at)}" + (f" ({op})" if op in ("encrypt",) else "") + ", higher is better",
            subtitle=machine_line(run), ylabel="throughput (GB/s)", groups=groups,
            series=series, values=values, errors=errors,
            ceiling=memcpy[0] if memcpy else None,
            ceiling_label=f"memcpy {_size_text(at)}"))
    return out


def cycles_bars(run: Run, results: list[Result]) -> list[Bars]:
    """Cycles per byte (the fit's slope times the measured frequency) per family."""
    slopes = [r for r in results if r.scenario == PRIMITIVE and r.metric == "slope_ns_per_byte"
              and r.extra.get("cycles_per_byte") is not None]
    out = []
    for fam, fam_title in FAMILIES:
        chosen = [r for r in slopes if family_of(r.algo) == fam
                  and r.op == CHART_OP.get(_kind(r.algo), r.op)]
        if not chosen:
            continue
        groups = sorted({r.algo for r in chosen}, key=catalog.order_key)
        series = sorted({r.lib for r in chosen}, key=lib_sort_key)
        values = {(r.lib, r.algo): float(r.extra["cycles_per_byte"]) for r in chosen
                  if float(r.extra["cycles_per_byte"]) > 0}
        if not values:
            continue
        out.append(Bars(
            key=f"run{run.id}-cycles-{fam}", title=f"{fam_title}: cycles per byte "
            "(slope over sizes >= 1 KiB), lower is better", subtitle=machine_line(run),
            ylabel="cycles per byte", groups=groups, series=series, values=values,
            lower_is_better=True))
    return out


def _size_rate(r: Result) -> tuple[int, float] | None:
    """(size, B/s) of a primitive point with a size, else None."""
    t = throughput(r)
    return (r.size, t[0]) if t is not None and r.size else None


def size_lines(run: Run, results: list[Result]) -> list[SizeLines]:
    """Throughput by message size per family (only when at least two sizes were measured)."""
    points = [r for r in results if r.scenario == PRIMITIVE and r.metric == "ns_per_op"]
    if len({r.size for r in points if r.size}) < 2:
        return []
    ceiling = sorted(p for r in points if r.algo == "memcpy" and (p := _size_rate(r)))
    out = []
    for fam, fam_title in FAMILIES:
        chosen = [(r, p) for r in points if family_of(r.algo) == fam
                  and r.op == CHART_OP.get(_kind(r.algo), r.op) and (p := _size_rate(r))]
        if not chosen:
            continue
        panels = sorted({r.algo for r, _ in chosen}, key=catalog.order_key)
        lines: dict[str, dict[str, list[tuple[int, float]]]] = {a: {} for a in panels}
        for r, p in chosen:
            lines[r.algo].setdefault(r.lib, []).append(p)
        for per_lib in lines.values():
            for lib in per_lib:
                per_lib[lib].sort()
        out.append(SizeLines(f"run{run.id}-sizes-{fam}", f"{fam_title}: throughput by message "
                             "size", machine_line(run), panels, lines, ceiling))
    return out


def primitive_table(results: list[Result]) -> TableData | None:
    """Every primitive point: library, algorithm, op, grade, size, throughput, CI, c/B."""
    points = [r for r in results if r.scenario == PRIMITIVE and r.metric == "ns_per_op"]
    if not points:
        return None
    cpb = {(r.lib, r.algo, r.op): r.extra.get("cycles_per_byte") for r in results
           if r.scenario == PRIMITIVE and r.metric == "slope_ns_per_byte"}
    rows: list[list[Cell]] = []
    for r in sorted(points, key=lambda r: (r.algo not in catalog.REFERENCE,
                                           catalog.order_key(r.algo), r.op,
                                           lib_sort_key(r.lib), r.size or 0)):
        t = throughput(r)
        rate = t[0] if t and r.algo != "null" else None
        ci = ((r.ci_high - r.ci_low) / 2 / r.median * 100
              if r.ci_low is not None and r.ci_high is not None and r.median else None)
        c = cpb.get((r.lib, r.algo, r.op))
        rows.append([(r.lib, r.lib), (r.algo, catalog.order_key(r.algo)), (r.op, r.op),
                     (catalog.grade_of(r.algo), r.algo), (_size_text(r.size), r.size),
                     (format_rate(rate), rate), (f"{r.median:,.1f}", r.median),
                     (f"±{ci:.1f}%" if ci is not None else "", ci),
                     (f"{c:.2f}" if c is not None else "", c)])
    return TableData("primitives: every measured point",
                     ["library", "algorithm", "op", "grade", "size", "throughput", "ns/op",
                      "95% CI", "cycles/B (slope)"], rows)


# -- real paths -------------------------------------------------------------------------------
def _is_baseline(r: Result) -> bool:
    return (r.lib in ("tcp", "baseline", "cleartext") or r.algo.startswith("cleartext")
            or r.extra.get("role") == "baseline" or r.extra.get("grade") == "reference")


def path_bars(run: Run, results: list[Result]) -> list[PathBars]:
    """One chart per real-path scenario (ssh, gpg, tls, ...) and operation: each measured
    cipher's throughput beside the baselines (cleartext transfer; for gpg, the same cipher
    alone in libgcrypt)."""
    out = []
    heads = [r for r in results if r.scenario != PRIMITIVE and r.metric == "bytes_per_s"
             and r.size and r.median > 0]
    for scenario in sorted({r.scenario for r in heads}):
        rs = [r for r in heads if r.scenario == scenario]
        ops = sorted({r.op for r in rs if r.extra.get("role") is None and not _is_baseline(r)}
                     or {r.op for r in rs})
        for op in ops:
            main = [r for r in rs if r.op == op and r.extra.get("role") is None
                    and not _is_baseline(r)]
            if not main:
                continue
            base = [r for r in rs if _is_baseline(r) and (r.op == op or r.op == "transfer")]
            alone = {r.extra.get("gpg_algo"): r for r in rs if r.extra.get("role") ==
                     "cipher-alone" and r.op == op}
            bars: list[tuple[str, Result, str]] = []
            for r in sorted(main, key=lambda r: -r.median):
                label = _path_label(r)
                bars.append((label, r, "measured"))
                if r.algo in alone:
                    bars.append((f"  {alone[r.algo].algo} alone ({alone[r.algo].lib})",
                                 alone[r.algo], "alone"))
            for b in base:
                tool = b.extra.get("tool")
                bars.insert(0, (f"cleartext{f' ({tool})' if tool else ''}: baseline", b,
                                "baseline"))
            size = main[0].size
            out.append(PathBars(
                key=f"run{run.id}-{scenario}-{op}",
                title=f"{scenario}: {op} throughput per cipher, {_size_text(size)} each"
                      + (" (baseline on top)" if base else ""),
                subtitle=machine_line(run), labels=[b[0] for b in bars],
                values=[b[1].median / 1e6 for b in bars],
                errors=[(b[1].ci_low / 1e6, b[1].ci_high / 1e6)
                        if b[1].ci_low and b[1].ci_high else None for b in bars],
                kinds=[b[2] for b in bars],
                grades=[_path_grade(b[1]) for b in bars]))
    return out


def _path_label(r: Result) -> str:
    name = r.algo.replace("@openssh.com", "")
    return name if r.lib in ("openssh",) else f"{r.lib} {name}"


def _path_grade(r: Result) -> str:
    if r.extra.get("grade"):
        return str(r.extra["grade"])
    if r.scenario == "gpg" and r.lib in ("gnupg", "age"):
        from cipherbench.scenarios.gpg.tables import gpg_grade
        g = gpg_grade("age" if r.lib == "age" else "gpg", r.algo)
        if g is not None:
            return g.level
    for name in (r.extra.get("canonical"), r.algo):
        if name and catalog.get(str(name)):
            return catalog.grade_of(str(name))
    return ""


def path_table(results: list[Result]) -> TableData | None:
    """Every real-path rate: scenario, library/tool, algorithm, op, size, throughput, CI."""
    heads = [r for r in results if r.scenario != PRIMITIVE and r.unit.endswith("/s")]
    if not heads:
        return None
    rows: list[list[Cell]] = []
    for r in sorted(heads, key=lambda r: (r.scenario, r.op, -r.median)):
        ci = ((r.ci_high - r.ci_low) / 2 / r.median * 100
              if r.ci_low is not None and r.ci_high is not None and r.median else None)
        role = "baseline" if _is_baseline(r) else str(r.extra.get("role") or "")
        value = format_rate(r.median) if r.unit == "B/s" else f"{r.median:,.4g} {r.unit}"
        rows.append([(r.scenario, r.scenario), (r.lib, r.lib), (r.algo, r.algo), (r.op, r.op),
                     (role, role), (_size_text(r.size), r.size or 0), (value, r.median),
                     (f"±{ci:.1f}%" if ci is not None else "", ci), (str(r.n_samples),
                                                                    r.n_samples),
                     (_path_grade(r), _path_grade(r))])
    return TableData("real paths: every measured rate",
                     ["scenario", "library/tool", "algorithm", "op", "role", "size",
                      "rate", "95% CI", "n", "grade"], rows)


# -- helpers ----------------------------------------------------------------------------------
def _kind(algo: str) -> str:
    entry = catalog.get(algo)
    return entry.kind if entry else "cipher"


def _size_text(n: int | None) -> str:
    return "over sizes" if n is None else format_bytes(n)
