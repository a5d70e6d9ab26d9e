# SPDX-License-Identifier: GPL-3.0-or-later
"""The charts of a release post (pure: what to draw, from coherent evidence).

    hashes     every cryptographic hash by library and version (checksums apart)
    checksums  the CRCs: checksums, not hashes, and an order of magnitude faster
    ecb        every block cipher in ECB (the cipher alone, without a mode's cost)
    ciphers    the block ciphers in ECB beside the stream ciphers (ChaCha20, Salsa20, RC4)
    aes-modes  AES in every mode, one panel per key size, library against library
    aes-hw     each library with its CPU crypto instructions on and off (runs of
               ``run --hw-both``, or a ``--no-hw`` run beside a normal one)

``build(name, runs, ..., opts=ChartOptions(...))`` picks the results (``evidence.gather``: one
machine, one session unless the runs are named, and one library version, hardware state and
core build per series) and returns a ``DotChart``: the rows at least two series have (all with
``all_rows``), the factor of each dot against a reference series (``baseline``), a series
whose intervals are wider than ``max_interval`` marked hollow, the axis (``axis.plan``: log
only where the range demands it, outliers capped) and the caption. ``dots.draw`` draws it as
dots, ``bars.draw`` as bars on a linear axis; ``table.csv_text`` gives its numbers.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from cipherbench import catalog
from cipherbench.report import evidence as E
from cipherbench.report.axis import AxisPlan
from cipherbench.report.data import throughput
from cipherbench.store import Result, Run
from cipherbench.units import format_bytes

#: The chart names, in the order --help lists them, with what each shows.
CHARTS = {
    "hashes": "every cryptographic hash by library and version",
    "checksums": "the CRC checksums, apart from the hashes",
    "ecb": "every block cipher in ECB mode (the cipher alone)",
    "ciphers": "the block ciphers in ECB beside the stream ciphers",
    "aes-modes": "AES in every mode and key size, library against library",
    "aes-hw": "each library with its CPU crypto instructions on and off",
}
#: Operations a chart can show (the first is its default).
CHART_OPS = {"hashes": ("hash",), "checksums": ("hash",), "ecb": ("encrypt", "decrypt"),
             "ciphers": ("encrypt", "decrypt"), "aes-modes": ("encrypt", "decrypt"),
             "aes-hw": ("encrypt", "decrypt")}
#: Charts that keep only the rows at least two series have, unless ``all_rows``.
SHARED_ROWS = ("hashes", "ecb", "ciphers", "aes-modes")
#: The drawing styles: dots (log axis where the range demands it) and bars (linear).
STYLES = ("dots", "bars")
AXES = ("auto", "log", "linear")
#: A series whose 95% intervals are wider than this (the median over its dots of the half
#: width over the value) is drawn hollow, not to be ranked.
MAX_INTERVAL = 0.10
#: Stream ciphers: ciphers on a one-byte block that are not a block cipher's mode.
_STREAM_MODE = re.compile(r".+-(ctr|cfb\d*|ofb)")

#: Hash rows, family by family; hashes outside this list follow in catalog order.
HASH_ORDER = ("md2", "md4", "md5", "sha1", "ripemd128", "ripemd160", "ripemd256", "ripemd320",
              "sha224", "sha256", "sha256-192", "sha384", "sha512", "sha512-224", "sha512-256",
              "sha3-224", "sha3-256", "sha3-384", "sha3-512", "keccak-224", "keccak-256",
              "keccak-384", "keccak-512", "shake128", "shake256", "cshake128", "cshake256",
              "blake2s-128", "blake2s-160", "blake2s-224", "blake2s-256", "blake2b-160",
              "blake2b-256", "blake2b-384", "blake2b-512", "sm3", "streebog-256", "streebog-512",
              "gostr3411-94", "gostr3411-94-test", "tiger", "whirlpool", "crc24", "crc32")
#: AES modes in rows: the plain modes, then the AEADs, then key wrap.
MODE_ORDER = ("ecb", "cbc", "cbc-cts", "cfb", "cfb1", "cfb8", "ofb", "ctr", "xts", "gcm", "ccm",
              "ccm-8", "ocb", "eax", "siv", "gcm-siv", "kw", "kw-inv", "kwp", "kwp-inv")
_AES = re.compile(r"aes-(128|192|256)-(.+)")
#: AES-CBC with an HMAC in one TLS record (OpenSSL's stitched ciphers): a cipher suite's record
#: protection, not a mode of AES, so the AES-modes chart leaves it out.
_NOT_A_MODE = re.compile(r"cbc-hmac-.+")


@dataclass
class ChartOptions:
    """How a chart is chosen and drawn beyond its name and runs."""

    all_rows: bool = False          # every row, not only those two series have
    baseline: str | None = None     # the reference series (``--baseline``)
    max_interval: float = MAX_INTERVAL
    style: str = "dots"
    axis: str = "auto"


@dataclass
class Dot:
    """One measured point: bytes per second with its 95% interval; ``off`` is the same point
    with the CPU features off (aes-hw only); ``factor`` its speed over the reference series'
    in the same row, with the interval from both (``factor_low``, ``factor_high``)."""

    value: float
    low: float | None = None
    high: float | None = None
    off: float | None = None
    off_low: float | None = None
    off_high: float | None = None
    runs: tuple[int, ...] = ()      # the runs it comes from
    factor: float | None = None
    factor_low: float | None = None
    factor_high: float | None = None

    @property
    def factor_unsure(self) -> bool:
        """The factor's interval holds 1: the two dots are not told apart."""
        return (self.factor_low is not None and self.factor_high is not None
                and self.factor_low <= 1.0 <= self.factor_high)


