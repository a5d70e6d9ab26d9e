"""Outcomes to store rows, and store rows to the ranked table (computing apart from printing).

Each measured combination is stored as scenario ``ssh``, lib ``openssh`` (the baseline as lib
``tcp``), algo ``CIPHER`` or ``CIPHER+MAC``, op ``transfer``, size = bytes each timed transfer
actually sent (less than ``--size`` for a slow combination: ``extra.requested_size`` keeps
``--size``), with three metrics: ``bytes_per_s`` (the headline, with everything the table
needs in ``extra``, the run-to-run spread as ``cv``), ``client_cpu_s`` and ``server_cpu_s``
(CPU seconds of each end per transfer).
"""
from __future__ import annotations

from dataclasses import dataclass

from cipherbench import stats
from cipherbench.scenarios.ssh.runner import BASELINE, Combo, Outcome, describe
from cipherbench.store import Result
from cipherbench.units import format_bytes

SCENARIO = "ssh"
#: A path is called the bottleneck when the fastest cipher reaches this share of the baseline.
PATH_BOUND = 0.90
#: An end is called CPU-bound when its CPU time is at least this share of the wall time.
CPU_BOUND = 0.85


def _median_ci(xs: list[float]) -> tuple[float, float, float, float] | None:
    if not xs:
        return None
    s = stats.summarize(xs)
    return s.median, s.ci_low, s.ci_high, s.cv


def to_results(out: Outcome, *, target: str, client_default: Combo | None) -> list[Result]:
    """The store rows of one successful outcome (none for a failed one)."""
    if out.status != "ok" or out.stability is None:
        return []
    combo = out.combo
    st = out.stability
    s = st.summary
    nbytes = out.sample_bytes
    lib = "tcp" if combo.is_baseline else "openssh"

    def col(name: str) -> list[float]:
        return [getattr(x, name) for x in out.samples if getattr(x, name) is not None]

    walls, client, server = col("wall_s"), col("client_cpu_s"), col("server_cpu_s")
    extra = describe(combo)
    extra.update({
        "target": target,
        "client_default": combo == client_default,
        "wall_s": walls,
        "setup_s": stats.median(col("setup_s")) if col("setup_s") else None,
        "client_cpu_s": stats.median(client) if client else None,
        "server_cpu_s": stats.median(server) if server else None,
        "client_cpu_share": stats.median([x.client_cpu_s / x.wall_s for x in out.samples
                                          if x.client_cpu_s is not None]) if client else None,
        "server_cpu_share": stats.median([x.server_cpu_s / x.wall_s for x in out.samples
                                          if x.server_cpu_s is not None]) if server else None,
        "server_cpu_method": out.samples[0].server_cpu_method,
        "sink_cpu_s": stats.median(col("sink_cpu_s")) if col("sink_cpu_s") else None,
        "verified": out.verified,
        # the combination whose hashed transfer proved this cipher (itself, or the same
        # cipher with another MAC), and its size
        "checked_with": out.check.combo.algo if out.check else None,
        "check_bytes": out.check.nbytes if out.check else None,
        # the time bound: --size, and what each sample sent when it stopped some short
        "requested_size": out.requested_bytes or nbytes,
        "sample_cut": out.cut,
        "sample_bytes": [x.nbytes for x in out.samples],
        "stop_reason": st.reason,
        "elapsed_s": st.elapsed_s,        # this row's share of the sweep, check included
        "rel_half_width": s.rel_half_width,
        "tool": out.samples[0].extra.get("tool"),
    })
    rows = [Result(scenario=SCENARIO, lib=lib, algo=combo.algo, op="transfer", size=nbytes,
                   metric="bytes_per_s", unit="B/s", median=s.median, ci_low=s.ci_low,
                   ci_high=s.ci_high, n_samples=s.n, cv=s.cv, extra=extra)]
    for metric, xs in (("client_cpu_s", client), ("server_cpu_s", server)):
        m = _median_ci(xs)
        if m:
            rows.append(Result(scenario=SCENARIO, lib=lib, algo=combo.algo, op="transfer",
                               size=nbytes, metric=metric, unit="s", median=m[0], ci_low=m[1],
                               ci_high=m[2], n_samples=len(xs), cv=m[3],
                               extra={"method": out.samples[0].server_cpu_method
                                      if metric == "server_cpu_s" else "schedstat"}))
    return rows


@dataclass
class Row:
    """One line of the ranked table."""

    rank: int | None
    cipher: str
    mac: str
    throughput: float           # bytes/s
    ci_pct: float               # half-width of the CI, % of the median
    spread_pct: float           # coefficient of variation of the samples, %
    n: int
    vs_default: float | None    # throughput / the client default's
    vs_baseline: float | None   # throughput / the cleartext baseline's
    client_cpu: float | None    # share of one core while sending
    server_cpu: float | None
    grade: str
    is_default: bool
    is_baseline: bool
    note: str = ""
    size: int = 0               # bytes per timed sample
    cut: bool = False           # fewer bytes than --size per sample (a slow combination)


