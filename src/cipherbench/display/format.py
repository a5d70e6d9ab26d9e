# SPDX-License-Identifier: GPL-3.0-or-later
"""Computing what to show, apart from printing it: ``format_*`` return plain data.

The console (``display.console``) and the Markdown exporter both draw from these.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from cipherbench import catalog
from cipherbench.cores.core_client import Inventory
from cipherbench.store import Result, Run
from cipherbench.units import format_bytes, rate
from cipherbench.units import format_rate as units_format_rate

REF_LIB = "ref"
#: The reference rows' role, shown in the grade column.
REF_ROLE = {"memcpy": "ceiling", "null": "floor"}


@dataclass
class Cell:
    """One library's number for one row."""

    bytes_per_s: float | None       # throughput at the headline size
    ns_per_op: float                # median time per operation at the headline size
    ci_rel: float | None            # CI half-width / median
    cycles_per_byte: float | None   # slope x the run's trusted clock (None: withheld)
    fastest: bool = False
    suspect: bool = False           # the headline and the slope disagree (fit.check_headline)


def _mark_fastest(cells: list[Cell]) -> None:
    """``*`` on the fastest cell, only when its interval clears the next one's: a lead
    inside the noise is not shown as one."""
    if len(cells) < 2:
        return
    first, second = sorted(cells, key=lambda c: c.ns_per_op)[:2]
    hi_first = first.ns_per_op * (1 + (first.ci_rel or 0))
    lo_second = second.ns_per_op * (1 - (second.ci_rel or 0))
    first.fastest = hi_first < lo_second


@dataclass
class Row:
    """A row of the result table: one algorithm and operation."""

    algo: str
    op: str
    kind: str
    grade: str
    cells: dict[str, Cell] = field(default_factory=dict)


@dataclass
class ResultTable:
    """Rows (reference rows first) by columns (libraries) at one message size."""

    size: int
    columns: list[str]
    rows: list[Row]

    @property
    def has_suspect(self) -> bool:
        return any(c.suspect for row in self.rows for c in row.cells.values())


#: The legend of the ``?`` mark.
SUSPECT_LEGEND = ("? the headline figure and the slope through the sizes disagree: measured "
                  "under different conditions (see the warnings)")


def headline_size(results: Iterable[Result], wanted: int) -> int | None:
    """``wanted`` if measured, else the measured size closest to it."""
    sizes = {r.size for r in results if r.size is not None}
    if not sizes:
        return None
    if wanted in sizes:
        return wanted
    return min(sizes, key=lambda s: (abs(s - wanted), -s))


def format_results(results: list[Result], headline: int = 16384,
                   scenario: str = "primitive") -> ResultTable | None:
    """The result table: a row per (algorithm, op), a column per library, each cell the
    throughput at the headline size with cycles/byte from the slope; the fastest library of
    each row marked. None when there are no point results."""
    rs = [r for r in results if r.scenario == scenario]
    points = [r for r in rs if r.metric == "ns_per_op"]
    size = headline_size(points, headline)
    if size is None:
        return None
    slopes = {(r.lib, r.algo, r.op): r for r in rs if r.metric == "slope_ns_per_byte"}
    columns: list[str] = []
    rows: dict[tuple[str, str], Row] = {}
    for r in points:
        if r.size != size:
            continue
        if r.lib != REF_LIB and r.lib not in columns:
            columns.append(r.lib)
        entry = catalog.get(r.algo)
        key = (r.algo, r.op)
        if key not in rows:
            grade = REF_ROLE.get(r.algo, "") if r.lib == REF_LIB else \
                (entry.grade.level if entry else "unknown")
            rows[key] = Row(r.algo, r.op, entry.kind if entry else "", grade)
        slope = slopes.get((r.lib, r.algo, r.op))
        cpb = slope.extra.get("cycles_per_byte") if slope else None
        ci_rel = None
        if r.ci_low is not None and r.ci_high is not None and r.median:
            ci_rel = (r.ci_high - r.ci_low) / 2 / r.median
        bps = rate(size, r.median)
        if r.algo == "null":
            bps, cpb = None, None  # the floor is a per-call cost, not a throughput
        check = slope.extra.get("headline_check") if slope else None
        suspect = check is not None and check.get("size") == size
        rows[key].cells[r.lib] = Cell(bps, r.median, ci_rel, cpb, suspect=suspect)
    for row in rows.values():
        _mark_fastest([c for c in row.cells.values() if c.bytes_per_s])
    if not columns:
        columns = [REF_LIB]
    ordered = sorted(rows.values(), key=lambda row: (
        row.algo not in catalog.REFERENCE, catalog.order_key(row.algo),
        ("encrypt", "decrypt", "hash", "mac", "ref").index(row.op)
        if row.op in ("encrypt", "decrypt", "hash", "mac", "ref") else 9))
    return ResultTable(size, columns, ordered)


def cell_for_column(row: Row, column: str, columns: list[str]) -> Cell | None:
    """The cell shown under ``column``: a reference row is the same for every library, so its
    one cell shows in every column."""
    if REF_LIB in row.cells:
        return row.cells[REF_LIB]
    return row.cells.get(column)


#: ``16384`` -> ``16 KiB``: the one byte formatter (``units.format_bytes``).
format_size = format_bytes


#: ``3.41 GB/s``: the one rate formatter (``units.format_rate``).
format_rate = units_format_rate