@dataclass
class Panel:
    """Rows of dots; ``dots[(row, series key)]``."""

    title: str
    rows: list[str]
    dots: dict[tuple[str, str], Dot] = field(default_factory=dict)


@dataclass
class SeriesStyle:
    """A legend entry: its label, the library whose colour it takes, its variant (0 for the
    first setting of that library, 1 for the second, ...: another marker)."""

    key: str
    label: str
    lib: str
    variant: int = 0
    hw_off: bool = False        # drawn half filled (a hardware-off setting beside others)
    unreliable: bool = False    # its intervals are wider than the bound: drawn hollow
    baseline: bool = False      # the reference series of the factors
    version: str = ""           # the library's own version string
    runs: tuple[int, ...] = ()


@dataclass
class DotChart:
    """Dots on a logarithmic throughput axis, rows of algorithms, one or more panels."""

    key: str
    title: str
    subtitle: str
    panels: list[Panel]
    series: list[SeriesStyle]
    notes: list[str]
    columns: int = 1
    pairs: bool = False          # each dot joined to its 'off' twin, the ratio written beside
    on_label: str = ""           # pairs: the legend of the filled and the hollow dots
    off_label: str = ""
    name: str = ""               # the chart's name (hashes, ...)
    op: str = ""
    size: int = 0
    style: str = "dots"
    axis: AxisPlan | None = None
    baseline: str | None = None  # the key of the reference series
    caption: list[str] = field(default_factory=list)   # machine, versions, commands

    @property
    def factors(self) -> bool:
        """Each dot carries a factor (against the reference series, or on over off)."""
        return self.pairs or self.baseline is not None


class NothingToDraw(ValueError):
    """The runs hold nothing this chart shows (the message says what to run)."""


class BadBaseline(ValueError):
    """``--baseline`` names no series of the chart, or several (the message lists them)."""


#: What to measure for each chart when the store has nothing for it.
RUN_HINTS = {
    "hashes": "cipherbench run --algo 'md*,sha*,shake*,blake2*,ripemd*,sm3,streebog*,"
              "gostr*,tiger,whirlpool'",
    "checksums": "cipherbench run --algo 'crc*'",
    "ecb": "cipherbench run --algo '*-ecb' --op encrypt",
    "ciphers": "cipherbench run --algo '*-ecb,chacha20,salsa20*,xchacha20,xsalsa20,rc4' "
               "--op encrypt",
    "aes-modes": "cipherbench run --algo 'aes-*' --op encrypt",
    "aes-hw": "cipherbench run --hw-both --algo 'aes-*' --op encrypt",
}


def is_checksum(algo: str) -> bool:
    """A CRC: a checksum, not a cryptographic hash (the catalog grades it so)."""
    return algo.startswith("crc")


def is_stream(algo: str) -> bool:
    """A stream cipher (ChaCha20, Salsa20 and their kin, RC4): a cipher on a one-byte block
    that is not a block cipher's mode."""
    entry = catalog.get(algo)
    return bool(entry and entry.kind == "cipher" and entry.block == 1
                and not _STREAM_MODE.fullmatch(algo))


def _row_of(name: str, algo: str) -> str | None:
    """The row an algorithm takes in chart ``name`` (None: not in it)."""
    entry = catalog.get(algo)
    kind = entry.kind if entry else ""
    if name == "hashes":
        return algo if kind == "hash" and not is_checksum(algo) else None
    if name == "checksums":
        return algo if kind == "hash" and is_checksum(algo) else None
    if name == "ecb":
        return algo if algo.endswith("-ecb") else None
    if name == "ciphers":
        return algo if algo.endswith("-ecb") or is_stream(algo) else None
    m = _AES.fullmatch(algo)
    if name == "aes-modes":
        return algo if m and not _NOT_A_MODE.fullmatch(m.group(2)) else None
    return algo if kind in ("aead", "cipher") or m else None


