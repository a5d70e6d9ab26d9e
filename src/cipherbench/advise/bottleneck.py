"""Is crypto the bottleneck? Compare candidate rates with the link or disk, in words.

``--link`` units (decimal, as links are sold): a number with ``bit``, ``b``, ``bps`` or
``bit/s`` after an optional k/M/G/T prefix is bits per second (``1Gbit``, ``100Mbps``,
``100Mb``); with ``B``, ``B/s`` or ``Bps`` it is bytes per second (``125MB/s``; ``MiB/s`` and
``GiB/s`` are binary). A bare number with a prefix (``100M``, ``10G``) is bits per second, as
link speeds are quoted; a bare number without a prefix is bytes per second.
"""
from __future__ import annotations

import re

from cipherbench.advise.evidence import Rate
from cipherbench.advise.rank import Ranked, allowed, best, default_row
from cipherbench.errors import UsageError
from cipherbench.units import format_rate

_PREFIX = {"": 1, "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12}
_BIN = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
#: "Not the bottleneck" needs the slowest allowed choice at least this much above the link.
MARGIN = 1.5
#: Below this ratio to the default, the choice barely matters.
SMALL = 1.10


def parse_link(text: str) -> tuple[float, str]:
    """``--link`` text -> (bytes per second, how to say it). Raises ``UsageError``."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kKmMgGtT]?)(i?)\s*(bits?(?:/s)?|bps|b(?:/s)?|"
                     r"B(?:/s)?|Bps)?\s*", text or "")
    if not m or float(m.group(1)) <= 0:
        raise UsageError(f"--link {text!r} is not a speed: use e.g. 1Gbit, 100Mbit, 100M "
                         "(bits/s) or 125MB/s (bytes/s)")
    value, prefix, binary, unit = float(m.group(1)), m.group(2).lower(), m.group(3), m.group(4)
    bits = unit in (None, "") and prefix != "" or (unit or "").lower().startswith("bit") or \
        unit in ("b", "b/s", "bps")
    if binary and bits:
        raise UsageError(f"--link {text!r}: binary prefixes (Mi, Gi) are for bytes: "
                         "use MiB/s, or Mbit for bits")
    scale = _BIN[prefix] if binary else _PREFIX[prefix]
    if bits:
        bps = value * scale / 8
        return bps, f"{format_bits(bps)} link"
    return value * scale, f"{format_rate(value * scale)} link or disk"


def format_bits(bps: float) -> str:
    """Bytes per second as Gbit/s or Mbit/s."""
    bits = bps * 8
    return f"{bits / 1e9:g} Gbit/s" if bits >= 1e9 else f"{bits / 1e6:g} Mbit/s"


def _times(x: float) -> str:
    return f"{x:.0f}x" if x >= 10 else f"{x:.1f}x"


def sentence(rows: list[Ranked], link: tuple[float, str] | None = None,
             baseline: Rate | None = None) -> str:
    """One or two sentences: link (or the measured baseline) against the allowed rates, or,
    without either, how much the choice of cipher matters on this CPU."""
    ok = [r for r in allowed(rows) if r.rate is not None]
    top = best(rows)
    if not ok or top is None or top.rate is None:
        return "No allowed choice was measured, so the bottleneck cannot be told."
    fastest, slowest = ok[0], ok[-1]
    name = fastest.cand.label
    if link is not None:
        speed, what = link
        if slowest.rate.bps >= speed * MARGIN:
            return (f"Crypto is not your bottleneck, the link is: every allowed choice is at least "
                    f"{_times(slowest.rate.bps / speed)} faster than your {what}; choose by "
                    "security.")
        if fastest.rate.bps < speed:
            return (f"Crypto is your bottleneck: even the fastest allowed choice ({name}, "
                    f"{format_rate(fastest.rate.bps)}) reaches only "
                    f"{fastest.rate.bps / speed:.0%} of your {what}.")
        below = [r for r in ok if r.rate.bps < speed * MARGIN]
        return (f"The link is the bottleneck for the fastest choices: {name} is "
                f"{_times(fastest.rate.bps / speed)} faster than your {what}, but "
                f"{', '.join(r.cand.label for r in below[:3])} "
                f"{'comes' if len(below) == 1 else 'come'} close to it or below; choose among "
                "the faster ones.")
    if baseline is not None and baseline.bps > 0:
        share = fastest.rate.bps / baseline.bps
        if share >= 0.9:
            return (f"The path is the bottleneck, not the cipher: the fastest allowed choice "
                    f"reaches {share:.0%} of the cleartext baseline "
                    f"({format_rate(baseline.bps)}); choose by security.")
        prefix = (f"Crypto is the bottleneck: the fastest allowed choice reaches {share:.0%} "
                  f"of the cleartext baseline ({format_rate(baseline.bps)}). ")
    else:
        prefix = ""
    dflt = default_row(rows)
    if dflt is not None and dflt.rate is not None and dflt is not fastest:
        ratio = fastest.rate.bps / dflt.rate.bps
        if fastest.rate.overlaps(dflt.rate):
            return (prefix + f"{name} ({format_rate(fastest.rate.bps)}) and the default "
                    f"({dflt.cand.label}, {format_rate(dflt.rate.bps)}) are within the "
                    "measurement noise of each other: keeping the default is as good.")
        if ratio >= SMALL:
            return (prefix + f"On this CPU the cipher decides: {name} is {ratio:.1f}x faster "
                    f"than the default ({dflt.cand.label}).")
        return (prefix + f"On this CPU the choice barely matters: {name} is only "
                f"{(ratio - 1):.0%} faster than the default ({dflt.cand.label}).")
    if dflt is fastest and len(ok) > 1:
        ratio = fastest.rate.bps / ok[1].rate.bps
        return (prefix + f"The default ({name}) is already the fastest allowed choice, "
                f"{ratio:.1f}x the next ({ok[1].cand.label}).")
    if len(ok) > 1:
        ratio = fastest.rate.bps / slowest.rate.bps
        if ratio >= SMALL:
            return (prefix + f"On this CPU the cipher decides: {name} is {ratio:.1f}x faster "
                    f"than the slowest allowed choice ({slowest.cand.label}).")
        return prefix + "On this CPU the choice barely matters: the allowed choices are within " \
            f"{(ratio - 1):.0%} of each other."
    return prefix + f"{name} is the only allowed choice measured."