def format_cell(cell: Cell | None, sep: str = " ") -> str:
    """``3.41 GB/s 0.85 c/B`` (or ``12.3 ns/op`` for the floor); ``*`` marks the fastest.
    ``sep`` goes between the rate and the cycles per byte (a newline in narrow tables)."""
    if cell is None:
        return ""
    if cell.bytes_per_s is None:
        text = f"{cell.ns_per_op:.3g} ns/op"
    else:
        text = format_rate(cell.bytes_per_s) + (" *" if cell.fastest else "") \
            + (" ?" if cell.suspect else "")
        if cell.cycles_per_byte is not None:
            text += f"{sep}{cell.cycles_per_byte:.2f} c/B"
    return text


def format_table_rows(table: ResultTable) -> tuple[list[str], list[list[str]]]:
    """Header and text rows of the result table (shared by console and Markdown)."""
    header = ["algorithm", "op", "grade"] + table.columns
    body = [[row.algo, row.op, row.grade] +
            [format_cell(cell_for_column(row, c, table.columns)) for c in table.columns]
            for row in table.rows]
    return header, body


def format_history(runs: list[Run]) -> tuple[list[str], list[list[str]]]:
    """Header and rows of ``cipherbench history``."""
    header = ["run", "started (UTC)", "command", "status", "results", "cpu", "libraries"]
    body = []
    for r in runs:
        libs = sorted((r.metadata.get("libraries") or {}).keys())
        host = r.metadata.get("host")   # measured on another host (run --host)
        body.append([str(r.id), r.started_at.replace("T", " ")[:19],
                     f"{r.command} @{host}" if host else r.command, r.status,
                     str(r.n_results), str(r.metadata.get("cpu_model", "")),
                     ", ".join(l for l in libs if l != REF_LIB)])
    return header, body


def format_run_header(run: Run) -> list[tuple[str, str]]:
    """Key facts of a run as (label, value) pairs."""
    m = run.metadata
    libs = m.get("libraries") or {}
    freq = m.get("freq_hz")
    trust = m.get("clock_trust")
    if trust:   # the run's clock from every record, when it was judged (else the preamble's)
        freq = trust.get("freq_hz") if trust.get("trusted") else None
    pairs = [
        ("run", f"{run.id} ({run.command}, {run.status})"),
        ("started", run.started_at),
        *([("host", f"{m['host']} ({m.get('hostname', '?')}"
                    + (f"; core {m['host_core']})" if m.get("host_core") else ")"))]
          if m.get("host") else []),
        ("cpu", f"{m.get('cpu_model', '?')}, {m.get('cores', '?')} cores"
         + (f", {freq / 1e9:.2f} GHz measured" if freq else "")),
        ("crypto flags", " ".join(m.get("cpu_flags") or []) or "none"),
        ("hypervisor", str(m.get("hypervisor", "?"))),
        ("kernel", str(m.get("kernel", "?"))),
    ]
    if m.get("core_version"):   # runs that drive ssh or gpg alone have no core to name
        pairs.append(("core", f"{m['core_version']} built by {m.get('core_compiler', '?')}"
                              f" {m.get('core_cflags', '')}".rstrip()))
    programs = dict(m.get("programs") or {})
    if run.args.get("ssh_version"):
        programs.setdefault("ssh", run.args["ssh_version"])
    for name, version in programs.items():
        pairs.append((name, str(version)))
    share, start = m.get("cpu_share"), m.get("load_start") or {}
    if share is not None:
        others = start.get("others")
        pairs.append(("load", f"the run got {min(share, 1.0):.0%} of its CPU" + (
            f"; {others} other runnable task{'s' if others != 1 else ''} at the start"
            if others is not None else "")))
    if trust and not trust.get("trusted"):
        pairs.append(("clock", f"not trusted: {trust.get('reason')} (no cycles per byte)"))
    for name, info in libs.items():
        if name == REF_LIB:
            continue
        caps = ", ".join(info.get("caps") or [])
        variant = info.get("variant") or {}   # a second build: where it was loaded from
        pairs.append((name, f"{info.get('version', '')}" + (f" [{caps}]" if caps else "")
                      + (f" from {variant['loaded']}" if variant.get("loaded") else "")))
    return pairs


@dataclass
class ListView:
    """``cipherbench list``: libraries and algorithms."""

    cpu_flags: list[str]
    libraries: list[list[str]]
    algorithms: list[list[str]]


def format_list(inv: Inventory, libs: list[str] | None = None,
                grades: list[str] | None = None) -> ListView:
    """Libraries (name, version, capabilities) and algorithms (name, kind, grade, reason,
    libraries that have it), filtered by library and grade."""
    chosen = [l for l in inv.libs() if l != REF_LIB and (not libs or l in libs)]
    lib_rows = []
    for name in chosen:
        rec = inv.libraries.get(name, {})
        caps = ", ".join(rec.get("caps") or [])
        prov = rec.get("provider") or ""
        lib_rows.append([name, str(rec.get("version", "")), caps + (f" ({prov})" if prov else "")])
    by_algo: dict[str, list[str]] = {}
    for a in inv.algorithms:
        if a.lib in chosen or (a.lib == REF_LIB and not libs):
            by_algo.setdefault(a.algo, []).append(a.lib)
    algo_rows = []
    for algo in sorted(by_algo, key=catalog.order_key):
        entry = catalog.get(algo)
        grade = entry.grade.level if entry else "unknown"
        if grades and grade not in grades:
            continue
        kind = entry.kind if entry else next(
            (a.kind for a in inv.algorithms if a.algo == algo), "")
        reason = entry.grade.reason if entry else ""
        algo_rows.append([algo, kind, grade, reason, ", ".join(by_algo[algo])])
    flags = list(inv.preamble.get("cpu_flags") or [])
    return ListView(flags, lib_rows, algo_rows)