def _row_sort(name: str, algo: str) -> tuple:
    if name == "ciphers" and is_stream(algo):
        return (1, _natural(algo))
    if name in ("hashes", "checksums"):
        return ((HASH_ORDER.index(algo), 0) if algo in HASH_ORDER
                else (len(HASH_ORDER), catalog.order_key(algo)))
    m = _AES.fullmatch(algo)
    if name in ("ecb", "ciphers"):
        entry = catalog.get(algo)
        block = entry.block if entry else 16
        # 128-bit blocks first, then 64-bit ones; key sizes in numeric order
        return (0, -block, _natural(algo))
    if m:
        mode = m.group(2)
        return (0, MODE_ORDER.index(mode) if mode in MODE_ORDER else len(MODE_ORDER), mode,
                int(m.group(1)))
    return (1, catalog.order_key(algo))


def _natural(text: str) -> tuple:
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p)
                 for p in re.findall(r"\d+|\D+", text))


def build(name: str, runs: list[tuple[Run, list[Result]]], size: int, op: str | None = None,
          libs: list[str] | None = None, named: bool = False,
          opts: ChartOptions | None = None) -> tuple[DotChart, E.Evidence]:
    """The chart ``name`` from ``runs`` (oldest first) at message size ``size``. Raises
    ``NothingToDraw`` (with what to run), ``BadBaseline`` and ``evidence.MixedMachines``."""
    from cipherbench.report import axis, baseline, caption
    opts = opts or ChartOptions()
    op = op or CHART_OPS[name][0]

    def want(r: Result) -> bool:
        return (r.size == size and r.op == op and _row_of(name, r.algo) is not None
                and (not libs or r.lib in libs))

    if name == "aes-hw":
        ev = E.gather(runs, want, named=named, hw="pair")
    else:
        # Hardware off is the aes-hw chart's; named runs that are all hardware-off are drawn
        # as they are.
        ev = E.gather(runs, want, named=named, hw="on")
        if named and (ev is None or not ev.series):
            ev = E.gather(runs, want, named=named, hw="any")
    if ev is None or not ev.series:
        sizes = sorted({r.size for _, rs in runs for r in rs if r.size and r.op == op
                        and _row_of(name, r.algo) is not None})
        where = (f"; the runs measured it at {', '.join(format_bytes(s) for s in sizes)}: "
                 "choose one with --headline-size") if sizes and size not in sizes else ""
        why = " (with the features both on and off)" if name == "aes-hw" else ""
        raise NothingToDraw(f"no stored {op} results at {format_bytes(size)} for the "
                            f"{name} chart{why}{where}; measure them with `{RUN_HINTS[name]}`"
                            + ("" if op == CHART_OPS[name][0] else f" --op {op}"))
    draw = _pairs if name == "aes-hw" else _dots
    chart = draw(name, ev, op, size)
    chart.name, chart.op, chart.size, chart.style = name, op, size, opts.style
    if name in SHARED_ROWS and not opts.all_rows:
        _shared_rows(chart)
    drawn = {i for p in chart.panels for d in p.dots.values() for i in d.runs}
    ev.runs = [r for r in ev.runs if r.id in drawn]
    if ev.session:
        ev.session = E.session_text(ev.runs)     # the runs drawn, of the session chosen
    chart.subtitle = subtitle(ev)
    chart.notes += [f"left out: {x}" for x in ev.left_out]
    _mark_unreliable(chart, opts.max_interval)
    if not chart.pairs:
        key = baseline.resolve(chart, opts.baseline)
        if key is not None:
            baseline.apply(chart, key)
    elif opts.baseline:
        raise BadBaseline("--baseline: the aes-hw chart's reference is each library with its "
                          "features off; leave --baseline out")
    chart.axis = axis.plan(chart, opts.style, opts.axis)
    if chart.axis.capped:
        chart.notes.append("capped (the axis stops short of them, marked \u25b8): "
                           + "; ".join(chart.axis.capped))
    chart.caption = caption.lines(ev, chart)
    if opts.style == "bars":
        chart.notes = [n.replace("each dot: the median", "each bar: the median")
                       .replace("beside each dot", "beside each bar")
                       .replace("(drawn where wider than the dot)", "(the whisker)")
                       for n in chart.notes]
    return chart, ev