def rows(results: list[Result]) -> list[Row]:
    """Ranked rows (fastest first, the baseline among them) from stored ``ssh`` results."""
    heads = [r for r in results if r.scenario == SCENARIO and r.metric == "bytes_per_s"]
    base = next((r for r in heads if r.algo == BASELINE), None)
    default = next((r for r in heads if r.extra.get("client_default")), None)
    out: list[Row] = []
    for r in sorted(heads, key=lambda r: -r.median):
        is_base = r.algo == BASELINE
        half = ((r.ci_high or r.median) - (r.ci_low or r.median)) / 2
        tool = r.extra.get("tool")
        out.append(Row(
            rank=None, cipher=(f"cleartext ({tool})" if is_base and tool else
                               "cleartext" if is_base else r.extra.get("cipher", r.algo)),
            mac="" if is_base else (r.extra.get("mac") or "(AEAD)"),
            throughput=r.median, ci_pct=100 * half / r.median if r.median else 0.0,
            spread_pct=100 * (r.cv or 0.0), n=r.n_samples,
            vs_default=r.median / default.median if default and not is_base else None,
            vs_baseline=r.median / base.median if base and not is_base else None,
            client_cpu=r.extra.get("client_cpu_share"), server_cpu=r.extra.get("server_cpu_share"),
            grade=r.extra.get("grade", ""), is_default=bool(r.extra.get("client_default")),
            is_baseline=is_base, note=r.extra.get("note", ""), size=r.size,
            cut=bool(r.extra.get("sample_cut"))))
    rank = 0
    for row in out:
        if not row.is_baseline:
            rank += 1
            row.rank = rank
    return out


def cut_note(table: list[Row], requested: int | None, max_s: float | None) -> str | None:
    """The footnote of rows marked † (samples stopped before ``--size``), or None."""
    if not any(r.cut for r in table):
        return None
    bound = f"{max_s:g} s" if max_s else "the time bound"
    whole = f"all {format_bytes(requested)}" if requested else "all of --size"
    return (f"† slow: a sample stops sending after {bound} unless three quarters are sent; "
            f"MiB = what each sample sent (median); --full-samples always sends {whole}.")


def bottleneck(table: list[Row]) -> str:
    """One sentence: is crypto the bottleneck, or the path?"""
    ciphers = [r for r in table if not r.is_baseline]
    base = next((r for r in table if r.is_baseline), None)
    if not ciphers:
        return "No cipher was measured."
    best, worst = ciphers[0], ciphers[-1]
    spread = 1 - worst.throughput / best.throughput if best.throughput else 0.0
    cpu = max((c for c in (best.client_cpu, best.server_cpu) if c is not None), default=None)
    end = ""
    if cpu is not None:
        side = "server (sshd)" if (best.server_cpu or 0) >= (best.client_cpu or 0) else "client (ssh)"
        end = f"; the {side} uses {cpu:.0%} of a core"
    if base is not None and best.vs_baseline is not None:
        if best.vs_baseline >= PATH_BOUND:
            low = worst.vs_baseline or 0.0
            every = (f"every cipher reaches {low:.0%} to {best.vs_baseline:.0%} of the cleartext "
                     "baseline" if len(ciphers) > 1 else
                     f"{best.cipher} reaches {best.vs_baseline:.0%} of the cleartext baseline")
            if low >= PATH_BOUND:
                return f"The path is the bottleneck, not the cipher: {every}; choose by security."
            return (f"The path is the bottleneck for the fastest ciphers: {best.cipher} reaches "
                    f"{best.vs_baseline:.0%} of the cleartext baseline, the slowest "
                    f"({worst.cipher}) {spread:.0%} less.")
        bound = "SSH's CPU cost" if cpu is not None and cpu >= CPU_BOUND else "SSH processing"
        return (f"Crypto is the bottleneck: the fastest cipher ({best.cipher}) reaches only "
                f"{best.vs_baseline:.0%} of the cleartext baseline; {bound} limits the "
                f"transfer{end}.")
    if cpu is not None and cpu >= CPU_BOUND:
        return f"Crypto is likely the bottleneck (no baseline){end}."
    return f"No baseline; neither end is CPU-bound, so the path likely limits the transfer{end}."


def mbps(bps: float) -> str:
    """Bytes/s as MB/s (10^6) text."""
    return f"{bps / 1e6:,.0f}" if bps >= 1e8 else f"{bps / 1e6:,.1f}"


def short(name: str) -> str:
    """An OpenSSH algorithm name without the ``@openssh.com`` suffix (for narrow tables)."""
    return name.removesuffix("@openssh.com")


def table_lines(table: list[Row]) -> tuple[list[str], list[list[str]]]:
    """Header and cells of the table (text only; the CLI renders them). Names lose their
    ``@openssh.com`` suffix. A ``MiB`` column (bytes per sample) appears when the time bound
    cut any row's samples."""
    sizes = any(r.cut for r in table)
    header = ["#", "cipher", "MAC", "MB/s"] + (["MiB"] if sizes else []) + [
        "±CI", "n", "spread", "vs dflt", "of clear", "CPU %", "grade"]
    cells = []
    for r in table:
        cpu = "/".join("-" if c is None else f"{100 * c:.0f}" for c in (r.client_cpu, r.server_cpu))
        cells.append([
            "" if r.rank is None else str(r.rank),
            short(r.cipher) + (" *" if r.is_default else ""),
            short(r.mac),
            mbps(r.throughput) + (" †" if r.cut else ""),
            *([f"{r.size / (1 << 20):.0f}"] if sizes else []),
            f"{r.ci_pct:.1f}%",
            str(r.n),
            f"{r.spread_pct:.1f}%",
            "" if r.vs_default is None else f"{r.vs_default:.2f}x",
            "" if r.vs_baseline is None else f"{r.vs_baseline:.0%}",
            cpu,
            "" if r.is_baseline else r.grade,
        ])
    return header, cells