def _shared_rows(chart: DotChart) -> None:
    """Keep the rows at least two series have (when the chart has two series); the others
    are named in a note."""
    keys = {s.key for s in chart.series}
    if len(keys) < 2:
        return
    dropped: list[str] = []
    # panels that share their rows (aes-modes' key sizes) keep them lined up: a row stays
    # where two series have it in any panel
    shared = len(chart.panels) > 1 and len({tuple(p.rows) for p in chart.panels}) == 1
    wide = {row for p in chart.panels for row in p.rows
            if len({k for (r, k) in p.dots if r == row}) >= 2}
    for p in chart.panels:
        keep = [row for row in p.rows
                if (row in wide if shared else
                    len({k for (r, k) in p.dots if r == row}) >= 2)]
        if not keep:
            continue
        dropped += [row for row in p.rows if row not in keep and row not in dropped]
        p.dots = {k: d for k, d in p.dots.items() if k[0] in keep}
        p.rows = keep
    if dropped:
        chart.notes.append("left out, measured by one series only (--all draws them): "
                           + ", ".join(dropped))
    chart.panels = [p for p in chart.panels if p.rows]


def interval_width(d: Dot) -> float | None:
    """Half the 95% interval over the value (None without one)."""
    if d.low is None or d.high is None or d.value <= 0:
        return None
    return (d.high - d.low) / 2 / d.value


def _mark_unreliable(chart: DotChart, bound: float) -> None:
    """Series whose intervals are wider than ``bound`` (the median over their dots) are
    drawn hollow, with a note naming each and the way to measure it better."""
    for st in chart.series:
        widths = sorted(w for p in chart.panels for (_, k), d in p.dots.items()
                        if k == st.key and (w := interval_width(d)) is not None)
        if not widths:
            continue
        mid = widths[len(widths) // 2]
        if mid > bound:
            st.unreliable = True
            if chart.pairs:     # hollow is the features off there: the panel's title says it
                for p in chart.panels:
                    if any(k == st.key for (_, k) in p.dots):
                        p.title += " (too imprecise to rank)"
            chart.notes.append(
                f"{'marked' if chart.pairs else 'hollow'}: {st.label}: its 95% intervals are wider than \u00b1{bound:.0%} "
                f"(\u00b1{mid:.0%} typically), too wide to rank; measure it again on a quieter "
                "machine (run --wait-quiet) or with a larger --budget")


def _dot(r: Result) -> Dot:
    t = throughput(r)
    assert t is not None
    return Dot(t[0], t[1], t[2], runs=(r.run_id,) if r.run_id is not None else ())


def _title(name: str, op: str, size: int) -> str:
    at = format_bytes(size)
    return {
        "hashes": f"Hash functions: throughput at {at} by library and version",
        "checksums": f"Checksums (CRC, not hashes): throughput at {at}",
        "ecb": f"Block ciphers in ECB mode: {op} throughput at {at}",
        "ciphers": f"Block ciphers (ECB) and stream ciphers: {op} throughput at {at}",
        "aes-modes": f"AES by mode and key size: {op} throughput at {at}",
        "aes-hw": f"CPU crypto instructions on and off: {op} throughput at {at}",
    }[name]


def _dots(name: str, ev: E.Evidence, op: str, size: int) -> DotChart:
    styles: list[SeriesStyle] = []
    variants: dict[str, int] = {}
    # The runs go into the legend when the series do not all come from the same ones (the
    # subtitle names them in any case).
    one_source = len({tuple(s.runs) for s in ev.series}) == 1
    for i, s in enumerate(ev.series):
        v = variants.setdefault(s.setting.lib, 0)
        variants[s.setting.lib] += 1
        styles.append(SeriesStyle(str(i), s.setting.label() if one_source else s.label(),
                                  s.setting.lib, v, bool(s.setting.hw_off),
                                  version=s.setting.version, runs=tuple(s.runs)))
    algos = sorted({a for s in ev.series for (a, _) in s.cells}, key=lambda a: _row_sort(name, a))
    if name == "aes-modes":
        panels = []
        modes = list(dict.fromkeys(_AES.fullmatch(a).group(2) for a in algos))  # type: ignore
        for bits in ("128", "192", "256"):
            rows = [a for a in algos if _AES.fullmatch(a).group(1) == bits]  # type: ignore
            if rows:
                # every panel has every mode, so that rows line up across key sizes
                p = Panel(f"AES-{bits}", modes)
                for i, s in enumerate(ev.series):
                    for a in rows:
                        r = s.cells.get((a, op))
                        if r is not None:
                            p.dots[(_AES.fullmatch(a).group(2), str(i))] = _dot(r)  # type: ignore
                panels.append(p)
        columns = len(panels)
    else:
        groups = [("", algos)]
        if name == "ciphers":
            groups = [("block ciphers in ECB", [a for a in algos if not is_stream(a)]),
                      ("stream ciphers", [a for a in algos if is_stream(a)])]
        panels = []
        for title, rows in groups:
            if not rows:
                continue
            p = Panel(title, rows)
            for i, s in enumerate(ev.series):
                for a in rows:
                    r = s.cells.get((a, op))
                    if r is not None:
                        p.dots[(a, str(i))] = _dot(r)
            panels.append(p)
        columns = 1
    return DotChart(f"{name}-{format_bytes(size).replace(' ', '')}", _title(name, op, size),
                    "", panels, styles, notes(ev), columns)


def _pairs(name: str, ev: E.Evidence, op: str, size: int) -> DotChart:
    """One panel per library: each algorithm's rate with the features on (filled) and off
    (hollow), joined, the speed-up written beside."""
    on = {(s.setting.lib, s.setting.version): s for s in ev.series if not s.setting.hw_off}
    off = {(s.setting.lib, s.setting.version): s for s in ev.series if s.setting.hw_off}
    panels, styles = [], []
    for key in on:
        if key not in off:
            continue
        a, b = on[key], off[key]
        rows = sorted({x for (x, o) in a.cells if (x, o) in b.cells},
                      key=lambda x: _row_sort(name, x))
        if not rows:
            continue
        p = Panel(a.setting.label(False), rows)
        for x in rows:
            d, d_off = _dot(a.cells[(x, op)]), _dot(b.cells[(x, op)])
            d.off, d.off_low, d.off_high = d_off.value, d_off.low, d_off.high
            d.runs += d_off.runs
            d.factor = d.value / d.off
            if (d.low is not None and d.high is not None and d.off_low is not None
                    and d.off_high is not None):
                d.factor_low, d.factor_high = d.low / d.off_high, d.high / d.off_low
            p.dots[(x, a.setting.lib)] = d
        runs = sorted({i for d in p.dots.values() for i in d.runs})
        p.title = (f"{a.setting.label(False)} (run{'s' if len(runs) > 1 else ''} "
                   f"{', '.join(map(str, runs))})")
        panels.append(p)
        styles.append(SeriesStyle(a.setting.lib, p.title, a.setting.lib,
                                  version=a.setting.version, runs=tuple(runs)))
    features = sorted({f for s in off.values() for f in s.setting.hw_off})
    return DotChart(f"{name}-{format_bytes(size).replace(' ', '')}", _title(name, op, size),
                    "", panels, styles, notes(ev) + ["the factor beside each pair: on / off; "
                                                  "~ and grey where the two intervals overlap"],
                    min(3, max(1, len(panels))), pairs=True,
                    on_label="instructions on (as the CPU runs it)",
                    off_label=f"off: {', '.join(features)} (each library's own switch)")


def subtitle(ev: E.Evidence) -> str:
    """Machine, runs with their dates, and how busy the machine was."""
    runs = ev.runs
    days = sorted({r.started_at[:10] for r in runs})
    ids = ", ".join(str(r.id) for r in runs)
    if ev.session:
        # the set of runs the chart chose, named (with its times and loads)
        return f"{ev.machine.text()}; {ev.session}" + _shares(runs)
    text = (f"{ev.machine.text()}; run{'s' if len(runs) > 1 else ''} {ids} "
            f"({days[0]}{' to ' + days[-1] if len(days) > 1 else ''})")
    loads = [float(r.metadata["loadavg"]) for r in runs
             if isinstance(r.metadata.get("loadavg"), (int, float))]
    if loads:
        text += f"; load average {_span(loads, '{:.1f}')} at the start"
    return text + _shares(runs)


def _shares(runs: list[Run]) -> str:
    shares = [float(r.metadata["cpu_share"]) for r in runs
              if isinstance(r.metadata.get("cpu_share"), (int, float))]
    if not shares:
        return ""
    return (f", the run{'s' if len(runs) > 1 else ''} got "
            f"{_span([s * 100 for s in shares], '{:.0f}')}% of a CPU")


def _span(xs: list[float], fmt: str) -> str:
    lo, hi = fmt.format(min(xs)), fmt.format(max(xs))
    return lo if lo == hi else f"{lo}-{hi}"


def notes(ev: E.Evidence) -> list[str]:
    """The lines under a chart: what a dot is."""
    return ["each dot: the median of one point with its 95% interval (drawn where wider than "
            "the dot); one series = one library version, hardware state and core build, "
            "never mixed"]
